"""The synthetic training run: code objects (frames) and their compiles, recompiles,
graph breaks and failures, written record by record in PyTorch's order (class Gen)."""
import json

from tracegen.payloads import ARCH, build_templates
from tracegen.writer import B32, CACHE_DIR, PROJ, SRC, TORCH, fill


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
