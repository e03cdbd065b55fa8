"""Trace writer: glog prefix, JSON envelope, TAB-prefixed payload lines, string
interning and the clock; plus the paths and logging call sites shared by all logs."""
import hashlib
import json
import time

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
