#!/usr/bin/env python3
"""Writes a small TORCH_TRACE log whose names are long, for the browser test
of page widths: deep file paths, long function names and graph-input sources,
and a frame whose recompiles list many reasons of several patterns.

Usage: python3 tests/browser/wide_log.py OUT.log
"""
import hashlib
import json
import sys

DEEP = "/home/user/" + "/".join("a_rather_long_folder_name_%d" % i for i in range(8)) + "/model.py"
NAME = "forward_of_a_module_with_a_name_that_goes_on_and_on_" + "x" * 40
SOURCE = "L['self']._modules['encoder']._modules['layers']._modules['11']._modules[" \
         "'self_attention']._modules['query_key_value']._parameters['weight']" + "_tail" * 20

lines = []


def record(env, payload=None):
    if payload is not None:
        env["has_payload"] = hashlib.md5(payload.encode()).hexdigest()
    lines.append("V1201 10:00:00.000000 1 torch/_dynamo/utils.py:1] " + json.dumps(env))
    if payload is not None:
        lines.extend("\t" + l for l in payload.split("\n"))


def ids(frame, fcid):
    return {"frame_id": frame, "frame_compile_id": fcid, "attempt": 0}


record({"str": [DEEP, 0]})
PATTERNS = ["tensor 'x' size mismatch at index 0. expected %d, actual %d",
            "L['scale'] == %d.5                                    # scale (%d)",
            "tensor 'x' dtype mismatch. expected Float, actual Half (%d, %d)",
            "___check_obj_id(L['self'].layer, %d%d)"]
for k in range(6):
    start = dict(ids(0, k), dynamo_start={"stack": [{"line": 12, "name": NAME, "filename": 0}]})
    record(start)
    if k:
        reasons = ["0/%d: %s" % (j, PATTERNS[j % 4] % (j + 2, k + 2)) for j in range(k)]
        record(dict(ids(0, k), artifact={"name": "recompile_reasons", "encoding": "json"}),
               json.dumps(reasons))
    for t, (src, shape) in enumerate([(SOURCE, [4096, 4096]), ("L['x']", [8, 4096])]):
        record(dict(ids(0, k), describe_tensor={"id": t, "describer_id": k, "ndim": 2, "dtype": "torch.float32",
                                                "device": "device(type='cuda', index=0)",
                                                "size": shape, "stride": [shape[1], 1],
                                                "requires_grad": True, "is_parameter": t == 0}))
        record(dict(ids(0, k), describe_source={"id": t, "describer_id": k, "source": src}))
    record(dict(ids(0, k), compilation_metrics={
        "co_name": NAME, "co_filename": DEEP, "co_firstlineno": 12, "graph_op_count": 60,
        "restart_reasons": [], "entire_frame_compile_time_s": 0.25}))
with open(sys.argv[1], "w") as f:
    f.write("\n".join(lines) + "\n")
