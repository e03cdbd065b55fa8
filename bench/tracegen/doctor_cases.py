"""--doctor-case NAME: small logs that each show one class of the compile doctor
(tlscope summary).

The reason texts follow PyTorch 2.11's wording (see tests/data/recorded/*.log.gz);
tests/e2e/doctor_*_test.cc checks what `tlscope summary --json` makes of every case.
"""
import json
import random

from tracegen.run import DYNAMO_ERROR_TB, FN_COMPILE
from tracegen.writer import PROJ, SRC, TORCH, Trace

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
    "compile_error", "train_eval", "train_eval_flips",
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
        elif name == "train_eval":  # model.eval() after training: one graph per mode
            f = d.frame("forward", mlp, 61)
            d.compile(f, seconds=1.0)
            d.compile(f, ["0/0: L['self'].training == True                           "
                          "# if self.training:  # models/mlp.py:63 in forward"])
        elif name == "train_eval_flips":  # train()/eval() inside the training loop
            f = d.frame("forward", mlp, 61)
            d.compile(f, seconds=1.0)
            d.recompiles(f, 3, lambda j, k: "L['self'].training == %s" % ("True" if j % 2 == 0 else "False"))
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
