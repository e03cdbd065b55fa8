#!/usr/bin/env python3
"""Seed inputs and the dictionary for the fuzz harnesses.

  python3 fuzz/make_seeds.py OUT [--corpus DIR]

writes OUT/dict (the trace's envelope keys from src/trace/events.def, the
glog prefix tokens, the harnesses' own markers) and OUT/seeds/<harness>/,
cut from our own logs (examples/, tests/data/) and, when there is one, from
the corpus of real logs (--corpus, else $TLSCOPE_CORPUS_DIR, else
../shared/corpus beside the project). Nothing from the corpus is copied into
the project: the pieces go to OUT only, each under 64 KB.

  python3 fuzz/make_seeds.py --own

rewrites fuzz/seeds/ (committed: a few small pieces of our own logs, which
`make test` runs every harness on).
"""
import argparse
import gzip
import hashlib
import os
import random
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
MAX_SEED = 64 * 1024
HARNESSES = ["lines", "envelope", "pipeline", "escape", "multirank", "compressed", "redact",
             "torch_logs"]
GLOG = re.compile(rb"^[VIWEC]\d{4} \d\d:\d\d:\d\d\.\d{6} +\d+ [^\]]*\] ")


def read_log(path):
    data = open(path, "rb").read()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    elif data[:4] == b"\x28\xb5\x2f\xfd":
        return b""  # no zstd module in the standard library; such logs are skipped
    return data


def records(data):
    """The log split into records: a glog line and the TAB lines after it."""
    out, cur = [], []
    for line in data.split(b"\n"):
        if GLOG.match(line) and cur:
            out.append(b"\n".join(cur) + b"\n")
            cur = []
        cur.append(line)
    if cur:
        out.append(b"\n".join(cur) + b"\n")
    return out


def pieces(data, count, rng, limit=MAX_SEED):
    """Up to `count` runs of whole records, each under `limit` bytes: from the
    start, and from places spread over the log."""
    recs = records(data)
    starts = [0] + sorted(rng.sample(range(len(recs)), min(len(recs), max(0, count - 1))))
    out = []
    for s in starts[:count]:
        piece = b""
        for r in recs[s:]:
            if len(piece) + len(r) > limit:
                break
            piece += r
        if not piece and s < len(recs):
            piece = recs[s][:limit]
        if piece:
            out.append(piece)
    return out


def envelopes(data, count):
    """The JSON of envelope lines, one of each set of keys."""
    seen, out = set(), []
    for line in data.split(b"\n"):
        m = GLOG.match(line)
        if not m:
            continue
        js = line[m.end():]
        keys = tuple(sorted(set(re.findall(rb'"([a-z_]+)":', js[:400]))))
        if keys in seen or len(js) > MAX_SEED:
            continue
        seen.add(keys)
        out.append(js)
        if len(out) >= count:
            break
    return out


def strings(data, count, rng):
    """Short texts of the log: payload lines, paths, names."""
    lines = [l for l in data.split(b"\n") if 0 < len(l) < 4096]
    return [rng.choice(lines) for _ in range(min(count, len(lines)))]


def sources(corpus):
    own = [os.path.join(ROOT, "examples", "example.log")]
    rec = os.path.join(ROOT, "tests", "data", "recorded")
    own += sorted(os.path.join(rec, f) for f in os.listdir(rec) if f.endswith(".log.gz"))
    vllm = os.path.join(ROOT, "tests", "data", "vllm", "vllm_sample.log")
    if os.path.exists(vllm):
        own.append(vllm)
    ranks = [os.path.join(rec, "two_ranks_aborted")]
    real = []
    if corpus and os.path.isdir(os.path.join(corpus, "tlparse", "inputs")):
        for base in [os.path.join(corpus, "tlparse", "inputs"),
                     os.path.join(corpus, "tlparse_upstream", "tests", "inputs")]:
            if not os.path.isdir(base):
                continue
            for f in sorted(os.listdir(base)):
                p = os.path.join(base, f)
                if os.path.isdir(p):
                    ranks.append(p)
                elif f.endswith((".log", ".txt")):
                    real.append(p)
    return own, real, ranks


def rank_job(folder, rng):
    logs = sorted(f for f in os.listdir(folder) if f.startswith("dedicated_log_torch_trace_rank_"))
    out = b""
    for f in logs[:3]:
        m = re.match(r"dedicated_log_torch_trace_rank_(\d+)", f)
        piece = pieces(read_log(os.path.join(folder, f)), 1, rng, MAX_SEED // 3)
        out += b"--rank %s--\n" % m.group(1).encode() + (piece[0] if piece else b"")
    return out


def seeds_for(logs, ranks, per_log, rng):
    s = {h: [] for h in HARNESSES}
    for path in logs:
        data = read_log(path)
        if not data:
            continue
        for p in pieces(data, per_log, rng):
            s["lines"].append(bytes([rng.randrange(256)]) + p)
            s["pipeline"].append(bytes([rng.randrange(16)]) + p)
            s["multirank"].append(p[: MAX_SEED // 2] + b"--rank 1--\n" + p[MAX_SEED // 2:])
            s["redact"].append(bytes([len(p) % 256]) + p)  # no draw: other seeds stay
        for p in pieces(data, 2, rng, 8192):
            for kind in (0, 1, 2):
                s["compressed"].append(bytes([kind, rng.randrange(256)]) + p)
            s["compressed"].append(bytes([0, 0]) + gzip.compress(p))
        s["envelope"] += envelopes(data, per_log * 4)
        s["escape"] += strings(data, per_log * 2, rng)
    for folder in ranks:
        if os.path.isdir(folder):
            s["multirank"].append(rank_job(folder, rng))
    text = os.path.join(ROOT, "tests", "data", "torch_logs")  # TORCH_LOGS fixtures, no draw
    for f in sorted(os.listdir(text)) if os.path.isdir(text) else []:
        s["torch_logs"].append(open(os.path.join(text, f), "rb").read())
    s["escape"] += [b"javascript:alert(1)", b" \tJaVa\nScRiPt:x", b"https://example.com/a?b=<c>",
                    b"</script><script>alert(1)</script>", b"..", b"../../etc/passwd",
                    b"\xff\xfe\xc0\xaf", b"a" * 200]
    return s


def write_seeds(s, out):
    for h, items in s.items():
        d = os.path.join(out, h)
        os.makedirs(d, exist_ok=True)
        for item in items:
            item = item[:MAX_SEED]
            name = hashlib.sha1(item).hexdigest()[:16]
            with open(os.path.join(d, name), "wb") as f:
                f.write(item)


def keys_of_events_def():
    text = open(os.path.join(ROOT, "src", "trace", "events.def")).read()
    keys = re.findall(r'^TLSCOPE_KEY\(\w+,\s*"([^"]+)"', text, re.M)
    fields = re.findall(r"(?:REQ|OPT)\((\w+),", text)
    return sorted(set(keys)), sorted(set(fields))


def write_dict(path):
    keys, fields = keys_of_events_def()
    tokens = ['"%s"' % k for k in keys] + ['"%s"' % f for f in fields]
    tokens += ["V1130 18:14:47.123456 2871 torch/_dynamo/convert_frame.py:1123] ", "V", "I", "W",
               "E", "] ", " 0:00:00.000000 ", "\\x09", "{", "}", "[", "]", ":", ",", "null", "true",
               "false", "\"has_payload\": \"", "\"frame_id\": 0", "\"frame_compile_id\": 0",
               "\"attempt\": 1", "\"compiled_autograd_id\": 0", "\"rank\": 0", "--rank 1--\\x0a",
               "<script", "</script>", "javascript:", "&amp;", "\\xc0\\xaf", "\\xef\\xbf\\xbd",
               "\\x1f\\x8b", "(\\xb5/\\xfd", "0/0", "[0/0]", "-_0_0_0", "def ", "return ",
               " = ", "  File \"", "\", line ", "/home/", "-I/", "~/", "file://", "site-packages",
               "\\\\n", "# File: ", ", code: "]
    with open(path, "w") as f:
        for i, t in enumerate(tokens):
            esc = t.replace('"', '\\"') if not t.startswith("\\x") else t
            f.write('t%d="%s"\n' % (i, esc))
    return len(tokens)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out", nargs="?")
    ap.add_argument("--corpus", default=None)
    ap.add_argument("--own", action="store_true", help="rewrite fuzz/seeds/ from our own logs")
    a = ap.parse_args()
    rng = random.Random(14)
    if a.own:
        own, _, ranks = sources(None)
        s = seeds_for(own[:4], ranks, 2, rng)
        s = {h: items[:6] for h, items in s.items()}
        for h in HARNESSES:
            d = os.path.join(HERE, "seeds", h)
            if os.path.isdir(d):
                for f in os.listdir(d):
                    os.remove(os.path.join(d, f))
        write_seeds({h: [i[:8192] for i in items] for h, items in s.items()}, os.path.join(HERE, "seeds"))
        return
    if not a.out:
        ap.error("give OUT, or --own")
    corpus = a.corpus or os.environ.get("TLSCOPE_CORPUS_DIR") or os.path.join(ROOT, "..", "shared", "corpus")
    own, real, ranks = sources(corpus)
    s = seeds_for(own + real, ranks, 6, rng)
    write_seeds(s, os.path.join(a.out, "seeds"))
    n = write_dict(os.path.join(a.out, "dict"))
    total = sum(len(v) for v in s.values())
    print("fuzz seeds: %d in %s/seeds from %d logs of ours and %d of the corpus%s; dictionary of %d tokens"
          % (total, a.out, len(own), len(real), "" if real else " (no corpus found)", n))


if __name__ == "__main__":
    sys.exit(main())
