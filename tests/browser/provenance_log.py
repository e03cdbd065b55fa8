#!/usr/bin/env python3
"""Writes a small TORCH_TRACE log with Inductor provenance (graphs before and
after Inductor's passes, the output code, and the node mappings), for the
browser test of the provenance page: one pre-grad node maps to two post-grad
nodes, so the page shows a badge; every pane has mapped lines.

Usage: python3 tests/browser/provenance_log.py OUT.log
"""
import hashlib
import json
import sys

PRE = """class GraphModule(torch.nn.Module):
    def forward(self, L_x_: "f32[8, 16]"):
        x = self.L__self___fc(L_x_)
        y = torch.relu(x)
        return (y,)"""

POST = """class <lambda>(torch.nn.Module):
    def forward(self, arg0_1: "f32[16, 16]", arg1_1: "f32[8, 16]"):
        permute: "f32[16, 16]" = torch.ops.aten.permute.default(arg0_1, [1, 0])
        addmm: "f32[8, 16]" = torch.ops.aten.addmm.default(arg1_1, arg1_1, permute)
        relu: "f32[8, 16]" = torch.ops.aten.relu.default(addmm)
        return (relu,)"""

CODE = """# AOT ID: ['0_inference']
import torch

triton_poi_fused_relu_0 = async_compile.triton('triton_poi_fused_relu_0', '''
@triton.jit
def triton_poi_fused_relu_0(in_out_ptr0, xnumel, XBLOCK : tl.constexpr):
    pass
''')

def call(args):
    arg0_1, arg1_1 = args
    buf0 = empty_strided_cuda((8, 16), (16, 1), torch.float32)
    extern_kernels.addmm(arg1_1, arg1_1, arg0_1, out=buf0)
    triton_poi_fused_relu_0.run(buf0, 128, grid=grid(128))
    return (buf0, )"""

MAPPINGS = {
    "preToPost": {"x": ["permute", "addmm"], "y": ["relu"]},
    "postToPre": {"permute": ["x"], "addmm": ["x"], "relu": ["y"]},
    "cppCodeToPost": {"triton_poi_fused_relu_0": ["relu"], "extern_kernels.addmm": ["addmm"]},
    "postToCppCode": {"relu": ["triton_poi_fused_relu_0"], "addmm": ["extern_kernels.addmm"]},
}

lines = []


def record(env, payload=None):
    env.update({"frame_id": 0, "frame_compile_id": 0, "attempt": 0})
    if payload is not None:
        env["has_payload"] = hashlib.md5(payload.encode()).hexdigest()
    lines.append("V1201 10:00:00.000000 1 torch/_inductor/compile_fx.py:1] " + json.dumps(env))
    if payload is not None:
        lines.extend("\t" + l for l in payload.split("\n"))


record({"artifact": {"name": "before_pre_grad_graph", "encoding": "string"}}, PRE)
record({"artifact": {"name": "after_post_grad_graph", "encoding": "string"}}, POST)
record({"inductor_output_code": {"filename": "/tmp/torchinductor_u/ab/cabc.py"}}, CODE)
record({"artifact": {"name": "inductor_provenance_tracking_node_mappings", "encoding": "json"}},
       json.dumps(MAPPINGS))
record({"compilation_metrics": {"co_name": "forward", "entire_frame_compile_time_s": 0.5}})

with open(sys.argv[1], "w", newline="\n") as out:
    out.write("\n".join(lines) + "\n")
