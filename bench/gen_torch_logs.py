#!/usr/bin/env python3
"""TORCH_LOGS text of any size, for the text reader's benchmark.

  python3 bench/gen_torch_logs.py OUT --mb 100 [--noise 0.9]

Writes glog-prefixed TORCH_LOGS output as PyTorch 2.4+ prints it with
TORCH_LOGS="+dynamo,recompiles,graph_breaks,guards": `+dynamo` debug noise
(bytecode tracing, guard building) with, among it, recompiles of a few
frames, recompile-limit warnings, graph breaks in the structured form and
guard dumps. --noise is the share of lines that are noise. Deterministic.
"""
import argparse
import random

PFX = "V0102 03:04:%02d.%06d 4242 torch/_dynamo/%s] [%d/%d] %s"


def records(rng):
    t = 0
    frame_recompiles = {}
    while True:
        t += 1
        # A few frames, each recompiling up to its limit (8), as in a real
        # job: the events are few, the noise is what makes the size.
        f = rng.randrange(40)
        n = frame_recompiles.get(f, 0) + 1
        frame_recompiles[f] = n
        if n > 9:
            f, n = rng.randrange(40, 4000), 0
        sec, us = (t // 1000) % 60, (t * 37) % 1000000
        kind = rng.random()
        if kind < 0.5 and 0 < n < 9:
            yield [PFX % (sec, us, "guards.py:3001", f, n, "[__recompiles] Recompiling function fn%d in /home/u/proj/mod%d.py:%d" % (f, f % 7, 10 + f)),
                   PFX % (sec, us, "guards.py:3001", f, n, "[__recompiles]     triggered by the following guard failure(s):"),
                   PFX % (sec, us, "guards.py:3001", f, n, "[__recompiles]     - %d/%d: tensor 'L['x']' size mismatch at index 0. expected %d, actual %d" % (f, n - 1, n, n + 1))]
        elif kind < 0.6 and n == 9:
            yield [PFX % (sec, us, "convert_frame.py:900", f, n, "torch._dynamo hit config.recompile_limit (8)"),
                   PFX % (sec, us, "convert_frame.py:900", f, n, "   function: 'fn%d' (/home/u/proj/mod%d.py:%d)" % (f, f % 7, 10 + f)),
                   PFX % (sec, us, "convert_frame.py:900", f, n, "   last reason: %d/%d: L['k'] == %d" % (f, n - 1, n))]
        elif kind < 0.9:
            loc = "/home/u/proj/mod%d.py:%d" % (f % 7, 20 + f)
            yield [PFX % (sec, us, "symbolic_convert.py:444", f, n, "[__graph_breaks] Graph break in user code at " + loc),
                   PFX % (sec, us, "symbolic_convert.py:444", f, n, "[__graph_breaks] Graph Break Reason: Failed to trace builtin operator"),
                   PFX % (sec, us, "symbolic_convert.py:444", f, n, "[__graph_breaks]   Explanation: Dynamo does not know how to trace builtin operator `print` with argument types ['str'] (has_kwargs False)"),
                   PFX % (sec, us, "symbolic_convert.py:444", f, n, "[__graph_breaks] User code traceback:"),
                   PFX % (sec, us, "symbolic_convert.py:444", f, n, "[__graph_breaks]   File \"/home/u/proj/mod%d.py\", line %d, in fn%d" % (f % 7, 20 + f, f)),
                   PFX % (sec, us, "symbolic_convert.py:444", f, n, "[__graph_breaks]     print(\"step\", i)")]
        else:
            yield [PFX % (sec, us, "guards.py:2200", f, n, "[__guards] GUARDS:"),
                   PFX % (sec, us, "guards.py:2200", f, n, "[__guards] TREE_GUARD_MANAGER:"),
                   PFX % (sec, us, "guards.py:2200", f, n, "[__guards] +- RootGuardManager"),
                   PFX % (sec, us, "guards.py:2200", f, n, "[__guards] | +- GLOBAL_STATE: ___check_global_state()")]


def noise(rng, i):
    ops = ["LOAD_FAST x []", "LOAD_ATTR weight [NNModuleVariable()]", "CALL_FUNCTION 1 [TorchVariable(relu), TensorVariable()]", "STORE_FAST y [TensorVariable()]", "RETURN_VALUE None [TensorVariable()]"]
    return "V0102 03:04:%02d.%06d 4242 torch/_dynamo/symbolic_convert.py:775] [%d/0] TRACE %s" % ((i // 1000) % 60, (i * 13) % 1000000, i % 40, ops[i % len(ops)])


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out")
    ap.add_argument("--mb", type=float, default=100)
    ap.add_argument("--noise", type=float, default=0.98)
    a = ap.parse_args()
    rng = random.Random(22)
    want = int(a.mb * 1024 * 1024)
    rec = records(rng)
    written, i = 0, 0
    with open(a.out, "w") as f:
        while written < want:
            i += 1
            if rng.random() < a.noise:
                lines = [noise(rng, i)]
            else:
                lines = next(rec)
            chunk = "\n".join(lines) + "\n"
            f.write(chunk)
            written += len(chunk)


if __name__ == "__main__":
    main()
