#!/usr/bin/env python3
"""Record a real two-rank TORCH_TRACE set (gloo on CPU, functional collectives).

    python3 tests/record/record_ranks.py --out tests/data/recorded/two_ranks

Each rank writes dedicated_log_torch_trace_rank_<r>_*.log; rank 1 sees a
different input size, so the ranks compile different graphs.
"""
import argparse
import glob
import os
import shutil
import subprocess
import sys

WORKER = r'''
import os, sys, torch, torch.distributed as dist
import torch.distributed._functional_collectives as fc
rank = int(sys.argv[1])
dist.init_process_group("gloo", rank=rank, world_size=2,
                        init_method="tcp://127.0.0.1:29533")
@torch.compile
def step(x):
    y = torch.relu(x) * 2
    y = fc.all_reduce(y, "sum", dist.group.WORLD)
    return y.sum()
for n in ([8, 8, 8] if rank == 0 else [8, 12, 16]):
    step(torch.randn(n, 4))
# Without this, the rank that finishes first tears down gloo under the other.
dist.barrier()
dist.destroy_process_group()
'''


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="tests/data/recorded/two_ranks")
    args = ap.parse_args()
    tmp = args.out + "_tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    procs = [subprocess.Popen([sys.executable, "-c", WORKER, str(r)],
                              env=dict(os.environ, TORCH_TRACE=tmp))
             for r in range(2)]
    codes = [p.wait(timeout=300) for p in procs]
    os.makedirs(args.out, exist_ok=True)
    for path in glob.glob(os.path.join(tmp, "*.log")):
        shutil.copy(path, args.out)
    shutil.rmtree(tmp, ignore_errors=True)
    print("exit codes", codes, "logs", sorted(os.listdir(args.out)))


if __name__ == "__main__":
    main()
