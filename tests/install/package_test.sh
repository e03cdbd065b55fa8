#!/usr/bin/env bash
# The Debian package of a build folder (`cpack -G DEB`, what `make package`
# runs), built into a temporary folder: its file name and control fields, the
# files it holds, and its tlscope run from the unpacked package.
#
#   bash tests/install/package_test.sh BUILD VERSION LOG
#
# VERSION is the CMake project's; LOG a trace with a recompile.
set -euo pipefail
# (A `... | grep -q` fails here now and then: grep leaves at its first match
# and the writer dies of SIGPIPE. The greps below read all their input.)
build=$(cd "$1" && pwd)
version=$2
log=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

fail() { echo "FAIL: $*" >&2; exit 1; }
pass() { echo "ok: $*"; }

# Builds the .deb into $tmp/out; sets deb to its path.
build_package() {
  (cd "$build" && cpack -G DEB -B "$tmp/out") >"$tmp/cpack.log" 2>&1 ||
    { cat "$tmp/cpack.log"; fail "cpack -G DEB"; }
  local debs=("$tmp"/out/*.deb)
  [ ${#debs[@]} -eq 1 ] && [ -f "${debs[0]}" ] || fail "cpack wrote no single .deb: ${debs[*]}"
  deb=${debs[0]}
  pass "cpack -G DEB wrote $(basename "$deb")"
}

check_fields() {
  local arch field depends
  arch=$(dpkg --print-architecture)
  [ "$(basename "$deb")" = "tlscope_${version}_${arch}.deb" ] ||
    fail "the package is $(basename "$deb"), not tlscope_${version}_${arch}.deb"
  field() { dpkg-deb -f "$deb" "$1"; }
  [ "$(field Package)" = tlscope ] || fail "Package: $(field Package)"
  [ "$(field Version)" = "$version" ] || fail "Version: $(field Version), not $version"
  [ "$(field Architecture)" = "$arch" ] || fail "Architecture: $(field Architecture), not $arch"
  depends=$(field Depends)
  [[ $depends == *libc6* ]] || fail "Depends does not name libc6: '$depends'"
  # The modules' libraries (dpkg-shlibdeps reads lib/tlscope too).
  [[ $depends == *libarchive13* && $depends == *libcpp-httplib* ]] ||
    fail "Depends does not name libarchive13 and libcpp-httplib: '$depends'"
  [ -n "$(field Maintainer)" ] || fail "no Maintainer"
  [ -n "$(field Description)" ] || fail "no Description"
  pass "Package tlscope, Version $version, Architecture $arch, Depends: $depends"
}

# The binary, the man page (gzip-compressed) and the completions, in the
# places Debian's man, bash-completion and zsh look.
check_files() {
  dpkg-deb -x "$deb" "$tmp/root"
  local file
  for file in usr/bin/tlscope usr/lib/tlscope/tlscope-http.so usr/lib/tlscope/tlscope-archive.so \
              usr/share/man/man1/tlscope.1.gz \
              usr/share/bash-completion/completions/tlscope \
              usr/share/zsh/vendor-completions/_tlscope; do
    [ -f "$tmp/root/$file" ] || fail "the package has no /$file: $(dpkg-deb -c "$deb")"
  done
  gzip -dc "$tmp/root/usr/share/man/man1/tlscope.1.gz" | grep -e '^\.TH TLSCOPE 1 ' >/dev/null ||
    fail "the packaged man page has no .TH line"
  pass "the package holds the binary, its modules, the man page and both completions"
}

# The packaged binary on a log whose one frame recompiled once.
check_packaged_binary() {
  local bin=$tmp/root/usr/bin/tlscope
  [ "$("$bin" --version)" = "tlscope $version" ] || fail "packaged --version: $("$bin" --version)"
  local recompiles
  "$bin" summary --json "$log" >"$tmp/summary.json" || fail "packaged tlscope summary --json exits $?"
  recompiles=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["totals"]["recompiles"])' \
               "$tmp/summary.json") || fail "summary --json is not JSON with totals.recompiles"
  [ "$recompiles" -ge 1 ] || fail "the summary reports $recompiles recompiles, expected at least 1"
  pass "the packaged tlscope summarises $(basename "$log"): $recompiles recompile(s)"
  # Its archive module, from /usr/lib/tlscope beside /usr/bin.
  "$bin" bundle "$log" -o "$tmp/b.tar.gz" >/dev/null 2>"$tmp/bundle.err" ||
    fail "packaged tlscope bundle exits $?: $(cat "$tmp/bundle.err")"
  tar -tzf "$tmp/b.tar.gz" | grep -xe 'tlscope-bundle/ISSUE.md' >/dev/null || fail "the packaged bundle has no ISSUE.md"
  pass "the packaged tlscope writes a bundle through /usr/lib/tlscope/tlscope-archive.so"
}

if ! command -v dpkg-deb >/dev/null || ! command -v dpkg-shlibdeps >/dev/null; then
  echo "dpkg-deb or dpkg-shlibdeps is missing (dpkg-dev): no Debian package to test"
  exit 77
fi
build_package
check_fields
check_files
check_packaged_binary
echo "package test: all passed"
