#!/usr/bin/env python3
"""Synthetic TORCH_TRACE (structured trace) log generator for benchmarking tlscope.

Writes logs in the format described in shared/spec/TRACE_FORMAT.md: glog-prefixed
JSON envelopes, TAB-prefixed payload lines, `has_payload` = MD5 of the payload.
The content imitates a torch.compile training run: many frames (code objects),
recompiles (frame_compile_id 0..k), graph-break restarts (attempt 1) with resume
frames, some failed compiles, FX graphs, Triton output code, guards, chromium
events, cache artifacts and compilation metrics.

Usage:
  python3 bench/gen_trace.py OUT.log --size-mb 100 [--seed 1] [--rank N]
  python3 bench/gen_trace.py --ranks 8 --out-dir DIR --size-mb 50 [--jobs 2]
  python3 bench/gen_trace.py examples/example.log --example

Speed: payloads are rendered once per (model, layers, mode) into templates with
@@TOKEN@@ placeholders; each compile only substitutes a few tokens, so the cost
per byte is a handful of C-level str.replace / md5 passes.  Output is ASCII.
"""
import argparse
import hashlib
import json
import os
import random
import sys
import time
from string import Template

TORCH = "/home/user/.venv/lib/python3.11/site-packages/torch/"
PROJ = "/home/user/project/"
CACHE_DIR = "/tmp/torchinductor_user/"
START_EPOCH = 1764526487  # 2025-11-30 18:14:47 UTC -> "V1130 18:14:47..."
FLUSH_BYTES = 8 << 20
B32 = "abcdefghijklmnopqrstuvwxyz234567"  # alphabet of inductor cache hashes

# Logging call sites (pathname:line in the glog prefix), per record kind.
SRC = {
    "str": "torch/_logging/structured.py:28",
    "start": "torch/_dynamo/convert_frame.py:1123",
    "chrome": "torch/_dynamo/utils.py:1900",
    "storage": "torch/_subclasses/meta_utils.py:272",
    "tensor": "torch/_subclasses/meta_utils.py:489",
    "source": "torch/_subclasses/meta_utils.py:1899",
    "recompile": "torch/_dynamo/guards.py:3564",
    "gbreak": "torch/_dynamo/symbolic_convert.py:545",
    "shape_spec": "torch/fx/experimental/symbolic_shapes.py:6688",
    "guard_fast": "torch/fx/experimental/symbolic_shapes.py:7021",
    "graph": "torch/_dynamo/output_graph.py:1685",
    "pre_grad": "torch/_inductor/compile_fx.py:2150",
    "aot_cache": "torch/_functorch/_aot_autograd/autograd_cache.py:1231",
    "fw_meta": "torch/_functorch/_aot_autograd/graph_capture.py:301",
    "aot_graph": "torch/_functorch/_aot_autograd/graph_compile.py:1637",
    "runnable": "torch/_inductor/compile_fx.py:1218",
    "post_grad": "torch/_inductor/compile_fx.py:1305",
    "code": "torch/_inductor/graph.py:2390",
    "fx_cache": "torch/_inductor/codecache.py:1168",
    "dump": "torch/fx/graph_module.py:100",
    "link": "torch/_inductor/debug.py:712",
    "guards": "torch/_dynamo/guards.py:2791",
    "cpp_guards": "torch/_dynamo/guards.py:3029",
    "error": "torch/_dynamo/convert_frame.py:1247",
    "metrics": "torch/_dynamo/utils.py:1601",
    "bwd_metrics": "torch/_dynamo/utils.py:1611",
    "dist": "torch/_inductor/debug.py:700",
}


def md5(s):
    return hashlib.md5(s.encode()).hexdigest()


def fill(tpl, subs):
    """Replace @@TOKEN@@ placeholders (cheap: one C-level pass per token present)."""
    for tok, val in subs:
        if tok in tpl:
            tpl = tpl.replace(tok, val)
    return tpl


# --------------------------------------------------------------------------
# Output writer: glog prefix, envelope, payload lines, string interning, clock.
# --------------------------------------------------------------------------
class Trace:
    def __init__(self, out, rank, rng):
        self.out, self.rng = out, rng
        self.buf, self.nbuf, self.total = [], 0, 0
        self.us = START_EPOCH * 1000000 + rng.randrange(1000000)
        self.tid = 2871 + (rank or 0) * 17
        self.rank_kv = '' if rank is None else ', "rank": %d' % rank
        self.interned = {}
        self._sec, self._secstr = None, ""

    def prefix(self, src):
        sec, us = divmod(self.us, 1000000)
        if sec != self._sec:  # strftime once per second, not per line
            self._sec = sec
            self._secstr = time.strftime("V%m%d %H:%M:%S.", time.gmtime(sec))
        return "%s%06d %d %s] " % (self._secstr, us, self.tid, src)

    def advance(self, lo, hi):
        self.us += self.rng.randint(lo, hi)

    def ids(self, fid, fcid, attempt):
        return '%s, "frame_id": %d, "frame_compile_id": %d, "attempt": %d' % (
            self.rank_kv, fid, fcid, attempt)

    def emit(self, src, head, ids, payload=None):
        """One record.  `head` is the type key and value, e.g. '"dynamo_guards": {}'."""
        self.us += self.rng.randint(20, 900)
        if payload is None:
            s = "%s{%s%s}\n" % (self.prefix(src), head, ids)
        else:
            s = '%s{%s%s, "has_payload": "%s"}\n\t%s\n' % (
                self.prefix(src), head, ids, md5(payload), payload.replace("\n", "\n\t"))
        self.buf.append(s)
        self.nbuf += len(s)
        if self.nbuf >= FLUSH_BYTES:
            self.flush()

    def flush(self):
        data = "".join(self.buf)
        self.out.write(data)
        self.total += len(data)
        self.buf, self.nbuf = [], 0

    def written(self):
        return self.total + self.nbuf

    def intern(self, path):
        """Index of `path` in the string table; emits a `str` record on first use."""
        idx = self.interned.get(path)
        if idx is None:
            idx = self.interned[path] = len(self.interned)
            self.emit(SRC["str"], '"str": %s' % json.dumps([path, idx]), "")
        return idx

    def stack(self, frames):
        """frames: (path, line, name, loc-or-None) outermost first -> StackSummary JSON."""
        out = []
        for path, line, name, loc in frames:
            d = {"line": line, "name": name, "filename": self.intern(path)}
            if loc:
                d["loc"] = loc
            out.append(d)
        return json.dumps(out)

    def chrome(self, ids, name, ph, cid, extra=""):
        ev = ('{\n"name": "%s",\n"ts": %d.%d,\n"args": {\n"compile_id": "%s"%s\n},\n'
              '"ph": "%s",\n"cat": "dynamo_timed",\n"tid": 0,\n"pid": 0\n}') % (
                  name, self.us, self.rng.randrange(10), cid, extra, ph)
        self.emit(SRC["chrome"], '"chromium_event": {}', ids, ev)


# --------------------------------------------------------------------------
# Model archetypes -> payload templates (FX graphs, Triton code, guards...).
# Placeholders: @@B@@ leading dim (int or "s0"), @@X<c>@@ numel of a [B, c]
# tensor, @@H@@ per-compile hash chars, @@AOT@@ AOT graph id.
# --------------------------------------------------------------------------
ARCH = {  # name: (user file, per-layer ops)
    "mlp": ("models/mlp.py",
            [("linear", 512, 2048), ("gelu", 2048), ("linear", 2048, 512), ("add", 512), ("layer_norm", 512)]),
    "attn": ("models/attention.py",
             [("linear", 768, 768), ("softmax", 768), ("linear", 768, 768), ("add", 768), ("layer_norm", 768)]),
    "embed": ("models/embedding.py",
              [("linear", 256, 256), ("relu", 256), ("linear", 256, 256), ("relu", 256)]),
    "head": ("models/heads.py",
             [("layer_norm", 1024), ("linear", 1024, 1000), ("softmax", 1000)]),
}
SRC_LINE = {  # user source line shown in "# File: ..." comments
    "linear": "x = self.fc%d(x)", "gelu": "x = F.gelu(x)", "relu": "x = torch.relu(x)",
    "add": "x = x + residual", "layer_norm": "x = self.norm(x)", "softmax": "x = x.softmax(dim=-1)",
}
# aten nodes per op: (base name, target, args, shape) ; args may use {x} input,
# {w}/{b} params, {n0}.. earlier nodes of the same op, {r} residual, {g} grad.
FWD = {
    "linear": [("permute", "permute.default", "{w}, [1, 0]", "T"), ("addmm", "addmm.default", "{b}, {x}, {n0}", "o")],
    "gelu": [("mul", "mul.Tensor", "{x}, 0.5", "c"), ("mul", "mul.Tensor", "{x}, 0.7071067811865476", "c"),
             ("erf", "erf.default", "{n1}", "c"), ("add", "add.Tensor", "{n2}, 1", "c"),
             ("mul", "mul.Tensor", "{n0}, {n3}", "c")],
    "relu": [("relu", "relu.default", "{x}", "c"), ("le", "le.Scalar", "{n0}, 0", "m")],
    "add": [("add", "add.Tensor", "{x}, {r}", "c")],
    "layer_norm": [("var_mean", "var_mean.correction", "{x}, [1], correction = 0, keepdim = True", "r"),
                   ("getitem", "getitem", "{n0}, 0", "r"), ("getitem", "getitem", "{n0}, 1", "r"),
                   ("add", "add.Tensor", "{n1}, 1e-05", "r"), ("rsqrt", "rsqrt.default", "{n3}", "r"),
                   ("sub", "sub.Tensor", "{x}, {n2}", "c"), ("mul", "mul.Tensor", "{n5}, {n4}", "c"),
                   ("mul", "mul.Tensor", "{n6}, {w}", "c"), ("add", "add.Tensor", "{n7}, {b}", "c")],
    "softmax": [("amax", "amax.default", "{x}, [-1], True", "r"), ("sub", "sub.Tensor", "{x}, {n0}", "c"),
                ("exp", "exp.default", "{n1}", "c"), ("sum", "sum.dim_IntList", "{n2}, [-1], True", "r"),
                ("div", "div.Tensor", "{n2}, {n3}", "c")],
}
BWD = {
    "linear": [("mm", "mm.default", "{g}, {w}", "i"), ("permute", "permute.default", "{g}, [1, 0]", "T"),
               ("mm", "mm.default", "{n1}, {x}", "W"), ("sum", "sum.dim_IntList", "{g}, [0], True", "v"),
               ("view", "view.default", "{n3}, [{o}]", "v")],
    "gelu": [("mul", "mul.Tensor", "{g}, {x}", "c"), ("mul", "mul.Tensor", "{x}, {x}", "c"),
             ("mul", "mul.Tensor", "{n1}, -0.5", "c"), ("exp", "exp.default", "{n2}", "c"),
             ("mul", "mul.Tensor", "{n3}, 0.3989422804014327", "c"), ("add", "add.Tensor", "{n0}, {n4}", "c")],
    "relu": [("full_default", "full.default", "[], 0.0, dtype = torch.float32, layout = torch.strided, "
              "device = device(type='cuda', index=0), pin_memory = False", "s"),
             ("where", "where.self", "{x}, {n0}, {g}", "c")],
    "add": [("add", "add.Tensor", "{g}, {r}", "c")],
    "layer_norm": [("mul", "mul.Tensor", "{g}, {w}", "c"), ("mul", "mul.Tensor", "{n0}, {c}", "c"),
                   ("sum", "sum.dim_IntList", "{n0}, [1], True", "r"), ("mul", "mul.Tensor", "{n0}, {x}", "c"),
                   ("sum", "sum.dim_IntList", "{n3}, [1], True", "r"), ("sub", "sub.Tensor", "{n1}, {n2}", "c"),
                   ("div", "div.Tensor", "{x}, {c}", "c"), ("mul", "mul.Tensor", "{n6}, {n5}", "c")],
    "softmax": [("mul", "mul.Tensor", "{g}, {x}", "c"), ("sum", "sum.dim_IntList", "{n0}, [-1], True", "r"),
                ("neg", "neg.default", "{x}", "c"), ("fma", "fma.default", "{n2}, {n1}, {n0}", "c")],
}
SHAPE = {
    "c": '"f32[@@B@@, {c}][{c}, 1]cuda:0"', "o": '"f32[@@B@@, {o}][{o}, 1]cuda:0"',
    "i": '"f32[@@B@@, {i}][{i}, 1]cuda:0"', "T": '"f32[{i}, {o}][1, {i}]cuda:0"',
    "W": '"f32[{o}, {i}][{i}, 1]cuda:0"', "v": '"f32[{o}][1]cuda:0"', "r": '"f32[@@B@@, 1][1, 1]cuda:0"',
    "m": '"b8[@@B@@, {c}][{c}, 1]cuda:0"', "s": '"f32[][]cuda:0"',
}

KERNEL_HEAD = Template("""

# kernel path: ${cache}${h2}/c${h}.py
# Topologically Sorted Source Nodes: [${srcs}], Original ATen: [${atens}]
# Source node to ATen node mapping:
#   ${srcs} => ${nodes}
# Graph fragment:
${frag}
${kname} = async_compile.triton('${kname}', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.${heur}(
    size_hints={'x': 65536${rhint}},${rhint2}
    filename=__file__,
    triton_meta={'signature': {${sig}, 'xnumel': 'i32'${rsig}}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, warp_size=32), 'constants': {}, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': '${kname}', 'mutated_arg_names': ['in_out_ptr0'], 'optimize_mem': True, 'no_x_dim': ${nox}, 'num_load': ${nload}, 'num_reduction': ${nred}, 'backend_hash': '9F2C1B7E5A3D8C6B4E2F0A1D3C5B7E9F1A3C5E7B9D1F3A5C7E9B1D3F5A7C9E1B', 'are_deterministic_algorithms_enabled': False, 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False},
    min_elem_per_thread=0
)
@triton.jit
def ${kname}(${params}, xnumel${rparam}, XBLOCK : tl.constexpr):
""")
POI_PRE = """    xnumel = @@X{c}@@
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x2 = xindex
    x0 = (xindex % {c})
"""
RED_PRE = """    xnumel = @@B@@
    r0_numel = {c}
    R0_BLOCK: tl.constexpr = 1024
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    r0_offset = 0
    r0_mask = r0_index < r0_numel
    roffset = r0_offset
    rindex = r0_index
    r0_1 = r0_index
    x0 = xindex
"""
BODY = {
    "gelu": """    tmp0 = tl.load(in_out_ptr0 + (x2), xmask)
    tmp1 = tl.load(in_ptr0 + (x0), xmask, eviction_policy='evict_last')
    tmp2 = tmp0 + tmp1
    tmp3 = 0.5
    tmp4 = tmp2 * tmp3
    tmp5 = 0.7071067811865476
    tmp6 = tmp2 * tmp5
    tmp7 = libdevice.erf(tmp6)
    tmp8 = 1.0
    tmp9 = tmp7 + tmp8
    tmp10 = tmp4 * tmp9
    tl.store(in_out_ptr0 + (x2), tmp10, xmask)
""",
    "relu": """    tmp0 = tl.load(in_out_ptr0 + (x2), xmask)
    tmp1 = tl.load(in_ptr0 + (x0), xmask, eviction_policy='evict_last')
    tmp2 = tmp0 + tmp1
    tmp3 = tl.full([1], 0, tl.int32)
    tmp4 = triton_helpers.maximum(tmp3, tmp2)
    tmp5 = 0.0
    tmp6 = tmp4 <= tmp5
    tl.store(in_out_ptr0 + (x2), tmp4, xmask)
    tl.store(out_ptr0 + (x2), tmp6, xmask)
""",
    "add": """    tmp0 = tl.load(in_out_ptr0 + (x2), xmask)
    tmp1 = tl.load(in_ptr0 + (x0), xmask, eviction_policy='evict_last')
    tmp3 = tl.load(in_ptr1 + (x2), xmask)
    tmp2 = tmp0 + tmp1
    tmp4 = tmp2 + tmp3
    tl.store(in_out_ptr0 + (x2), tmp4, xmask)
""",
    "layer_norm": """    tmp0 = tl.load(in_ptr0 + (r0_1 + {c}*x0), r0_mask & xmask, other=0.0)
    tmp24 = tl.load(in_ptr1 + (r0_1), r0_mask, eviction_policy='evict_last', other=0.0)
    tmp26 = tl.load(in_ptr2 + (r0_1), r0_mask, eviction_policy='evict_last', other=0.0)
    tmp1 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])
    tmp3 = tl.where(r0_mask & xmask, tmp1, 0)
    tmp4 = tl.broadcast_to(tmp1, [XBLOCK, R0_BLOCK])
    tmp6 = tl.where(r0_mask & xmask, tmp4, 0)
    tmp7 = tl.sum(tmp6, 1)[:, None]
    tmp8 = tl.full([XBLOCK, 1], {c}, tl.int32)
    tmp9 = tmp8.to(tl.float32)
    tmp10 = (tmp7 / tmp9)
    tmp11 = tmp1 - tmp10
    tmp12 = tmp11 * tmp11
    tmp13 = tl.broadcast_to(tmp12, [XBLOCK, R0_BLOCK])
    tmp15 = tl.where(r0_mask & xmask, tmp13, 0)
    tmp16 = tl.sum(tmp15, 1)[:, None]
    tmp17 = tmp0 - tmp10
    tmp18 = {c}.0
    tmp19 = (tmp16 / tmp18)
    tmp20 = 1e-05
    tmp21 = tmp19 + tmp20
    tmp22 = libdevice.rsqrt(tmp21)
    tmp23 = tmp17 * tmp22
    tmp25 = tmp23 * tmp24
    tmp27 = tmp25 + tmp26
    tl.debug_barrier()
    tl.store(in_out_ptr0 + (x0), tmp22, xmask)
    tl.store(out_ptr0 + (r0_1 + {c}*x0), tmp27, r0_mask & xmask)
    tl.store(out_ptr1 + (x0), tmp10, xmask)
""",
    "softmax": """    tmp0 = tl.load(in_ptr0 + (r0_1 + {c}*x0), r0_mask & xmask, other=0.0)
    tmp1 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])
    tmp3 = tl.where(r0_mask & xmask, tmp1, float("-inf"))
    tmp4 = triton_helpers.max2(tmp3, 1)[:, None]
    tmp5 = tmp0 - tmp4
    tmp6 = tl_math.exp(tmp5)
    tmp7 = tl.broadcast_to(tmp6, [XBLOCK, R0_BLOCK])
    tmp9 = tl.where(r0_mask & xmask, tmp7, 0)
    tmp10 = tl.sum(tmp9, 1)[:, None]
    tmp11 = (tmp6 / tmp10)
    tl.store(out_ptr0 + (r0_1 + {c}*x0), tmp11, r0_mask & xmask)
""",
}
KPARAMS = {"gelu": "in_out_ptr0, in_ptr0", "relu": "in_out_ptr0, in_ptr0, out_ptr0",
           "add": "in_out_ptr0, in_ptr0, in_ptr1",
           "layer_norm": "in_out_ptr0, in_ptr0, in_ptr1, in_ptr2, out_ptr0, out_ptr1",
           "softmax": "in_ptr0, out_ptr0"}
CODE_HEAD = """# AOT ID: ['@@AOT@@']
from ctypes import c_void_p, c_long, c_int
import torch
import math
import random
import os
import tempfile
from math import inf, nan
from cmath import nanj
from torch._inductor.hooks import run_intermediate_hooks
from torch._inductor.utils import maybe_profile
from torch._inductor.codegen.memory_planning import _align as align
from torch import device, empty_strided
from torch._inductor.async_compile import AsyncCompile
from torch._inductor.select_algorithm import extern_kernels
import triton
import triton.language as tl
from torch._inductor.runtime.triton_heuristics import start_graph, end_graph
from torch._C import _cuda_getCurrentRawStream as get_raw_stream

aten = torch.ops.aten
inductor_ops = torch.ops.inductor
_quantized = torch.ops._quantized
assert_size_stride = torch._C._dynamo.guards.assert_size_stride
assert_alignment = torch._C._dynamo.guards.assert_alignment
empty_strided_cpu = torch._C._dynamo.guards._empty_strided_cpu
empty_strided_cuda = torch._C._dynamo.guards._empty_strided_cuda
empty_strided_xpu = torch._C._dynamo.guards._empty_strided_xpu
reinterpret_tensor = torch._C._dynamo.guards._reinterpret_tensor
alloc_from_pool = torch.ops.inductor._alloc_from_pool
async_compile = AsyncCompile()
empty_strided_p2p = torch._C._distributed_c10d._SymmetricMemory.empty_strided_p2p
"""
CODE_TAIL = """

def benchmark_compiled_module(times=10, repeat=10):
    from torch._dynamo.testing import rand_strided
    from torch._inductor.utils import print_performance
%s
    fn = lambda: call([%s])
    return print_performance(fn, times=times, repeat=repeat)


if __name__ == "__main__":
    from torch._inductor.wrapper_benchmark import compiled_module_main
    compiled_module_main('None', benchmark_compiled_module)
"""


def graph_text(cls, params, body_lines, outs):
    """FX GraphModule listing as printed by print_readable()."""
    head = "class %s(torch.nn.Module):\n    def forward(self, %s):\n" % (cls, ", ".join(params))
    return head + "\n".join(body_lines) + "\n        return (%s,)\n        " % ", ".join(outs)


def _frag(line):
    """'        mul: "f32[..]" = torch.ops.aten.mul.Tensor(x, 0.5)' -> inductor 'Graph fragment' comment."""
    name, rhs = line.strip().split(":", 1)
    if "torch.ops.aten." not in rhs:  # getitem: "..." = var_mean[0]
        src, idx = rhs.split(" = ", 1)[1].rstrip("]").split("[")
        return "#   %%%s : [num_users=1] = call_function[target=operator.getitem](args = (%%%s, %s), kwargs = {})" % (
            name, src, idx)
    target, args = rhs.split("torch.ops.aten.", 1)[1].split("(", 1)
    return "#   %%%s : [num_users=1] = call_function[target=torch.ops.aten.%s](args = (%s%s), kwargs = {})" % (
        name, target, ", ".join(_pct(args.rsplit(")", 1)[0].split(", "))), "," if ", " not in args else "")


def _pct(args):
    """Prefix FX node references with % as in inductor's graph-fragment comments."""
    return [("%" + a if a[:1].isalpha() and a.replace("_", "").isalnum() and a not in ("True", "False") else a)
            for a in args]


def _b32(s, n):
    return "".join(B32[c % 32] for c in hashlib.sha512(s.encode()).digest()[:n])


def build_templates(arch, layers, train):
    """Render every payload of one compile of `layers` x archetype into templates."""
    ufile, ops = ARCH[arch]
    upath = PROJ + ufile
    seq = [(l, k, op) for l in range(layers) for k, op in enumerate(ops)]
    acounts, dcounts = {}, {}

    def name(base, counts):
        """FX-style unique node names: add, add_1, add_2..."""
        n = counts.get(base, 0)
        counts[base] = n + 1
        return base if n == 0 else "%s_%d" % (base, n)

    c0, c_last = ops[0][1], ops[-1][-1]
    x_ann = '"f32[@@B@@, %d][%d, 1]cuda:0"' % (c0, c0)
    dyn_params, dyn = ["L_x_: " + x_ann], ["        l_x_ = L_x_"]
    prims, prim_decl = ["primals_1"], ["primals_1: " + x_ann]
    prim_shape = {"primals_1": ("(@@B@@, %d)" % c0, "(%d, 1)" % c0)}
    fwd, nodes = [], []  # nodes: (kind, op, input, [aten names], weight, bias, aten lines, comment)
    x, res, ax, ares, nfc = "l_x_", "l_x_", "primals_1", "primals_1", 0
    for l, k, op in seq:
        kind = op[0]
        nfc += kind == "linear"
        src = SRC_LINE[kind] % nfc if kind == "linear" else SRC_LINE[kind]
        comment = "\n         # File: %s:%d in forward, code: %s" % (upath, 100 + 12 * k, src)
        pw = pb = aw = ab = None
        if kind in ("linear", "layer_norm"):  # module parameters become graph inputs
            mod = "fc%d" % nfc if kind == "linear" else "norm"
            base = "l_self_modules_layers_modules_%d_modules_%s_parameters_" % (l, mod)
            pw, pb = base + "weight_", base + "bias_"
            aw, ab = "primals_%d" % (len(prims) + 1), "primals_%d" % (len(prims) + 2)
            prims += [aw, ab]
            wsz = ("(%d, %d)" % (op[2], op[1]), "(%d, 1)" % op[1]) if kind == "linear" else ("(%d,)" % c0, "(1,)")
            for p, a, (sz, st) in ((pw, aw, wsz), (pb, ab, ("(%d,)" % op[-1], "(1,)"))):
                ann = '"f32[%s][%s]cuda:0"' % (sz.strip("(,)"), st.strip("(,)"))
                dyn_params.append("%s: %s" % ("L" + p[1:], ann))
                dyn.append("        %s = %s" % (p, "L" + p[1:]))
                prim_decl.append("%s: %s" % (a, ann))
                prim_shape[a] = (sz, st)
        # Dynamo graph: torch-level calls
        out = name(kind, dcounts)
        call = {"linear": "torch._C._nn.linear(%s, %s, %s)" % (x, pw, pb),
                "gelu": "torch._C._nn.gelu(%s)" % x, "relu": "torch.relu(%s)" % x,
                "add": "%s + %s" % (x, res), "softmax": "%s.softmax(dim = -1)" % x,
                "layer_norm": "torch.nn.functional.layer_norm(%s, (%d,), %s, %s, 1e-05)" % (x, op[1], pw, pb)}[kind]
        release = [v for v in (x, pw, pb) if v and v != res]
        dyn += [comment, '        %s: "f32[@@B@@, %d][%d, 1]cuda:0" = %s%s' % (
            out, op[-1], op[-1], call, ";  %s = None" % " = ".join(release) if release else "")]
        x = out
        if kind == "layer_norm":
            res = out
        # AOT forward graph: aten ops on primals
        d = {"c": op[-1], "i": op[1], "o": op[-1]}
        names, lines = [], [comment]
        for base, target, args, shp in FWD[kind]:
            nm = name(base, acounts)
            fmt = dict(x=ax, w=aw, b=ab, r=ares, **{"n%d" % j: v for j, v in enumerate(names)})
            args = args.format(**fmt)
            rhs = "%s[%s]" % tuple(args.split(", ")) if target == "getitem" else "torch.ops.aten.%s(%s)" % (target, args)
            lines.append("        %s: %s = %s" % (nm, SHAPE[shp].format(**d), rhs))
            names.append(nm)
        fwd += lines
        nodes.append((kind, op, ax, names, aw, ab, lines[1:], comment))
        ax = names[0] if kind == "relu" else names[-1]  # relu's 2nd node is the saved mask
        if kind == "layer_norm":
            ares = ax
    saved = [n[3][-1] for n in nodes if n[0] != "add"][-6:]
    fwd_outs = [ax] + (["primals_1"] + saved if train else [])

    # AOT backward graph: reverse walk; the incoming gradient flows op to op
    bwd, g, grads = [], "tangents_1", []
    for kind, op, ax_in, fnames, aw, ab, _, comment in reversed(nodes):
        names, lines = [], [comment]
        for base, target, args, shp in BWD[kind]:
            nm = name(base, acounts)
            fmt = dict(x=fnames[-1], w=aw or ax_in, g=g, r=g, c=op[-1], o=op[-1],
                       **{"n%d" % j: v for j, v in enumerate(names)})
            lines.append("        %s: %s = torch.ops.aten.%s(%s)" % (
                nm, SHAPE[shp].format(c=op[-1], i=op[1], o=op[-1]), target, args.format(**fmt)))
            names.append(nm)
        bwd += lines
        if kind == "linear":
            g, grads = names[0], [names[2], names[4]] + grads
        else:
            g = names[-1]
    bwd_outs = [g] + grads

    def output_code(backward):
        """Inductor wrapper module: Triton kernels, then call() launching them."""
        kernels, calls, bufs, kid = [], [], [], 0
        cur = "tangents_1" if backward else "primals_1"
        for kind, op, _, fnames, aw, ab, flines, _ in (reversed(nodes) if backward else nodes):
            c = op[-1]
            atens = ", ".join(dict.fromkeys("aten." + ln.split("torch.ops.aten.")[1].split(".")[0]
                                            for ln in flines if "torch.ops.aten." in ln))
            if backward and kind == "linear":
                atens = "aten.mm"
            if kind == "linear":
                nb = "buf%d" % len(bufs)
                bufs.append(nb)
                calls += ["        %s = empty_strided_cuda((@@B@@, %d), (%d, 1), torch.float32)" % (nb, c, c),
                          "        # Topologically Sorted Source Nodes: [linear], Original ATen: [%s]" % atens,
                          "        extern_kernels.%s(%sreinterpret_tensor(%s, (%d, %d), (1, %d), 0), %s)" % (
                              "mm" if backward else "addmm", "" if backward else "%s, %s, " % (ab, cur),
                              aw, op[1], c, op[1], "out=" + nb if backward else "alpha=1, beta=1, out=" + nb)]
                if backward:
                    calls[-1] = calls[-1].replace("mm(", "mm(%s, " % cur, 1)
                cur = nb
                continue
            red = kind in ("layer_norm", "softmax")
            kname = "triton_%s_fused_%s%s_%d" % ("per" if red else "poi", kind, "_backward" if backward else "", kid)
            kid += 1
            params = KPARAMS[kind]
            sig = ", ".join("'%s': '*%s'" % (p, "i1" if kind == "relu" and p == "out_ptr0" else "fp32")
                            for p in params.split(", "))
            h = _b32(arch + kname + str(layers), 52)
            head = KERNEL_HEAD.substitute(
                cache=CACHE_DIR, h2=h[:2], h=h, kname=kname, srcs=kind, atens=atens, nodes=", ".join(fnames),
                frag="\n".join(_frag(ln) for ln in flines), heur="persistent_reduction" if red else "pointwise",
                rhint=", 'r0_': %d" % (1024 if c > 512 else 512) if red else "",
                rhint2="\n    reduction_hint=ReductionHint.INNER," if red else "",
                sig=sig, rsig=", 'r0_numel': 'i32'" if red else "", nox="True" if red else "False",
                nload=params.count("in_"), nred=2 if red else 0, params=params, rparam=", r0_numel" if red else "")
            body = (RED_PRE if red else POI_PRE).format(c=c) + BODY[kind].replace("{c}", str(c))
            kernels.append(head + body + "''', device_str='cuda')\n")
            calls.append("        # Topologically Sorted Source Nodes: [%s], Original ATen: [%s]" % (kind, atens))
            if red:  # reductions write a fresh output buffer
                nb = "buf%d" % len(bufs)
                bufs.append(nb)
                calls += ["        %s = empty_strided_cuda((@@B@@, %d), (%d, 1), torch.float32)" % (nb, c, c),
                          "        stream0 = get_raw_stream(0)",
                          "        %s.run(%s, %s, %s, %s, @@B@@, %d, stream=stream0)" % (
                              kname, nb, cur, aw or "primals_1", ab or "primals_1", c)]
                cur = nb
            else:  # pointwise kernels update the current buffer in place
                extra = ab or "primals_1"
                if kind == "relu":
                    extra = "buf%d" % len(bufs)
                    bufs.append(extra)
                    calls.append("        %s = empty_strided_cuda((@@B@@, %d), (%d, 1), torch.bool)" % (extra, c, c))
                calls += ["        stream0 = get_raw_stream(0)",
                          "        %s.run(%s, %s, @@X%d@@, stream=stream0)" % (kname, cur, extra, c)]
        args = (["tangents_1"] + prims) if backward else prims
        shapes = dict(prim_shape, tangents_1=("(@@B@@, %d)" % c_last, "(%d, 1)" % c_last))
        call = ["", "", "async_compile.wait(globals())", "del async_compile", "",
                "def call(args):", "    %s, = args" % ", ".join(args), "    args.clear()"]
        call += ["    assert_size_stride(%s, %s, %s)" % ((a,) + shapes[a]) for a in args]
        call += ["    with torch.cuda._DeviceGuard(0):", "        torch.cuda.set_device(0)"] + calls
        call += ["    return (%s, %s)" % (cur, "".join(b + ", " for b in bufs[:-1][-4:]))]
        rand = "\n".join("    %s = rand_strided(%s, %s, device='cuda:0', dtype=torch.float32)" % ((a,) + shapes[a])
                         for a in args)
        return CODE_HEAD + "".join(kernels) + "\n".join(call) + CODE_TAIL % (rand, ", ".join(args))

    t = {
        "dyn": graph_text("GraphModule", dyn_params, dyn, [x]),
        "fwd": graph_text("GraphModule", prim_decl, fwd, fwd_outs),
        "post_fwd": graph_text("<lambda>", prim_decl, fwd, fwd_outs),
        "code_fwd": output_code(False),
        "sizes": ("l_x_", c0, x, c_last),
        "nops": len(fwd) - len(nodes), "ninputs": len(prims), "c0": c0,
    }
    t["pre"] = t["dyn"]
    if train:
        bdecl = prim_decl + ['tangents_1: "f32[@@B@@, %d][%d, 1]cuda:0"' % (c_last, c_last)]
        t["bwd"] = graph_text("GraphModule", bdecl, bwd, bwd_outs)
        t["post_bwd"] = graph_text("<lambda>", bdecl, bwd, bwd_outs)
        t["joint"] = graph_text("joint_helper", ["primals", "tangents"], [
            "        %s, tangents_1, = fx_pytree.tree_flatten_spec([primals, tangents], self._in_spec)" % ", ".join(prims)]
            + fwd + bwd, fwd_outs[:1] + bwd_outs)
        t["code_bwd"] = output_code(True)
    t["runnable"] = RUNNABLE_HEAD + graph_text("Repro", prims, fwd, fwd_outs[:1]).replace(
        "(torch.nn.Module):\n", "(torch.nn.Module):\n    def __init__(self) -> None:\n        super().__init__()\n\n", 1) \
        + RUNNABLE_TAIL.replace("@@C0@@", str(c0))
    t["guards"], t["cpp_guards"] = guard_templates(arch, layers, ops, c0)
    t["dump"] = "\n\n\ndef forward(self, %s):\n%s\n    return (%s,)\n    " % (
        ", ".join(prims), "\n".join("    %s = %s" % (ln.strip().split(":")[0], ln.split(" = ", 1)[1])
                                   for ln in fwd if "# File" not in ln), fwd_outs[0])
    return t


RUNNABLE_HEAD = """
import os
os.environ['TORCHINDUCTOR_CACHE_DIR'] = '/tmp/torchinductor_user'
os.environ['TORCH_TRACE'] = '/tmp/trace_logs'

import torch
from torch import tensor, device
import torch.fx as fx
from torch._dynamo.testing import rand_strided
from math import inf
import torch._inductor.inductor_prims

import torch._dynamo.config
import torch._inductor.config
import torch._functorch.config
import torch.fx.experimental._config
torch._inductor.config.fx_graph_cache = True
torch._functorch.config.unlift_effect_tokens = True



isolate_fails_code_str = None



# torch version: 2.9.0a0+gitc0ffee1
# torch cuda version: 12.8
# torch git version: c0ffee1d2b4e6f8a0b1c3d5e7f9a1b3c5d7e9f1a


# CUDA Info:
# nvcc: NVIDIA (R) Cuda compiler driver
# Copyright (c) 2005-2025 NVIDIA Corporation
# Built on Wed_Jan_15_19:20:09_PST_2025
# Cuda compilation tools, release 12.8, V12.8.61

# GPU Hardware Info:
# NVIDIA H100 80GB HBM3 : 8

from torch.nn import *
"""
RUNNABLE_TAIL = """
def load_args(reader):
    buf0 = reader.storage(None, 4194304, device=device(type='cuda', index=0))
    reader.tensor(buf0, (@@B@@, @@C0@@), is_leaf=True)  # primals_1
load_args._version = 0
mod = Repro()
if __name__ == '__main__':
    from torch._dynamo.repro.after_aot import run_repro
    with torch.no_grad():
        run_repro(mod, load_args, accuracy=False, command='run', save_dir=None, tracing_mode='real', check_str=None)
        # To run it separately, do
        # mod, args = run_repro(mod, load_args, accuracy=False, command='get_args', save_dir=None, tracing_mode='real', check_str=None)
        # mod(*args)"""


def guard_templates(arch, layers, ops, c0):
    """dynamo_guards JSON array and the C++ guard-manager tree text."""
    codes = ["___check_global_state()", "___check_torch_function_mode_stack()",
             "utils_device.CURRENT_DEVICE == None",
             "torch._functorch.aot_autograd.utils.top_saved_tensors_hooks ids == None",
             "hasattr(L['x'], '_dynamo_dynamic_indices') == False",
             "check_tensor(L['x'], Tensor, DispatchKeySet(CUDA, BackendSelect, ADInplaceOrView, AutogradCUDA), "
             "torch.float32, device=0, requires_grad=True, size=[@@B@@, %d], stride=[%d, 1])" % (c0, c0),
             "___check_obj_id(L['self'], 139912345@@OBJ@@)", "L['self'].training == True"]
    tree = ["", "TREE_GUARD_MANAGER:", "+- RootGuardManager",
            "| +- DEFAULT_DEVICE: utils_device.CURRENT_DEVICE == None                           # _dynamo/output_graph.py:688 in init_ambient_guards",
            "| +- GLOBAL_STATE: ___check_global_state()",
            "| +- TORCH_FUNCTION_MODE_STACK: ___check_torch_function_mode_stack()",
            "| +- GuardManager: source=L['x'], accessed_by=FrameLocalsGuardAccessor(key='x', framelocals_idx=1)",
            "| | +- TENSOR_MATCH: check_tensor(L['x'], Tensor, DispatchKeySet(CUDA, BackendSelect, ADInplaceOrView, AutogradCUDA), torch.float32, device=0, requires_grad=True, size=[@@B@@, %d], stride=[%d, 1])  # x = self.fc1(x)  # %s:40 in forward" % (c0, c0, ARCH[arch][0]),
            "| | +- NO_HASATTR: hasattr(L['x'], '_dynamo_dynamic_indices') == False",
            "| +- GuardManager: source=L['self'], accessed_by=FrameLocalsGuardAccessor(key='self', framelocals_idx=0)",
            "| | +- ID_MATCH: ___check_obj_id(L['self'], 139912345@@OBJ@@)"]
    for l in range(layers):
        nfc = 0
        m = "L['self']._modules['layers']._modules['%d']" % l
        codes.append("___check_type_id(%s, 94512873%04d)" % (m, l))
        codes.append("%s.training == True" % m)
        tree.append("| | +- GuardManager: source=%s, accessed_by=DictGetItemGuardAccessor('%d')" % (m, l))
        tree.append("| | | +- TYPE_MATCH: ___check_type_id(%s, 94512873%04d)" % (m, l))
        for op in ops:
            nfc += op[0] == "linear"
            if op[0] in ("linear", "layer_norm"):
                p = "%s._modules['%s']._parameters['weight']" % (m, "fc%d" % nfc if op[0] == "linear" else "norm")
                codes.append("check_tensor(%s, Parameter, DispatchKeySet(CUDA, BackendSelect, ADInplaceOrView, "
                             "AutogradCUDA), torch.float32, device=0, requires_grad=True, size=[%d, %d], stride=[%d, 1])"
                             % (p, op[-1], op[1], op[1]))
                tree.append("| | | +- TENSOR_MATCH: check_tensor(%s, Parameter, ...)" % p)
                tree.append("| | | +- NO_TENSOR_ALIASING: check_no_aliasing(L['x'], %s)" % p)
    tree += ["", "Guard latency = 12.47 us"]
    guards = "[\n" + ",\n".join(json.dumps({"code": c, "stack": None, "user_stack": None}) for c in codes) + "\n]"
    return guards, "\n".join(tree)


# --------------------------------------------------------------------------
# Plan: code objects (frames) and their compiles.
# --------------------------------------------------------------------------
class Code:
    """One Python code object that Dynamo compiles (one frame_id)."""

    def __init__(self, name, arch, layers, train, file, line, outer_stack):
        self.name, self.arch, self.layers, self.train = name, arch, layers, train
        self.file, self.line = file, line
        self.stack = outer_stack  # user frames leading to this code object
        self.fid, self.ncomp, self.dead = None, 0, False
        self.history = []  # (batch size, dynamic?) of each compile
        self.breaks, self.fail_at, self.fail_kind, self.resume = False, None, None, None
        self.extras = False  # always emit dump_file + link (used by the example)


class Compile:
    """State of one (re)compilation while its records are written."""

    def fill(self, key):
        return fill(self.tpl[key], self.subs)


FAILS = [  # (fail_type, fail_reason, where: "dynamo" = during tracing, "backend" = in inductor)
    ("BackendCompilerFailed", "backend='inductor' raised:\nCompilationError: at 12:11:\n    tmp3 = tl.load(in_ptr1 + (x0), xmask)\n           ^\nValueError('Cannot broadcast, rank mismatch: [\\'64\\'], [\\'64\\', \\'1\\']')", "backend"),
    ("Unsupported", "Data-dependent branching\n  Explanation: Detected data-dependent branching (e.g. `if my_tensor.sum() > 0:`). Dynamo does not support tracing dynamic control flow.\n  Hint: This graph break is fundamental - it is unlikely that Dynamo will ever be able to trace through your code.", "dynamo"),
    ("TorchRuntimeError", "Dynamo failed to run FX node with fake tensors: call_function <built-in function matmul>(*(FakeTensor(..., device='cuda:0', size=(s0, 512)), FakeTensor(..., device='cuda:0', size=(256, 512))), **{}): got RuntimeError('a and b must have same reduction dim, but got [s0, 512] X [256, 512].')", "dynamo"),
    ("InternalTorchDynamoError", "AttributeError: 'NoneType' object has no attribute 'size'", "dynamo"),
]
BREAKS = [
    "Call to `torch._dynamo.graph_break()`\n  Explanation: User-inserted graph break. Message: None\n  Hint: Remove the `torch._dynamo.graph_break()` call.",
    "Unsupported Tensor.item() call with capture_scalar_outputs=False\n  Explanation: Dynamo does not support tracing `Tensor.item()` with config.capture_scalar_outputs=False.\n  Hint: Set `torch._dynamo.config.capture_scalar_outputs = True` or `export TORCHDYNAMO_CAPTURE_SCALAR_OUTPUTS=1` to include these operations in the captured graph.",
    "Attempted to call function marked as skipped\n  Explanation: Dynamo developers have intentionally marked that the function `print` in file `builtins.py` should not be traced.\n  Hint: Avoid calling the function `print`.",
]
RECOMPILE = [  # (reason template, effect on the new graph)
    ("tensor 'L['x']' size mismatch at index 0. expected {old}, actual {new}", "dynamic"),
    ("L['self'].training == True", "eval"),  # model.eval(): inference graph, no backward
    ("tensor 'L['x']' requires_grad mismatch. expected requires_grad=1", "eval"),
    ("___check_obj_id(L['self'], 139912345{obj})", None),
]


def user_frames(mod_file, depth):
    """The outer user stack shared by all frames: training script -> model call."""
    train = PROJ + "train.py"
    fr = [(train, 212, "<module>", "main()"), (train, 188, "main", "train(model, loader, optimizer)"),
          (train, 97, "train", "loss = loss_fn(model(batch), target)"),
          (TORCH + "_dynamo/eval_frame.py", 414, "_fn", "return fn(*args, **kwargs)"),
          (TORCH + "nn/modules/module.py", 1773, "_wrapped_call_impl", "return self._call_impl(*args, **kwargs)"),
          (TORCH + "nn/modules/module.py", 1784, "_call_impl", "return forward_call(*args, **kwargs)")]
    for d in range(depth):
        fr += [(PROJ + mod_file, 61 + 4 * d, "forward", "x = layer(x)"),
               (TORCH + "nn/modules/module.py", 1773, "_wrapped_call_impl", "return self._call_impl(*args, **kwargs)"),
               (TORCH + "nn/modules/module.py", 1784, "_call_impl", "return forward_call(*args, **kwargs)")]
    return fr


SOURCES = ["L['x']", "L['self']._modules['layers']._modules['0']._modules['fc1']._parameters['weight']",
           "L['self']._modules['layers']._modules['0']._modules['fc1']._parameters['bias']"]
WIDTHS = sorted({op[-1] for _, ops in ARCH.values() for op in ops})  # for @@X<width>@@
FN_COMPILE = ',\n"fn_name": "_compile.compile_inner"'
FN_BACKEND = ',\n"fn_name": "OutputGraph.call_user_compiler"'
FW_METADATA = """ViewAndMutationMeta(input_info=[InputAliasInfo(is_leaf=True,
                                              mutates_data=False,
                                              mutates_metadata=False,
                                              requires_grad=True)] * %d,
                     output_info=[OutputAliasInfo(output_type=<OutputType.non_alias: 1>, raw_type=<class 'torch._subclasses.functional_tensor.FunctionalTensor'>, base_idx=None)],
                     num_intermediate_bases=0,
                     keep_input_mutations=True,
                     is_train=True)"""
GRAPH_BREAK_TB = """%s
User code traceback:
  File "%s", line %d, in %s
    x = self.debug_hook(x)

Traceback (most recent call last):
  File "%s_dynamo/symbolic_convert.py", line 1416, in step
    self.dispatch_table[inst.opcode](self, inst)
  File "%s_dynamo/exc.py", line 531, in unimplemented_v2
    raise Unsupported(msg)
torch._dynamo.exc.Unsupported: %s
"""
DYNAMO_ERROR_TB = """Traceback (most recent call last):
  File "%s_dynamo/convert_frame.py", line 1213, in _compile
    guarded_code, tracer_output = compile_inner(code, one_graph, hooks, transform)
                                  ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "%s_dynamo/output_graph.py", line 1878, in call_user_compiler
    return self._call_user_compiler(gm, self.example_inputs())
torch._dynamo.exc.%s: %s

Set TORCHDYNAMO_VERBOSE=1 for the internal stack trace (please do this especially if you're reporting a bug to PyTorch). For even more developer context, set TORCH_LOGS="+dynamo"
"""
CONVERT_TAIL = [(TORCH + "_dynamo/convert_frame.py", 1432, "__call__", "result = self._inner_convert("),
                (TORCH + "_dynamo/convert_frame.py", 598, "__call__", "return _compile(")]


class Gen:
    def __init__(self, trace, rng, rank):
        self.t, self.rng, self.rank = trace, rng, rank
        self.tpl_cache, self.next_fid, self.eval_key, self.aot_id = {}, 0, 0, 0
        self.cache_seen, self.counts = set(), {}

    def templates(self, code, train):
        key = (code.arch, code.layers, train)
        if key not in self.tpl_cache:
            self.tpl_cache[key] = build_templates(*key)
        return self.tpl_cache[key]

    def count(self, what):
        self.counts[what] = self.counts.get(what, 0) + 1

    def new_group(self, k):
        """A module family: k code objects; some break (resume frame), one may fail."""
        rng, codes = self.rng, []
        for j in range(k):
            arch = rng.choice(sorted(ARCH))
            layers = rng.choice([1, 2, 2, 3, 4, 6, 8, 12])
            f = ARCH[arch][0]
            c = Code("forward", arch, layers, rng.random() < 0.75, PROJ + f, 58 + 7 * j,
                     user_frames(f, rng.randint(0, 2)))
            codes.append(c)
            if rng.random() < 0.25:
                c.breaks = True
                line = c.line + 5
                c.resume = Code("torch_dynamo_resume_in_forward_at_%d" % line, arch, max(1, layers // 2),
                                c.train, c.file, line, c.stack)
            if rng.random() < 0.08:
                c.fail_at = rng.randint(0, 3)
        return codes

    # ---------------------------------------------------------------- compile
    def compile(self, code, reason=None):
        """Emit all records of one (re)compilation of `code`, in PyTorch's order."""
        t, rng = self.t, self.rng
        c = self.new_compile(code, reason)
        t.advance(1000, 400000)
        t.chrome(c.ids, "dynamo", "B", c.cid)
        if c.fcid > 0:  # Dynamo logs why every cached entry's guards failed, newest first
            prev = ["%d/%d: %s" % (c.fid, j, c.rtext) for j in range(c.fcid - 1, -1, -1)]
            t.emit(SRC["recompile"], '"artifact": {"name": "recompile_reasons", "encoding": "json"}', c.ids,
                   json.dumps(prev, indent=0))
        frames = code.stack + [(code.file, code.line, code.name, None)] + CONVERT_TAIL
        t.emit(SRC["start"], '"dynamo_start": {"stack": %s}' % t.stack(frames), c.ids)
        c.start_us = t.us
        t.chrome(c.ids, "entire_frame_compile", "B", c.cid, FN_COMPILE)
        t.chrome(c.ids, "compile_attempt_0", "B", c.cid)
        self.describe_inputs(c)
        if code.breaks:
            self.graph_break(c)
        if c.dynamic:
            self.shape_env_records(c)
        if c.ftype and c.ftype[2] == "dynamo":
            return self.fail(c)
        t.advance(5000, 300000)
        n_in, c_in, n_out, c_out = c.tpl["sizes"]
        bj = "s0" if c.dynamic else c.b  # SymInt: int, or str when symbolic
        t.emit(SRC["graph"], '"dynamo_output_graph": {"sizes": %s}' % json.dumps({n_in: [bj, c_in], n_out: [bj, c_out]}),
               c.ids, c.fill("dyn"))
        t.chrome(c.ids, "backend_compile", "B", c.cid, FN_BACKEND)
        t.emit(SRC["pre_grad"], '"inductor_pre_grad_graph": {}', c.ids, c.fill("pre"))
        t.emit(SRC["aot_cache"], '"artifact": {"name": "aotautograd_cache_%s", "encoding": "json"}' % c.cache, c.ids,
               json.dumps({"key": "a%sfkzq3y7b2xgo4lmdw6n5vtc3hs2q7ap4ru5jrw6ieq2" % c.subs[1][1], "cache_state": c.cache,
                           "components": ["[pf%d] gm: <lambda>()" % j for j in range(8)], "compile_id": c.cid}))
        if c.train:
            t.emit(SRC["aot_graph"], '"aot_joint_graph": {}', c.ids, c.fill("joint"))
            t.emit(SRC["fw_meta"], '"artifact": {"name": "aot_forward_graph_fw_metadata", "encoding": "string"}',
                   c.ids, FW_METADATA % c.tpl["ninputs"])
            t.emit(SRC["aot_graph"], '"aot_forward_graph": {}', c.ids, c.fill("fwd"))
            t.emit(SRC["aot_graph"], '"aot_backward_graph": {}', c.ids, c.fill("bwd"))
        else:
            t.emit(SRC["aot_graph"], '"aot_inference_graph": {}', c.ids, c.fill("fwd"))
        t.chrome(c.ids, "compile_fx_inner", "B", c.cid)
        if c.ftype:  # backend failure: inductor raised
            return self.fail(c)
        t.advance(20000, 2000000)
        c.inductor_s += self.inductor(c, "fwd", c.ids)
        if code.extras or rng.random() < 0.3:
            self.eval_key += 1
            t.emit(SRC["dump"], '"dump_file": {"name": "eval_with_key_%d"}' % self.eval_key, c.ids, c.fill("dump"))
        if code.extras or rng.random() < 0.15:
            t.emit(SRC["link"], '"link": {"name": "Inductor kernel profile", "url": '
                   '"https://perf.example.com/kernels/%s/%d"}' % (c.cid.replace("/", "_"), self.aot_id), c.ids)
        lazy_bwd = c.train and c.dynamic  # symints saved for backward -> compiled at first backward call
        if c.train and not lazy_bwd:
            c.inductor_s += self.inductor(c, "bwd", c.ids)
        t.chrome(c.ids, "compile_fx_inner", "E", c.cid)
        t.chrome(c.ids, "backend_compile", "E", c.cid, FN_BACKEND)
        t.chrome(c.ids, "build_guards", "B", c.cid)
        t.emit(SRC["guards"], '"dynamo_guards": {}', c.ids, c.fill("guards"))
        t.emit(SRC["cpp_guards"], '"dynamo_cpp_guards_str": {}', c.ids, c.fill("cpp_guards"))
        t.chrome(c.ids, "build_guards", "E", c.cid)
        t.chrome(c.ids, "compile_attempt_%d" % c.attempt, "E", c.cid)
        t.chrome(c.ids, "entire_frame_compile", "E", c.cid, FN_COMPILE)
        self.metrics(c)
        t.chrome(c.ids, "dynamo", "E", c.cid)
        if self.rank is not None:
            self.distributed(c)
        if lazy_bwd:
            self.lazy_backward(c)

    def new_compile(self, code, reason):
        """Per-compile state: compile id, batch size / dynamism, templates, substitutions."""
        rng = self.rng
        if code.fid is None:
            code.fid, self.next_fid = self.next_fid, self.next_fid + 1
        c = Compile()
        c.code, c.fid, c.fcid = code, code.fid, code.ncomp
        code.ncomp += 1
        c.cid, c.ids, c.attempt, c.restart = "%d/%d" % (c.fid, c.fcid), self.t.ids(c.fid, c.fcid, 0), 0, []
        c.rtext, c.train, c.inductor_s = None, code.train, 0.0
        if c.fcid == 0:
            c.b, c.dynamic = rng.choice([8, 16, 32, 64, 128, 256]), False
        else:
            old_b, c.dynamic = code.history[-1]
            rtpl, effect = reason
            c.b = old_b
            c.train = code.train and effect != "eval"
            if effect == "dynamic":  # automatic dynamic shapes: the batch dim becomes s0
                c.b, c.dynamic = (old_b * 2 if old_b < 512 else old_b // 2), True
            c.rtext = rtpl.format(old=old_b, new=c.b, obj=rng.randrange(1000, 9999))
        code.history.append((c.b, c.dynamic))
        c.tpl = self.templates(code, c.train)
        self.aot_id += 1
        c.subs = [("@@B@@", "s0" if c.dynamic else str(c.b)), ("@@H@@", "".join(rng.choice(B32) for _ in range(2))),
                  ("@@AOT@@", "%d_forward" % self.aot_id), ("@@OBJ@@", "%04d" % (c.fid % 10000))]
        c.subs += [("@@X%d@@" % w, "%d*s0" % w if c.dynamic else str(c.b * w)) for w in WIDTHS]
        key = (code.arch, code.layers, c.train, c.subs[0][1])
        c.cache = "hit" if key in self.cache_seen else "miss"
        self.cache_seen.add(key)
        c.ftype = None
        if code.fail_at == c.fcid:
            c.ftype = FAILS[code.fail_kind] if code.fail_kind is not None else rng.choice(FAILS)
        return c

    def describe_inputs(self, c):
        """Fake-tensor metadata for the first graph inputs."""
        t, w = self.t, c.tpl["c0"]
        for i in range(min(3, c.tpl["ninputs"])):
            t.emit(SRC["storage"], '"describe_storage": {"id": %d, "describer_id": %d, "size": %d}'
                   % (i, c.fid, c.b * w * 4), c.ids)
            t.emit(SRC["tensor"], '"describe_tensor": {"id": %d, "ndim": 2, "dtype": "torch.float32", "device": '
                   '"device(type=\'cuda\', index=0)", "size": [%d, %d], "is_leaf": true, "requires_grad": true, '
                   '"stride": [%d, 1], "storage": %d, "describer_id": %d}' % (i, c.b, w, w, i, c.fid), c.ids)
            t.emit(SRC["source"], '"describe_source": {"describer_id": %d, "id": %d, "source": "%s"}'
                   % (c.fid, i, SOURCES[i]), c.ids)

    def graph_break(self, c):
        """Attempt 0 hits a graph break: Dynamo restarts the analysis as attempt 1."""
        t, code = self.t, c.code
        t.advance(2000, 60000)
        why = self.rng.choice(BREAKS)
        c.restart = ["Graph break in user code at %s:%d\nGraph Break Reason: %s" % (code.file, code.line + 5, why)]
        t.emit(SRC["gbreak"], '"artifact": {"name": "dynamo_graph_break_reason", "encoding": "string"}', c.ids,
               GRAPH_BREAK_TB % (c.restart[0], code.file, code.line + 5, code.name, TORCH, TORCH, why.split("\n")[0]))
        t.chrome(c.ids, "compile_attempt_0", "E", c.cid)
        c.attempt, c.ids = 1, t.ids(c.fid, c.fcid, 1)
        t.chrome(c.ids, "compile_attempt_1", "B", c.cid)
        self.count("restarts")

    def shape_env_records(self, c):
        """guard_added_fast / symbolic_shape_specialization of a dynamic-shape compile."""
        t, code = self.t, c.code
        user = t.stack([(code.file, code.line, code.name, "x = self.fc1(x)")])
        fw = [(TORCH + "_dynamo/variables/builder.py", 3155, "wrap_to_fake_tensor_and_record", None),
              (TORCH + "fx/experimental/symbolic_shapes.py", 7021, "_maybe_guard_rel", None)]
        if self.eval_key:  # guards added while running an FX graph point into its dump_file source
            fw.insert(1, ("<eval_with_key>.%d" % self.eval_key, 9, "forward", None))
        fw = t.stack(fw)
        for expr in ("Ne(s0, 1)", "s0 <= 4096", "Eq(Mod(512*s0, 8), 0)")[:self.rng.randint(1, 3)]:
            t.emit(SRC["guard_fast"], '"guard_added_fast": {"expr": "%s", "stack": %s, "user_stack": %s}'
                   % (expr, fw, user), c.ids)
        if self.rng.random() < 0.3:
            t.emit(SRC["shape_spec"], '"symbolic_shape_specialization": {"symbol": "s1", "sources": '
                   '["L[\'x\'].size()[1]"], "value": "512", "reason": "Eq(s1, 512)", "stack": %s, "user_stack": %s}'
                   % (fw, user), c.ids)

    def inductor(self, c, which, ids):
        """post-grad graph + Triton output code + FX graph cache artifact; returns time spent."""
        t, rng = self.t, self.rng
        c.subs[2] = ("@@AOT@@", "%d_%s" % (self.aot_id, "forward" if which == "fwd" else "backward"))
        t.advance(10000, 900000)
        if which == "fwd":
            t.emit(SRC["runnable"], '"artifact": {"name": "fx_graph_runnable", "encoding": "string"}', ids,
                   c.fill("runnable"))
        t.emit(SRC["post_grad"], '"inductor_post_grad_graph": {}', ids, c.fill("post_" + which))
        t.chrome(ids, "inductor_codegen", "B", c.cid)
        h = "".join(rng.choice(B32) for _ in range(51))
        t.emit(SRC["code"], '"inductor_output_code": {"filename": "%s%s/c%s.py"}' % (CACHE_DIR, h[:2], h), ids,
               c.fill("code_" + which))
        t.chrome(ids, "inductor_codegen", "E", c.cid)
        w = c.tpl["c0"]
        t.emit(SRC["fx_cache"], '"artifact": {"name": "fx_graph_cache_%s", "encoding": "json"}' % c.cache, ids,
               json.dumps({"key": "f" + h, "components": [
                   "[%s] gm: <lambda>()" % h[3:30],
                   "[%s] example_inputs[0]: TensorMetadata(dtype=torch.float32, shape=torch.Size([%s, %d]), "
                   "stride=(%d, 1), device=cuda:0)" % (h[5:30], c.subs[0][1], w, w),
                   "[%s] fx_kwargs[is_backward]: %s" % (h[7:30], which == "bwd"),
                   "[%s] inputs_to_check[0]: 0" % h[9:30], "[%s] torch_version: <bytes>" % h[11:30]],
                   "cache_event_time": t.us * 1000, "cache_state": c.cache,
                   "time_saved_ns": 1803429 if c.cache == "hit" else 0,
                   "time_taken_ns": rng.randint(10 ** 6, 10 ** 9), "compile_id": c.cid}))
        return round(rng.uniform(0.05, 4.0), 6)

    def lazy_backward(self, c):
        """Backward compiled at its first call (after the frame's metrics), with its own metrics."""
        t = self.t
        t.advance(50000, 500000)
        ids = t.ids(c.fid, c.fcid, 0)
        t.chrome(ids, "compile_fx.<locals>.bw_compiler", "B", c.cid)
        it = self.inductor(c, "bwd", ids)
        t.chrome(ids, "compile_fx.<locals>.bw_compiler", "E", c.cid)
        m = {"inductor_compile_time_s": it, "code_gen_time_s": round(it * 0.4, 6), "fail_type": None, "fail_reason": None}
        if self.rng.random() < 0.1:
            m.update(fail_type="LoweringException", fail_reason="NotImplementedError: could not find kernel for "
                     "aten.erf_backward at dispatch key DispatchKey.Meta")
        t.emit(SRC["bwd_metrics"], '"bwd_compilation_metrics": %s' % json.dumps(m), ids)
        self.count("lazy_backward")

    def fail(self, c):
        """Dynamo or the backend raised: error artifact, metrics with fail_type, frame falls back to eager."""
        t = self.t
        if c.ftype[2] == "backend":  # close the events opened before inductor raised
            t.chrome(c.ids, "compile_fx_inner", "E", c.cid)
            t.chrome(c.ids, "backend_compile", "E", c.cid, FN_BACKEND)
        t.emit(SRC["error"], '"artifact": {"name": "dynamo_error", "encoding": "string"}', c.ids,
               DYNAMO_ERROR_TB % (TORCH, TORCH, c.ftype[0], c.ftype[1]))
        t.chrome(c.ids, "compile_attempt_%d" % c.attempt, "E", c.cid)
        t.chrome(c.ids, "entire_frame_compile", "E", c.cid, FN_COMPILE)
        self.metrics(c)
        t.chrome(c.ids, "dynamo", "E", c.cid)
        c.code.dead = True  # suppress_errors: this frame runs eagerly from now on
        self.count("failures")

    def metrics(self, c):
        t, rng, code, tpl = self.t, self.rng, c.code, c.tpl
        dur = (t.us - c.start_us) / 1e6
        ok = c.ftype is None
        m = {
            "compile_id": c.cid, "frame_key": str(code.fid + 1), "co_name": code.name, "co_filename": code.file,
            "co_firstlineno": code.line, "cache_size": c.fcid, "accumulated_cache_size": c.fcid,
            "guard_count": 8 + 4 * code.layers if ok else None, "shape_env_guard_count": 2 if c.dynamic else 0,
            "graph_op_count": tpl["nops"] if ok else None,
            "graph_node_count": tpl["nops"] + tpl["ninputs"] + 1 if ok else None,
            "graph_input_count": tpl["ninputs"] if ok else None, "start_time": c.start_us / 1e6,
            "entire_frame_compile_time_s": round(dur, 6), "backend_compile_time_s": round(dur * 0.8, 6) if ok else None,
            "inductor_compile_time_s": c.inductor_s if ok else None,
            "code_gen_time_s": round(c.inductor_s * 0.4, 6) if ok else None,
            "fail_type": c.ftype[0] if c.ftype else None, "fail_reason": c.ftype[1] if c.ftype else None,
            "fail_user_frame_filename": code.file if c.ftype else None,
            "fail_user_frame_lineno": code.line + 3 if c.ftype else None,
            "non_compliant_ops": [], "compliant_custom_ops": [], "restart_reasons": c.restart,
            "dynamo_time_before_restart_s": round(dur * 0.1, 6) if c.restart else 0.0, "has_guarded_code": ok,
            "remote_cache_time_saved_s": None, "structured_logging_overhead_s": round(rng.uniform(0.001, 0.05), 6),
            "config_suppress_errors": True, "config_inline_inbuilt_nn_modules": True, "specialize_float": False,
            "dynamo_config": DYNAMO_CONFIG, "is_forward": True, "num_triton_bundles": None,
            "start_time_us": c.start_us, "duration_us": int(dur * 1e6), "end_time_us": t.us,
            "dynamo_cumulative_compile_time_us": int(dur * 1e6), "log_format_version": 3,
            "inductor_config": INDUCTOR_CONFIG,
            "recompile_reason": None if c.rtext is None else "%d/%d: %s" % (c.fid, c.fcid - 1, c.rtext),
            "num_graph_breaks": len(c.restart) or None, "ir_count": tpl["nops"] * 3 if ok else None,
            "python_version": "3.11.13 (main, Jun  5 2025, 08:21:08) [GCC 11.2.0]", "is_runtime": False,
            "gc_time_us": rng.randint(100, 5000), "guard_latency_us": rng.randint(5, 60),
        }
        t.emit(SRC["metrics"], '"compilation_metrics": %s' % json.dumps(m), c.ids)
        self.count("compiles")

    def distributed(self, c):
        """Collective schedule + runtime estimates, used by the multi-rank report."""
        t, n = self.t, c.code.layers
        ops = ["torch.ops._c10d_functional.all_reduce_.default", "torch.ops._c10d_functional.wait_tensor.default"]
        t.emit(SRC["dist"], '"artifact": {"name": "inductor_collective_schedule", "encoding": "json"}', c.ids,
               json.dumps(ops * n, indent=0))
        rt = [{"name": "op%d" % i, "type": "compute", "estimated_runtime_ns": 1000 + 37 * i + (self.rank % 3)}
              for i in range(4 * n)]
        t.emit(SRC["dist"], '"artifact": {"name": "inductor_runtime_and_tensor_meta", "encoding": "json"}', c.ids,
               json.dumps({"ops": rt}, indent=0))

    def empty_frame(self):
        """A frame whose graph has no ops (status "empty" in the report)."""
        t = self.t
        code = Code("_maybe_log_step", "embed", 0, False, PROJ + "train.py", 142, user_frames("models/mlp.py", 0)[:3])
        code.fid, self.next_fid = self.next_fid, self.next_fid + 1
        c = Compile()
        c.code, c.fid, c.fcid, c.cid, c.ids = code, code.fid, 0, "%d/0" % code.fid, t.ids(code.fid, 0, 0)
        c.tpl, c.restart, c.rtext, c.ftype, c.dynamic, c.inductor_s = {"nops": 0, "ninputs": 0}, [], None, None, False, 0.0
        t.chrome(c.ids, "dynamo", "B", c.cid)
        frames = code.stack + [(code.file, code.line, code.name, None)] + CONVERT_TAIL
        t.emit(SRC["start"], '"dynamo_start": {"stack": %s}' % t.stack(frames), c.ids)
        c.start_us = t.us
        t.advance(1000, 9000)
        t.emit(SRC["guards"], '"dynamo_guards": {}', c.ids,
               '[\n{"code": "___check_global_state()", "stack": null, "user_stack": null}\n]')
        self.metrics(c)
        t.chrome(c.ids, "dynamo", "E", c.cid)
        self.count("empty")

    # ------------------------------------------------------------------ plans
    def run_random(self, target_bytes, max_steps=None):
        """Groups of frames, each compiled then recompiled a few times, until the size
        is reached -- or, for ranks > 0, until rank 0's number of steps is reproduced."""
        rng, steps = self.rng, 0

        def more():
            if max_steps is not None:
                return steps < max_steps
            return self.t.written() < target_bytes

        while more():
            codes = self.new_group(rng.randint(2, 6))
            for epoch in range(rng.randint(1, 5)):
                reason = rng.choice(RECOMPILE) if epoch else None
                for c in codes:
                    if not more():
                        return steps
                    steps += 1
                    if c.dead or (epoch and rng.random() < 0.25):
                        continue
                    self.compile(c, reason)
                    if c.resume and not c.dead:
                        self.compile(c.resume, reason if c.resume.ncomp else None)
            if rng.random() < 0.1:
                self.empty_frame()
        return steps

    def run_example(self):
        """Small fixed scenario for the demo (see bench/README.md for the compile ids)."""
        a = Code("forward", "embed", 1, True, PROJ + "models/embedding.py", 58, user_frames("models/embedding.py", 0))
        b = Code("forward", "mlp", 1, True, PROJ + "models/mlp.py", 65, user_frames("models/mlp.py", 1))
        b.breaks = True
        b.resume = Code("torch_dynamo_resume_in_forward_at_70", "mlp", 1, True, b.file, 70, b.stack)
        c = Code("forward", "head", 1, False, PROJ + "models/heads.py", 33, user_frames("models/heads.py", 0))
        c.fail_at, c.fail_kind = 0, 0  # BackendCompilerFailed
        a.extras = True
        self.compile(a)                    # 0/0  ok
        self.compile(b)                    # 1/0  graph break: attempt 0 -> attempt 1
        self.compile(b.resume)             # 2/0  resume function
        self.compile(c)                    # 3/0  failed compile
        self.empty_frame()                 # 4/0  empty graph
        self.compile(a, RECOMPILE[0])      # 0/1  size mismatch -> dynamic, lazy backward
        self.compile(a, RECOMPILE[1])      # 0/2  second recompile (reasons for 0/1 and 0/0)


DYNAMO_CONFIG = json.dumps({  # a JSON document stored as a string field, as PyTorch does
    "accumulated_recompile_limit": 256, "allow_rnn": False, "assume_static_by_default": True,
    "automatic_dynamic_shapes": True, "automatic_dynamic_shapes_mark_as": "dynamic",
    "cache_size_limit": 8, "capture_scalar_outputs": False, "capture_dynamic_output_shape_ops": False,
    "dead_code_elimination": True, "dynamic_shapes": True, "enable_cpp_guard_manager": True,
    "guard_nn_modules": False, "inline_inbuilt_nn_modules": True, "optimize_ddp": True,
    "recompile_limit": 8, "specialize_float": False, "specialize_int": False, "suppress_errors": True,
    "skipfiles_inline_module_allowlist": {}, "trace_numpy": True, "use_lazy_graph_module": True,
    "verify_correctness": False})
INDUCTOR_CONFIG = json.dumps({
    "TYPE_CHECKING": False, "autotune_local_cache": True, "benchmark_kernel": False, "compile_threads": 32,
    "coordinate_descent_tuning": False, "cpp_wrapper": False, "epilogue_fusion": True, "fx_graph_cache": True,
    "fx_graph_remote_cache": None, "max_autotune": False, "max_fusion_size": 64, "pattern_matcher": True,
    "reorder_for_locality": True, "size_asserts": True, "split_reductions": True, "triton.cudagraphs": False,
    "triton.unique_kernel_names": True, "trace.enabled": False, "trace.output_code": True})


# --------------------------------------------------------------------------
# --doctor-case NAME: small logs that each show one class of the compile doctor
# (tlscope summary).  The reason texts follow PyTorch 2.11's wording (see
# tests/data/recorded/*.log.gz); tests/e2e/doctor_*_test.cc checks what
# `tlscope summary --json` makes of every case.
# --------------------------------------------------------------------------
GB_SITE = "\n\n For more details about this graph break, please visit: " \
          "https://meta-pytorch.github.io/compile-graph-break-site/gb/gb%04d.html"
SUPPORTABLE = ("  Hint: It may be possible to write Dynamo tracing rules for this code. Please report an issue "
               "to PyTorch if you encounter this graph break often and it is causing performance issues.\n")
# (first line of "Graph Break Reason:" in the artifact, the reason) per graph-break case
GB_CALL = "Encountered graph break when attempting to trace CALL: a function call, e.g. f(x, y):\n\n"
GB_REASONS = {
    "print_logging": (GB_CALL,
        "Failed to trace builtin operator\n"
        "  Explanation: Dynamo does not know how to trace builtin operator `print` with argument types "
        "['str', 'float'] (has_kwargs False)\n"
        "  Hint: Avoid calling builtin `print` with argument types ['str', 'float']. Consider using an "
        "equivalent alternative function/method to `print`.\n"
        "  Hint: If you are attempting to call a logging function (e.g. `print`), you can try adding it to "
        "`torch._dynamo.config.reorderable_logging_functions`.\n"
        "  Hint: Please report an issue to PyTorch.\n\n"
        "  Developer debug context: builtin print [<class 'torch._dynamo.variables.constant.ConstantVariable'>, "
        "<class 'torch._dynamo.variables.tensor.SymNodeVariable'>] False" + GB_SITE % 59),
    "data_dependent": ("",
        "Data-dependent branching\n"
        "  Explanation: Detected data-dependent branching (e.g. `if my_tensor.sum() > 0:`). Dynamo does not "
        "support tracing dynamic control flow.\n"
        "  Hint: This graph break is fundamental - it is unlikely that Dynamo will ever be able to trace "
        "through your code. Consider finding a workaround.\n"
        "  Hint: Use `torch.cond` to express dynamic control flow.\n\n"
        "  Developer debug context: attempted to jump with TensorVariable()" + GB_SITE % 170),
    "dynamic_shape_op": (GB_CALL,
        "Dynamic shape operator\n"
        "  Explanation: Operator `aten.nonzero.default`'s output shape depends on input Tensor data.\n"
        "  Hint: Enable tracing of dynamic shape operators with "
        "`torch._dynamo.config.capture_dynamic_output_shape_ops = True`\n\n"
        "  Developer debug context: aten.nonzero.default" + GB_SITE % 36),
    "numpy": (GB_CALL,
        "attempted to trace numpy function unsupported by PyTorch\n"
        "  Explanation: Can't find numpy numpy function <function percentile at 0x7f3a2c1e5d80> in "
        "torch._numpy.\n" + SUPPORTABLE + "\n"
        "  Developer debug context: numpy function: <function percentile at 0x7f3a2c1e5d80>, args: "
        "[NumpyNdarrayVariable(), ConstantVariable(int: 95)], kwargs: {} (corresponding torch function: None)"
        + GB_SITE % 12),
    "skipped": (GB_CALL,
        "Skip calling `torch.compiler.disable()`d function\n"
        "  Explanation: Skip calling function `<function collect_stats at 0x7f3a2c1e5e40>` since it was "
        "wrapped with `torch.compiler.disable` (reason: None)\n"
        "  Hint: Remove the `torch.compiler.disable` call\n\n"
        "  Developer debug context: <function collect_stats at 0x7f3a2c1e5e40>" + GB_SITE % 98),
    "explicit_graph_break": ("Encountered graph break when attempting to trace CALL_FUNCTION_EX: a variadic "
                             "function call, e.g. f(*args):\n\n",
        "Call to `torch._dynamo.graph_break()`\n"
        "  Explanation: User-inserted graph break. Message: None\n"
        "  Hint: Remove the `torch._dynamo.graph_break()` call.\n\n"
        "  Developer debug context: Called `torch._dynamo.graph_break()` with args `[]`, kwargs `{}`"
        + GB_SITE % 25),
    "context_manager": ("Encountered graph break when attempting to trace BEFORE_WITH: setting up a "
                        "context manager:\n\n",
        "Unsupported context manager\n"
        "  Explanation: Dynamo does not know how to enter a `lock` context manager.\n"
        "  Hint: Avoid using the unsupported context manager.\n"
        "  Hint: If the context manager seems like it should be supported (e.g. torch.set_grad_enabled), then "
        "it may be the case that it was created outside the compiled region, which Dynamo does not support. "
        "Supported context managers can cross graph break boundaries only if they are local non-closure "
        "variables, or are intermediate values.\n"
        "  Hint: File an issue to PyTorch. Simple context managers can potentially be supported, but note that "
        "context managers can't be supported in general\n\n"
        "  Developer debug context: Attempted SETUP_WITH/BEFORE_WITH/LOAD_SPECIAL on "
        "UserDefinedObjectVariable(lock)" + GB_SITE % 142),
    "unsupported_bytecode": ("",
        "Missing bytecode handler\n"
        "  Explanation: Dynamo does not know how to handle the bytecode instruction `LOAD_BUILD_CLASS`.\n"
        "  Hint: Do not trace code that produces the `LOAD_BUILD_CLASS` bytecode instruction (see "
        "https://docs.python.org/3/library/dis.html for bytecode semantics).\n" + SUPPORTABLE + "\n"
        "  Developer debug context: LOAD_BUILD_CLASS with args (<torch._dynamo.symbolic_convert."
        "InstructionTranslator object at 0x7f3a2b9c4e10>, Instruction(opcode=71, opname='LOAD_BUILD_CLASS', "
        "arg=None, argval=None, offset=24, starts_line=None))" + GB_SITE % 72),
}
RECOMPILE_LIMIT_TEXT = (
    "Dynamo recompile limit exceeded\n"
    "  Explanation: Dynamo attempted to recompile the code object too many times, exceeding the "
    "recompile_limit cache size limit (currently set to 8). Excessive recompilations can degrade performance "
    "due to the compilation overhead of each recompilation.\n"
    "  Hint: To monitor recompilations, enable TORCH_LOGS=recompiles. If recompilations are expected, consider "
    "increasing torch._dynamo.config.recompile_limit to an appropriate value.\n"
    "  Hint: See https://docs.pytorch.org/docs/main/user_guide/torch_compiler/compile/"
    "programming_model.recompilation.html for tips on dealing with recompilations.\n\n"
    "  Developer debug context: Limit type: recompile_limit" + GB_SITE % 39)
BACKEND_FAILURE = (
    "backend='inductor' raised:\n"
    "RuntimeError: Triton Error [CUDA]: out of resource: shared memory, Required: 262144, Hardware limit: "
    "232448. Reducing block sizes or `num_stages` may help.")
DOCTOR_CASES = [
    "shape", "constant", "optimizer_constant", "object_identity", "global_state", "tensor_property",
    "recompile_limit", "large_frame", "print_logging", "data_dependent", "dynamic_shape_op", "numpy",
    "skipped", "explicit_graph_break", "context_manager", "unsupported_bytecode", "unclassified",
    "compile_error",
]


class DoctorFrame:
    def __init__(self, fid, name, path, line):
        self.fid, self.name, self.path, self.line, self.ncomp = fid, name, path, line, 0


class DoctorLog:
    """Writes the records of whole compiles; timings are fixed so totals are exact."""

    def __init__(self, out):
        self.t = Trace(out, None, random.Random(7))
        self.nframes = 0

    def frame(self, name, path, line):
        f = DoctorFrame(self.nframes, name, path, line)
        self.nframes += 1
        return f

    def compile(self, f, reasons=(), seconds=0.25, ops=3, graph_break=None, restart=False, fail=None,
                cache_size=None, nulls=False):
        """One compile of `f`: `reasons` are the recompile_reasons entries (newest first);
        `graph_break` = (user line, case) logs a dynamo_graph_break_reason artifact, and with
        `restart` the compile restarts as attempt 1 with the reason in restart_reasons;
        `fail` = (fail_type, fail_reason, user file or None, user line or None)."""
        t = self.t
        fcid = f.ncomp
        f.ncomp += 1
        cid = "%d/%d" % (f.fid, fcid)
        ids = t.ids(f.fid, fcid, 0)
        t.advance(20000, 90000)
        t.chrome(ids, "dynamo", "B", cid)
        if reasons:  # PyTorch writes one reason as plain text, several as a JSON list
            payload = reasons[0] if len(reasons) == 1 else json.dumps(list(reasons), indent=0)
            t.emit(SRC["recompile"], '"artifact": {"name": "recompile_reasons", "encoding": "json"}', ids, payload)
        outer = [(PROJ + "train.py", 212, "<module>", "main()"),
                 (PROJ + "train.py", 97, "train", "loss = model(batch).sum()")]
        t.emit(SRC["start"], '"dynamo_start": {"stack": %s}' % t.stack(outer + [(f.path, f.line, f.name, None)]), ids)
        t.chrome(ids, "entire_frame_compile", "B", cid, FN_COMPILE)
        restart_reasons = []
        if graph_break:
            line, case = graph_break
            head, why = GB_REASONS[case]
            text = ("Graph break in user code at %s:%d\nGraph Break Reason: %s%s\n\nUser code traceback:\n"
                    '  File "%strain.py", line 97, in train\n    loss = model(batch).sum()\n'
                    '  File "%s", line %d, in %s\n\n' % (f.path, line, head, why, PROJ, f.path, line, f.name))
            if restart:
                text += ("Traceback (most recent call last):\n"
                         '  File "%s_dynamo/symbolic_convert.py", line 1001, in wrapper\n'
                         "    return inner_fn(self, inst)\n"
                         '  File "%s_dynamo/exc.py", line 634, in unimplemented\n'
                         "    raise Unsupported(msg, gb_type, skip_frame)\n"
                         "torch._dynamo.exc.Unsupported: %s\n" % (TORCH, TORCH, why))
            else:
                text += "NoneType: None\n"
            t.emit(SRC["gbreak"], '"artifact": {"name": "dynamo_graph_break_reason", "encoding": "string"}',
                   ids, text)
            if restart:
                restart_reasons = [why]
                ids = t.ids(f.fid, fcid, 1)
        if not fail or fail[0] == "BackendCompilerFailed":
            graph = ('class GraphModule(torch.nn.Module):\n'
                     '    def forward(self, L_x_: "f32[8, 64][64, 1]cuda:0"):\n'
                     '        l_x_ = L_x_\n\n'
                     '         # File: %s:%d in %s, code: return torch.sin(x) * 2\n'
                     '        sin: "f32[8, 64][64, 1]cuda:0" = torch.sin(l_x_);  l_x_ = None\n'
                     '        mul: "f32[8, 64][64, 1]cuda:0" = sin * 2;  sin = None\n'
                     '        return (mul,)\n' % (f.path, f.line + 2, f.name))
            t.emit(SRC["graph"], '"dynamo_output_graph": {"sizes": {"l_x_": [8, 64], "mul": [8, 64]}}', ids, graph)
        if fail:
            t.emit(SRC["error"], '"artifact": {"name": "dynamo_error", "encoding": "string"}', ids,
                   DYNAMO_ERROR_TB % (TORCH, TORCH, fail[0], fail[1]))
        else:
            t.emit(SRC["cpp_guards"], '"dynamo_cpp_guards_str": {}', ids,
                   "TREE_GUARD_MANAGER:\n+- RootGuardManager\n| +- GLOBAL_STATE: ___check_global_state()\n"
                   "| +- GuardManager: source=L['x'], accessed_by=FrameLocalsGuardAccessor(key='x')\n"
                   "| | +- TENSOR_MATCH: check_tensor(L['x'], Tensor, DispatchKeySet(CUDA, BackendSelect, "
                   "ADInplaceOrView, AutogradCUDA), torch.float32, device=0, requires_grad=False, size=[8, 64], "
                   "stride=[64, 1])")
        t.chrome(ids, "entire_frame_compile", "E", cid, FN_COMPILE)
        m = {
            "co_name": f.name, "co_filename": f.path, "co_firstlineno": f.line,
            "cache_size": fcid if cache_size is None else cache_size,
            "accumulated_cache_size": fcid if cache_size is None else cache_size, "frame_key": str(f.fid + 1),
            "fail_type": fail[0] if fail else None, "fail_reason": fail[1] if fail else None,
            "fail_user_frame_filename": fail[2] if fail else None,
            "fail_user_frame_lineno": fail[3] if fail else None,
            "recompile_reason": reasons[0] if reasons else None, "restart_reasons": restart_reasons,
            "graph_op_count": None if fail else ops, "entire_frame_compile_time_s": seconds,
            "backend_compile_time_s": None if fail and fail[0] != "BackendCompilerFailed" else seconds / 2,
            "inductor_compile_time_s": None, "code_gen_time_s": None, "is_forward": True,
            "num_graph_breaks": None, "has_guarded_code": not fail,
        }
        if nulls:  # the recompile-limit failure: PyTorch leaves the code fields null
            for k in ("co_name", "co_filename", "co_firstlineno", "cache_size", "accumulated_cache_size",
                      "frame_key", "restart_reasons", "graph_op_count", "is_forward", "backend_compile_time_s"):
                m[k] = None
        t.emit(SRC["metrics"], '"compilation_metrics": %s' % json.dumps(m), ids)
        t.chrome(ids, "dynamo", "E", cid)

    def recompiles(self, f, count, reason, seconds=0.25, ops=3):
        """`count` recompiles of `f`; reason(j, k) is why cached entry j failed at compile k.
        Every recompile lists all cached entries, newest first, as PyTorch does."""
        for _ in range(count):
            k = f.ncomp
            rs = ["%d/%d: %s" % (f.fid, j, reason(j, k)) for j in range(k - 1, -1, -1)]
            self.compile(f, rs, seconds=seconds, ops=ops)


def size_reason(j, k):
    return "tensor 'x' size mismatch at index 0. expected %d, actual %d" % (j + 2, k + 2)


def write_doctor_case(path, name):
    with open(path, "w", encoding="ascii", newline="\n") as out:
        d = DoctorLog(out)
        mlp = PROJ + "models/mlp.py"
        if name == "shape":  # dynamic=False: every new batch size is a new graph
            f = d.frame("forward", mlp, 61)
            d.compile(f, seconds=1.5)
            d.recompiles(f, 3, size_reason)
        elif name == "constant":  # a Python float argument is baked into the graph
            f = d.frame("apply_temperature", PROJ + "models/heads.py", 30)
            d.compile(f, seconds=1.0)
            d.compile(f, ["0/0: c == 0.5                                                 "
                          "#   # models/heads.py:32 in apply_temperature\nUser stack trace:\n"
                          '  File "%smodels/heads.py", line 32, in apply_temperature\n'
                          "    return logits / c" % PROJ])
        elif name == "optimizer_constant":  # Adam(lr=0.01) + ExponentialLR: a float lr
            f = d.frame("step", TORCH + "optim/adam.py", 214)
            first = ("self.param_groups[0]['lr'] == 0.01                       "
                     "# for group in self.param_groups:  # optim/adam.py:229 in step\nUser stack trace:\n"
                     '  File "%soptim/adam.py", line 229, in step\n    for group in self.param_groups:' % TORCH)
            lrs = ["0.009000000000000001", "0.008100000000000001", "0.007290000000000001"]
            d.compile(f, seconds=1.25, ops=29)

            def lr_reason(j, k):
                if j == 0:
                    return first
                return ("___as_tensor(self.param_groups[0]['lr']).item() == %s  # (unknown source "
                        "___as_tensor(self.param_groups[0]['lr']).item(), please file a bug)" % lrs[j - 1])
            d.recompiles(f, 3, lr_reason, ops=29)
        elif name == "object_identity":  # a new module object on every call
            f = d.frame("forward", PROJ + "models/attention.py", 40)
            d.compile(f, seconds=0.75)
            d.recompiles(f, 2, lambda j, k: "___check_obj_id(L['mod'], %d)                   "
                         % (139820487530896 + 656 * j))
        elif name == "global_state":  # called with and without torch.no_grad()
            f = d.frame("forward", mlp, 61)
            d.compile(f, seconds=0.5)
            d.compile(f, ["0/0: GLOBAL_STATE changed: grad_mode "])
        elif name == "tensor_property":  # x.half() after x.float()
            f = d.frame("forward", mlp, 61)
            d.compile(f, seconds=0.5)
            d.compile(f, ["0/0: tensor 'x' dtype mismatch. expected Float, actual Half"])
        elif name == "recompile_limit":  # dynamic=False and a new size on every call
            f = d.frame("forward", mlp, 61)
            d.compile(f, seconds=1.0)
            d.recompiles(f, 7, size_reason, seconds=0.125)
            k = f.ncomp
            rs = ["%d/%d: %s" % (f.fid, j, size_reason(j, k)) for j in range(k - 1, -1, -1)]
            d.compile(f, rs, seconds=0.0025, fail=("Unsupported", RECOMPILE_LIMIT_TEXT, None, None), nulls=True)
        elif name == "large_frame":  # a 500-op frame recompiled for a changing constant
            f = d.frame("forward", PROJ + "models/transformer.py", 120)
            d.compile(f, seconds=4.0, ops=500)
            d.recompiles(f, 4, lambda j, k: "L['temperature'] == %s                 "
                         "#   # models/transformer.py:131 in forward" % ["0.7", "0.8", "0.9", "1.0"][j],
                         seconds=2.0, ops=500)
        elif name in GB_REASONS:
            f = d.frame("forward", mlp, 61)
            restart = name != "data_dependent"  # only a jump on a tensor breaks without a restart
            d.compile(f, graph_break=(66, name), restart=restart, seconds=0.5)
            r = d.frame("torch_dynamo_resume_in_forward_at_66", mlp, 66)
            d.compile(r, seconds=0.125)
            if name == "data_dependent":  # one resume function per branch
                r2 = d.frame("torch_dynamo_resume_in_forward_at_66", mlp, 66)
                d.compile(r2, seconds=0.125)
        elif name == "unclassified":  # a guard the doctor has no class for
            f = d.frame("forward", PROJ + "models/heads.py", 36)
            d.compile(f, seconds=0.5)
            d.compile(f, ["0/0: not ___dict_contains('use_fast_path', G['FLAGS'])  "
                          "# if 'use_fast_path' in FLAGS:  # models/heads.py:40 in forward"])
        elif name == "compile_error":  # inductor raised; suppress_errors runs the frame eagerly
            f = d.frame("forward", PROJ + "models/attention.py", 40)
            d.compile(f, seconds=2.5, fail=("BackendCompilerFailed", BACKEND_FAILURE, PROJ + "models/attention.py", 52))
        else:
            raise SystemExit("unknown doctor case %r; one of: %s" % (name, ", ".join(DOCTOR_CASES)))
        d.t.flush()
        return d.t.total


# --------------------------------------------------------------------------
# Entry points
# --------------------------------------------------------------------------
def write_log(path, size_mb, seed, rank, max_steps=None, example=False):
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
    n, _, counts = write_log(a.out, a.size_mb, a.seed, a.rank, example=a.example)
    dt = time.time() - t0
    print("wrote %s: %.2f MB in %.2f s (%.0f MB/s) %s" % (
        a.out, n / 1e6, dt, n / 1e6 / max(dt, 1e-9), " ".join("%s=%d" % kv for kv in sorted(counts.items()))))


if __name__ == "__main__":
    main()
