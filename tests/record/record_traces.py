#!/usr/bin/env python3
"""Record real TORCH_TRACE logs of the torch.compile programming-model examples.

Each example runs in its own Python process with TORCH_TRACE pointing at its own
folder, so every example yields one self-contained log.  Run where PyTorch is
installed:

    python3 tests/record/record_traces.py --out tests/data/recorded

The logs land in <out>/<example>.log and <out>/VERSIONS.txt says which PyTorch
(and Triton/CUDA/GPU) produced them.
"""
import argparse
import concurrent.futures
import glob
import os
import shutil
import subprocess
import sys
import textwrap

DEVICE = "torch.device('cuda' if torch.cuda.is_available() else 'cpu')"

EXAMPLES = {
    # Sizes change between calls: the first compile is static, the second dynamic.
    "shape_change": f"""
        import torch
        dev = {DEVICE}
        @torch.compile
        def f(x):
            return torch.sin(x) * 2 + x.sum()
        for n in (3, 4, 5, 6):
            f(torch.randn(n, 8, device=dev))
    """,
    # A Python float argument is a constant to Dynamo: a new value, a new graph.
    "float_constant": f"""
        import torch
        dev = {DEVICE}
        @torch.compile
        def f(x, c):
            return x * c + 1
        x = torch.randn(16, device=dev)
        for c in (0.5, 0.25, 0.125, 1.5):
            f(x, c)
    """,
    # A float learning rate changed by the scheduler recompiles the step.
    "adam_exponential_lr": f"""
        import torch
        dev = {DEVICE}
        model = torch.nn.Linear(32, 32, device=dev)
        opt = torch.optim.Adam(model.parameters(), lr=0.01)
        sched = torch.optim.lr_scheduler.ExponentialLR(opt, gamma=0.9)
        @torch.compile(fullgraph=False)
        def step():
            opt.step()
        for _ in range(4):
            model(torch.randn(8, 32, device=dev)).sum().backward()
            step()
            sched.step()
    """,
    # dynamic=False: every new size recompiles until the cache limit is hit.
    "recompile_limit": f"""
        import torch
        import torch._dynamo
        torch._dynamo.config.cache_size_limit = 4
        try:
            torch._dynamo.config.recompile_limit = 4
        except Exception:
            pass
        dev = {DEVICE}
        @torch.compile(dynamic=False)
        def f(x):
            return x.cos() + 1
        for n in range(2, 10):
            f(torch.randn(n, device=dev))
    """,
    # An explicit graph break splits the frame into two graphs.
    "explicit_graph_break": f"""
        import torch
        import torch._dynamo
        dev = {DEVICE}
        @torch.compile
        def f(x):
            y = x.relu() * 2
            torch._dynamo.graph_break()
            return y.sin() + 1
        f(torch.randn(32, device=dev))
    """,
    # print() inside a compiled function is a graph break.
    "print_graph_break": f"""
        import torch
        dev = {DEVICE}
        @torch.compile
        def f(x):
            y = x * 3
            print("value computed")
            return y.tanh()
        f(torch.randn(32, device=dev))
    """,
    # Data-dependent control flow: a branch on a tensor value.
    "data_dependent_branch": f"""
        import torch
        dev = {DEVICE}
        @torch.compile
        def f(x):
            if x.sum() > 0:
                return x * 2
            return x - 1
        f(torch.randn(32, device=dev))
        f(-torch.ones(32, device=dev))
    """,
    # A backend that raises: the compile fails and the frame runs eagerly.
    "compile_error": f"""
        import torch
        import torch._dynamo
        torch._dynamo.config.suppress_errors = True
        dev = {DEVICE}
        def broken_backend(gm, example_inputs):
            raise RuntimeError("deliberate failure in the backend")
        @torch.compile(backend=broken_backend)
        def f(x):
            return x.exp() + 1
        f(torch.randn(8, device=dev))
    """,
    # A small training loop with inductor: forward/backward graphs, output code.
    "mlp_training": f"""
        import torch
        dev = {DEVICE}
        model = torch.nn.Sequential(torch.nn.Linear(64, 128), torch.nn.GELU(),
                                    torch.nn.Linear(128, 10)).to(dev)
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        cmodel = torch.compile(model)
        for _ in range(3):
            loss = torch.nn.functional.cross_entropy(
                cmodel(torch.randn(16, 64, device=dev)),
                torch.randint(0, 10, (16,), device=dev))
            loss.backward()
            opt.step()
            opt.zero_grad()
    """,
}


def run_one(name, out, timeout):
    trace_dir = os.path.join(out, "_tmp_" + name)
    shutil.rmtree(trace_dir, ignore_errors=True)
    env = dict(os.environ, TORCH_TRACE=trace_dir)
    code = textwrap.dedent(EXAMPLES[name])
    try:
        proc = subprocess.run([sys.executable, "-c", code], env=env, timeout=timeout,
                              capture_output=True, text=True)
        status = f"exit {proc.returncode}"
        tail = (proc.stderr or "")[-800:]
    except subprocess.TimeoutExpired:
        status, tail = "timeout", ""
    logs = sorted(glob.glob(os.path.join(trace_dir, "*.log")), key=os.path.getsize)
    if logs:
        shutil.copyfile(logs[-1], os.path.join(out, name + ".log"))
    shutil.rmtree(trace_dir, ignore_errors=True)
    return name, status, len(logs), tail


def versions():
    code = ("import torch, platform\n"
            "print('torch', torch.__version__)\n"
            "print('cuda', torch.version.cuda)\n"
            "print('gpu', torch.cuda.get_device_name(0) if torch.cuda.is_available() else 'none')\n"
            "print('python', platform.python_version())\n"
            "try:\n import triton; print('triton', triton.__version__)\n"
            "except Exception: print('triton none')\n")
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default="tests/data/recorded")
    ap.add_argument("--timeout", type=int, default=240)
    ap.add_argument("--jobs", type=int, default=min(8, os.cpu_count() or 1))
    ap.add_argument("examples", nargs="*", default=list(EXAMPLES))
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "VERSIONS.txt"), "w") as f:
        f.write(versions())
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        futures = [pool.submit(run_one, n, args.out, args.timeout) for n in args.examples]
        for fut in concurrent.futures.as_completed(futures):
            name, status, nlogs, tail = fut.result()
            print(f"{name}: {status}, {nlogs} log(s)")
            if status != "exit 0":
                print(textwrap.indent(tail, "    "))


if __name__ == "__main__":
    main()
