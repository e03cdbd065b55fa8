#!/usr/bin/env python3
"""Synthetic TORCH_TRACE (structured trace) log generator for benchmarking tlscope.

Writes logs in the format described in shared/spec/TRACE_FORMAT.md: glog-prefixed
JSON envelopes, TAB-prefixed payload lines, `has_payload` = MD5 of the payload.
The content imitates a torch.compile training run: many frames (code objects),
recompiles (frame_compile_id 0..k), graph-break restarts (attempt 1) with resume
frames, some failed compiles, FX graphs, Triton output code, guards, chromium
events, cache artifacts and compilation metrics.

Usage:
  python3 bench/gen_trace.py OUT.log --size-mb 100 [--seed 1] [--rank N] [--big-payload-mb M]
  python3 bench/gen_trace.py --ranks 8 --out-dir DIR --size-mb 50 [--jobs 2]
  python3 bench/gen_trace.py examples/example.log --example

Speed: payloads are rendered once per (model, layers, mode) into templates with
@@TOKEN@@ placeholders; each compile only substitutes a few tokens, so the cost
per byte is a handful of C-level str.replace / md5 passes.  Output is ASCII.
"""
import argparse
import json
import os
import random
import sys
import time

# The generator lives in the package bench/tracegen/; make it importable from any
# working directory, and keep the source tree free of __pycache__ folders.
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from tracegen.doctor_cases import DOCTOR_CASES, write_doctor_case  # noqa: E402
from tracegen.run import Gen, user_frames  # noqa: E402
from tracegen.writer import B32, CACHE_DIR, SRC, Trace  # noqa: E402


def big_output_code(t, rng, mb):
    """One inductor_output_code record of about `mb` MB for compile [0/0], as a large
    model's generated code is: many kernels of one shape, each naming a cache path
    with a hash (which differs between two runs of one program, so a diff of two
    seeds meets a payload that differs by its hashes only)."""
    lines, size, i = [], 0, 0
    while size < mb * 1e6:
        h = "".join(rng.choice(B32) for _ in range(51))
        block = (
            "# kernel path: %s%s/c%s.py\n"
            "@triton.jit\n"
            "def triton_poi_fused_add_mul_%d(in_ptr0, in_ptr1, out_ptr0, xnumel, XBLOCK : tl.constexpr):\n"
            "    xnumel = %d\n"
            "    xoffset = tl.program_id(0) * XBLOCK\n"
            "    xindex = xoffset + tl.arange(0, XBLOCK)[:]\n"
            "    xmask = xindex < xnumel\n"
            "    tmp0 = tl.load(in_ptr0 + (xindex), xmask)\n"
            "    tmp1 = tl.load(in_ptr1 + (xindex), xmask)\n"
            "    tmp2 = tmp0 * tmp1 + tmp0\n"
            "    tl.store(out_ptr0 + (xindex), tmp2, xmask)\n" % (CACHE_DIR, h[:2], h, i, 4096 * (1 + i % 64)))
        lines.append(block)
        size += len(block)
        i += 1
    t.emit(SRC["code"], '"inductor_output_code": {"filename": "%s/big.py"}' % CACHE_DIR.rstrip("/"),
           t.ids(0, 0, 0), "".join(lines).rstrip("\n"))


def write_log(path, size_mb, seed, rank, max_steps=None, example=False, big_payload_mb=0):
    """Write one log; returns (bytes, steps, counts)."""
    rng = random.Random(seed * 1000003 + (rank or 0))
    with open(path, "w", encoding="ascii", newline="\n") as out:
        t = Trace(out, rank, rng)
        g = Gen(t, rng, rank)
        if example:
            steps = 0
            g.run_example()
        else:
            # structure comes from `seed` only, so all ranks compile the same frames
            g.rng = random.Random(seed)
            t.rng = rng
            steps = g.run_random(int(size_mb * 1e6), max_steps)
            if big_payload_mb > 0:
                big_output_code(t, rng, big_payload_mb)
        if rank is not None:  # execution order record without a compile id (multi-rank check)
            order = ["%d/%d" % (i, 0) for i in range(min(g.next_fid, 16))]
            t.emit(SRC["dist"], '"artifact": {"name": "graph_execution", "encoding": "json"}%s, "stack": %s'
                   % (t.rank_kv, t.stack(user_frames("models/mlp.py", 0)[:3])), "",
                   json.dumps({"graph_execution_order": order}, indent=0))
        t.flush()
    return t.total, steps, g.counts


def _rank_job(a):
    out_dir, r, size_mb, seed, steps, suffix = a
    path = os.path.join(out_dir, "dedicated_log_torch_trace_rank_%d_%s.log" % (r, suffix))
    n, _, _ = write_log(path, size_mb, seed, r, max_steps=steps)
    return path, n


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("out", nargs="?", help="output log file (single-log mode)")
    ap.add_argument("--size-mb", type=float, default=100.0, help="approximate size per log (MB = 1e6 bytes)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rank", type=int, default=None, help="add \"rank\": N to every record")
    ap.add_argument("--ranks", type=int, default=None, help="write K rank logs into --out-dir")
    ap.add_argument("--out-dir", default=None)
    ap.add_argument("--jobs", type=int, default=min(4, os.cpu_count() or 1), help="processes for --ranks")
    ap.add_argument("--example", action="store_true", help="small deterministic demo log")
    ap.add_argument("--big-payload-mb", type=float, default=0,
                    help="end the log with one output-code payload of about this size (single-log mode)")
    ap.add_argument("--doctor-case", choices=DOCTOR_CASES, default=None,
                    help="small log showing one class of the compile doctor (tlscope summary)")
    a = ap.parse_args()
    t0 = time.time()
    if a.doctor_case:
        if not a.out:
            ap.error("output file required")
        d = os.path.dirname(a.out)
        if d:
            os.makedirs(d, exist_ok=True)
        n = write_doctor_case(a.out, a.doctor_case)
        print("wrote %s: %s case, %d bytes" % (a.out, a.doctor_case, n))
        return
    if a.big_payload_mb and (a.ranks or a.example):
        ap.error("--big-payload-mb is for single logs (not --ranks or --example)")
    if a.ranks:
        if not a.out_dir:
            ap.error("--ranks needs --out-dir")
        os.makedirs(a.out_dir, exist_ok=True)
        # rank 0 decides how many compile steps fit; the others replay the same structure
        def sfx(r):  # the random suffix PyTorch appends to trace file names
            rr = random.Random(a.seed * 7919 + r)
            return "".join(rr.choice("abcdefghijklmnopqrstuvwxyz0123456789") for _ in range(8))
        p0 = os.path.join(a.out_dir, "dedicated_log_torch_trace_rank_0_%s.log" % sfx(0))
        n0, steps, _ = write_log(p0, a.size_mb, a.seed, 0)
        jobs = [(a.out_dir, r, a.size_mb, a.seed, steps, sfx(r)) for r in range(1, a.ranks)]
        total = n0
        if a.jobs > 1 and len(jobs) > 1:
            import multiprocessing
            with multiprocessing.Pool(a.jobs) as pool:
                total += sum(n for _, n in pool.imap_unordered(_rank_job, jobs))
        else:
            total += sum(_rank_job(j)[1] for j in jobs)
        dt = time.time() - t0
        print("wrote %d rank logs to %s: %.1f MB in %.1f s" % (a.ranks, a.out_dir, total / 1e6, dt))
        return
    if not a.out:
        ap.error("output file required")
    d = os.path.dirname(a.out)
    if d:
        os.makedirs(d, exist_ok=True)
    n, _, counts = write_log(a.out, a.size_mb, a.seed, a.rank, example=a.example,
                             big_payload_mb=a.big_payload_mb)
    dt = time.time() - t0
    print("wrote %s: %.2f MB in %.2f s (%.0f MB/s) %s" % (
        a.out, n / 1e6, dt, n / 1e6 / max(dt, 1e-9), " ".join("%s=%d" % kv for kv in sorted(counts.items()))))


if __name__ == "__main__":
    main()
