#!/usr/bin/env bash
# The doctor's graph-break classes over any set of logs, and the share it
# leaves unclassified (issue 21: at most 5% on real logs).
#
#   bench/graph_break_classes.sh [--tlscope BIN] LOG|DIR...
#
# Every file under a DIR is tried; files the doctor does not read as a
# trace are counted apart. Prints one line per class (breaks, logs) and the
# unclassified reasons, with the log they came from.
set -uo pipefail
BIN=build/tlscope
if [ "${1:-}" = "--tlscope" ]; then BIN=$2; shift 2; fi
if [ $# -eq 0 ]; then
  echo "usage: $0 [--tlscope BIN] LOG|DIR..." >&2
  exit 2
fi
[ -x "$BIN" ] || { echo "$BIN: not built (make build)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
while IFS= read -r -d '' f; do
  n=$((n + 1))
  if "$BIN" summary "$f" --json > "$tmp/$n.json" 2> /dev/null; then
    printf '%s\n' "$f" > "$tmp/$n.name"
  else
    rm -f "$tmp/$n.json"
    printf '%s\n' "$f" >> "$tmp/not_read"
  fi
done < <(find "$@" -type f ! -name LICENSE ! -name '*.md' ! -name '*.txt.license' -print0 | sort -z)
python3 - "$tmp" <<'PY'
import glob, json, os, sys
tmp = sys.argv[1]
classes, logs_of, unknown = {}, {}, []
total = 0
for path in sorted(glob.glob(os.path.join(tmp, "*.json"))):
    name = open(path[:-5] + ".name").read().strip()
    for g in json.load(open(path)).get("graph_breaks", []):
        c, k = g["category"], g["count"]
        classes[c] = classes.get(c, 0) + k
        logs_of.setdefault(c, set()).add(name)
        total += k
        if c == "unclassified":
            unknown.append((k, g["reason"][:100], os.path.basename(name)))
read = len(glob.glob(os.path.join(tmp, "*.json")))
skipped = open(os.path.join(tmp, "not_read")).read().split("\n")[:-1] if os.path.exists(os.path.join(tmp, "not_read")) else []
print("%d logs read, %d not read as a trace; %d graph breaks" % (read, len(skipped), total))
for c in sorted(classes, key=lambda c: -classes[c]):
    print("  %-22s %5d breaks in %d logs" % (c, classes[c], len(logs_of[c])))
share = 100.0 * classes.get("unclassified", 0) / total if total else 0.0
print("unclassified: %d of %d (%.1f%%)" % (classes.get("unclassified", 0), total, share))
for k, r, f in unknown:
    print("  %dx %s  (%s)" % (k, r, f))
PY
