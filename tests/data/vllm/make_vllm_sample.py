#!/usr/bin/env python3
"""Writes vllm_sample.log: a small vLLM TORCH_TRACE log of our own, in the
structure UPSTREAM_AFTER_0.4.3.md section 3.3 describes (the upstream
vllm_sample.log is not in the corpus). Two compile calls of one vLLM
process (rank 0): a backbone compiled fresh, with a piecewise split into
submodules compiled for the range [1, 16384] and for size 8, and post-grad
pass graphs; then a draft head that hits vLLM's AOT cache.

  python3 tests/data/vllm/make_vllm_sample.py tests/data/vllm/vllm_sample.log
"""
import hashlib
import json
import sys

CONFIG = {
    "model": "meta-llama/Llama-3.1-8B-Instruct", "prefix": "backbone", "mode": "VLLM_COMPILE",
    "backend": "inductor", "custom_ops": "none", "splitting_ops": "vllm.unified_attention,vllm.unified_attention_with_output",
    "cudagraph_mode": "FULL_AND_PIECEWISE", "compile_sizes": "8", "compile_ranges_split_points": "16384",
    "use_inductor_graph_partition": False, "inductor_passes": "", "enabled_passes": "fusion,noop",
    "dynamic_shapes_type": "BACKED", "dynamic_shapes_evaluate_guards": False,
}

SPLIT_GRAPH = """class GraphModule(torch.nn.Module):
    def forward(self, s72: "Sym(s72)", l_input_ids_: "i32[s72]", l_positions_: "i64[s72]"):
        submod_0 = self.submod_0(l_input_ids_, s72)
        submod_1 = self.submod_1(submod_0, s72)
        submod_2 = self.submod_2(submod_1, l_positions_, s72)
        return (submod_2,)"""

SUBMOD = """class GraphModule(torch.nn.Module):
    def forward(self, l_x_: "bf16[s72, 4096]", s72: "Sym(s72)"):
        rms = torch.ops._C.rms_norm.default(l_x_, 1e-05)
        linear = torch._C._nn.linear(rms, self.weight)
        return (linear,)"""

BEFORE_PASSES = """def forward(self, x):
    a = torch.ops._C.rms_norm.default(x, 1e-05)
    b = torch.ops.aten.mm.default(a, self.weight)
    c = torch.ops.aten.add.Tensor(b, x)
    return c"""

AFTER_FUSION = """def forward(self, x):
    a = torch.ops._C.fused_add_rms_norm.default(x, 1e-05)
    b = torch.ops.aten.mm.default(a, self.weight)
    return b"""

AFTER_NOOP = """def forward(self, x):
    a = torch.ops._C.fused_add_rms_norm.default(x, 1e-05)
    b = torch.ops.aten.mm.default(a, self.weight)
    b = torch.ops.aten.view.default(b, [-1, 4096])
    return b"""

PATTERNS = """# Patterns for FusionPass
def pattern_0():
    x = KeywordArg("x")
    norm = CallFunction(torch.ops._C.rms_norm.default, x, KeywordArg("eps"))
    return CallFunction(torch.ops.aten.add.Tensor, norm, x)"""

OUTPUT_CODE = """# AOT ID: ['0_inference']
from torch._inductor.runtime.triton_heuristics import grid

def call(args):
    arg0_1, arg1_1 = args
    buf0 = empty_strided_cuda((8, 4096), (4096, 1), torch.bfloat16)
    triton_red_fused_rms_norm_0.run(arg0_1, buf0, 8, 4096, grid=grid(8))
    return (buf0, )"""

DYNAMO_GRAPH = """class GraphModule(torch.nn.Module):
    def forward(self, L_input_ids_: "i32[s72]", L_positions_: "i64[s72]"):
        hidden = self.model.embed_tokens(L_input_ids_)
        return (hidden,)"""


class Log:
    def __init__(self, out):
        self.out = out
        self.us = 175000
        self.strings = {}

    def intern(self, s):
        if s not in self.strings:
            self.strings[s] = len(self.strings)
            self.line("torch/_logging/structured.py:28", {"str": [s, self.strings[s]]})
        return self.strings[s]

    def line(self, where, env, payload=None):
        if payload is not None:
            env["has_payload"] = hashlib.md5(payload.encode()).hexdigest()
        self.us += 1000
        sec, us = divmod(self.us, 1000000)
        self.out.write("V0127 17:17:%02d.%06d 1175001 %s] %s\n" % (45 + sec, us, where, json.dumps(env)))
        if payload is not None:
            for l in payload.split("\n"):
                self.out.write("\t" + l + "\n")

    def stack(self):
        f = self.intern("/usr/lib/python3.12/site-packages/vllm/compilation/backends.py")
        return [{"line": 655, "name": "__call__", "filename": f}]


def frame(k):
    return {"frame_id": k, "frame_compile_id": 0, "attempt": 0, "rank": 0}


def call(log, k, prefix, event, submods):
    ids = frame(k)
    log.line("torch/_dynamo/convert_frame.py:1033", dict(dynamo_start={"stack": log.stack()}, **ids))
    log.line("vllm/compilation/backends.py:590", dict(artifact={"name": "vllm_compile_event", "encoding": "json"}, **ids),
             json.dumps({"type": event}))
    log.line("torch/_dynamo/output_graph.py:2190", dict(dynamo_output_graph={"sizes": {"l_input_ids_": ["s72"]}}, **ids),
             DYNAMO_GRAPH)
    config = dict(CONFIG, prefix=prefix)
    log.line("vllm/compilation/backends.py:612", dict(artifact={"name": "vllm_compilation_config", "encoding": "json"}, **ids),
             json.dumps(config))
    log.line("vllm/compilation/backends.py:640", dict(graph_dump={"name": "vllm_piecewise_split_graph"}, **ids), SPLIT_GRAPH)
    log.line("vllm/compilation/backends.py:650", dict(graph_dump={"name": "vllm_patterns.FusionPass"}, **ids), PATTERNS)
    for i, (name, start, end, single) in enumerate(submods):
        # The piecewise backend logs without compile-id keys, with its stack.
        log.line("vllm/compilation/piecewise_backend.py:142",
                 {"artifact": {"name": "vllm_piecewise_compile_start", "encoding": "json"}, "rank": 0, "stack": log.stack()},
                 json.dumps({"piecewise_index": i, "submod_name": name, "total_piecewise_compiles": len(submods),
                             "compile_range_start": start, "compile_range_end": end, "is_single_size": single,
                             "is_cudagraph_capture_size": single}))
        log.line("vllm/compilation/backends.py:660", {"graph_dump": {"name": "vllm_" + name}, "rank": 0}, SUBMOD)
        if event == "fresh_compile":
            log.line("torch/_inductor/compile_fx.py:951",
                     {"artifact": {"name": "before_post_grad_graph", "encoding": "string"}, "rank": 0}, BEFORE_PASSES)
            log.line("vllm/compilation/vllm_inductor_pass.py:80", {"graph_dump": {"name": "vllm_post_grad.0.FusionPass"}, "rank": 0},
                     AFTER_FUSION)
            log.line("vllm/compilation/vllm_inductor_pass.py:80", {"graph_dump": {"name": "vllm_post_grad.1.NoOpEliminationPass"}, "rank": 0},
                     AFTER_NOOP)
            log.line("torch/_inductor/graph.py:2105", {"inductor_output_code": {"filename": "/tmp/torchinductor_u/ab/cab%d%d.py" % (k, i)}, "rank": 0},
                     OUTPUT_CODE)
    log.line("torch/_dynamo/utils.py:1288", dict(compilation_metrics={
        "co_name": "forward", "co_filename": "/usr/lib/python3.12/site-packages/vllm/model_executor/models/llama.py",
        "co_firstlineno": 412, "cache_size": 0, "accumulated_cache_size": 0, "guard_count": 11, "graph_op_count": 3,
        "graph_node_count": 6, "graph_input_count": 2, "entire_frame_compile_time_s": 14.2 if event == "fresh_compile" else 0.9,
        "backend_compile_time_s": 12.8 if event == "fresh_compile" else 0.3, "restart_reasons": []}, **ids))


def main():
    with open(sys.argv[1], "w", newline="\n") as out:
        log = Log(out)
        call(log, 0, "backbone", "fresh_compile",
             [("submod_0", 1, 16384, False), ("submod_2", 1, 16384, False), ("submod_0", 8, 8, True), ("submod_2", 8, 8, True)])
        call(log, 1, "eagle_head", "aot_cache_hit", [("submod_0", 8, 8, True)])


if __name__ == "__main__":
    main()
