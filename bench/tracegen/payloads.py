"""Model archetypes -> payload templates (FX graphs, Triton output code, runnable
repro, guards), rendered once per (model, layers, mode).

Placeholders: @@B@@ leading dim (int or "s0"), @@X<c>@@ numel of a [B, c]
tensor, @@H@@ per-compile hash chars, @@AOT@@ AOT graph id.
"""
import hashlib
import json

from tracegen.kernels import BODY, CODE_HEAD, CODE_TAIL, KERNEL_HEAD, KPARAMS, POI_PRE, RED_PRE
from tracegen.writer import B32, CACHE_DIR, PROJ

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
