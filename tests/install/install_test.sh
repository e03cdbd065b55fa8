#!/usr/bin/env bash
# `cmake --install` of a build folder into a temporary prefix: the binary
# runs, the man page renders (and `man` finds it) with every subcommand and
# every long flag of `tlscope check --help`, and the bash and zsh completions
# offer what the installed binary's --help lists.
#
#   bash tests/install/install_test.sh BUILD
#
# The expectations come from the installed binary's help, not from lists kept
# here. The zsh part is left out, saying so, where zsh is not installed.
set -euo pipefail
# (A `... | grep -q` fails here now and then: grep leaves at its first match
# and the writer dies of SIGPIPE. The greps below read all their input.)
build=$(cd "$1" && pwd)
log=$2  # a trace log to bundle
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix
bin=$prefix/bin/tlscope
man_page=$prefix/share/man/man1/tlscope.1
bash_completion=$prefix/share/bash-completion/completions/tlscope
zsh_completion=$prefix/share/zsh/site-functions/_tlscope

fail() { echo "FAIL: $*" >&2; exit 1; }
pass() { echo "ok: $*"; }

# --- What the installed binary says of itself -------------------------------

# The subcommands, as `tlscope --help` names them after "Also:".
subcommands() {
  "$bin" --help | sed -n '/^Also:/,/^Usage:/p' | grep -oE 'tlscope [a-z][a-z0-9_-]*' |
    cut -d' ' -f2 | sort -u
}

# The long flags in the Options: rows of `tlscope ARGS --help`.
long_flags() {
  "$bin" "$@" --help | sed -n '/^Options:/,$p' | grep -E '^  -' | awk '{print $1}' |
    tr ',' '\n' | grep -E '^--' | sort -u
}

# --- Checks -----------------------------------------------------------------

check_binary() {
  [ -x "$bin" ] || fail "no $bin"
  local want got
  want=$("$build/tlscope" --version)
  got=$("$bin" --version) || fail "$bin --version exits $?"
  [ "$got" = "$want" ] || fail "installed --version says '$got', the build's '$want'"
  [ "$(subcommands | wc -l)" -ge 2 ] || fail "tlscope --help names no subcommands after Also:"
  pass "bin/tlscope runs: $got"
}

# Its modules (src/base/module.h) in lib/tlscope, where it looks for them:
# a bundle is written through tlscope-archive.so, and --serve finds
# tlscope-http.so before it makes the report.
check_modules() {
  local m
  for m in tlscope-http.so tlscope-archive.so; do
    [ -f "$prefix/lib/tlscope/$m" ] || fail "no $prefix/lib/tlscope/$m"
  done
  "$bin" bundle "$log" -o "$tmp/b.tar.gz" >/dev/null 2>"$tmp/bundle.err" ||
    fail "the installed tlscope bundle exits $?: $(cat "$tmp/bundle.err")"
  tar -tzf "$tmp/b.tar.gz" | grep -xe 'tlscope-bundle/ISSUE.md' >/dev/null || fail "the bundle has no ISSUE.md"
  pass "lib/tlscope holds the modules, and the installed bundle loads tlscope-archive.so"
}

# The man page as plain text; where groff is missing, its roff source with
# the escapes and macros the checks would trip on taken out.
man_text() {
  if command -v groff >/dev/null; then
    groff -man -Tascii -P-cbou -rLL=250n -rHY=0 "$man_page"
  else
    echo "groff is not installed: checking the man page's roff source" >&2
    sed -e 's/\\-/-/g' -e 's/\\f[BIR]//g' -e 's/^\.SS /   /' -e 's/^\.B //' "$man_page"
  fi
}

check_man_page() {
  [ -f "$man_page" ] || fail "no $man_page"
  grep -q '^\.TH TLSCOPE 1 ' "$man_page" || fail "the man page has no .TH line"
  if command -v groff >/dev/null; then
    local warnings
    warnings=$(groff -man -Tascii -ww -z "$man_page" 2>&1)
    [ -z "$warnings" ] || fail "groff warns on the man page: $warnings"
  fi
  local text word
  text=$(man_text)
  for word in $(subcommands); do
    grep -qE "^ +$word\$" <<<"$text" || fail "the man page has no section on the subcommand $word"
    grep -qE "tlscope $word( \[|\$)" <<<"$text" ||
      fail "the man page's synopsis lacks tlscope $word"
  done
  for word in $(long_flags check) $(long_flags); do
    grep -qF -- "$word" <<<"$text" || fail "the man page does not list $word"
  done
  grep -qF "$("$bin" --version)" <<<"$text" || fail "the man page does not give the version"
  pass "the man page lists every subcommand and the flags of tlscope and check"
}

# `man tlscope` finds the page when MANPATH names the prefix.
check_man_finds_it() {
  if ! command -v man >/dev/null; then
    echo "man is not installed: not checking that \`man tlscope\` finds the page"
    return
  fi
  local found
  found=$(MANPATH=$prefix/share/man man -w tlscope) || fail "man -w tlscope finds nothing"
  [ "$found" = "$man_page" ] || fail "man -w tlscope gives $found, not $man_page"
  pass "MANPATH=PREFIX/share/man man tlscope finds it"
}

# What the bash completion offers for the words given (the last is the one
# being completed), one per line, sorted; run in an empty folder beside a.log.
bash_complete() {
  (cd "$tmp/cwd" && bash -c 'source "$1"; shift
    COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 )); _tlscope
    printf "%s\n" "${COMPREPLY[@]}"' _ "$bash_completion" "$@") | sed '/^$/d' | sort -u
}

expect_same() {  # what, want, got
  [ "$2" = "$3" ] || fail "$1: expected [$(echo $2)], got [$(echo $3)]"
}

check_bash_completion() {
  [ -f "$bash_completion" ] || fail "no $bash_completion"
  mkdir -p "$tmp/cwd" && touch "$tmp/cwd/a.log"
  expect_same "tlscope <TAB>" "$( (subcommands; echo a.log) | sort -u)" \
              "$(bash_complete tlscope '')"
  expect_same "tlscope check --m<TAB>" "$(long_flags check | grep '^--m')" \
              "$(bash_complete tlscope check --m)"
  long_flags check | grep -e '^--max-recompiles$' >/dev/null ||
    fail "tlscope check --help has no --max-recompiles"
  local sub
  for sub in '' $(subcommands); do
    expect_same "tlscope $sub --<TAB>" "$(long_flags $sub)" "$(bash_complete tlscope $sub --)"
  done
  expect_same "tlscope check --baseline <TAB>" "a.log" \
              "$(bash_complete tlscope check --baseline '')"
  expect_same "tlscope summary <TAB>" "a.log" "$(bash_complete tlscope summary '')"
  check_redact_values
  pass "the bash completion offers every subcommand, each one's flags, paths and --redact's values"
}

# --redact's values: those its help line lists, after a comma too.
check_redact_values() {
  local help offered value
  help=$("$bin" bundle --help | grep -E '^  --redact')
  offered=$(bash_complete tlscope bundle --redact '')
  for value in code paths strings all none; do
    grep -qx "$value" <<<"$offered" || fail "--redact <TAB> does not offer $value: [$offered]"
  done
  for value in $offered; do
    grep -qw "$value" <<<"$help" ||
      fail "--redact <TAB> offers $value, which its help does not list"
  done
  expect_same "tlscope bundle --redact code,p<TAB>" "code,paths" \
              "$(bash_complete tlscope bundle --redact code,p)"
}

# What the zsh completion hands _arguments for `tlscope ARGS <TAB>`, and the
# subcommands it describes: the file is sourced with _arguments replaced by a
# function that prints its arguments and the caller's subcommands array.
zsh_specs() {
  zsh -f -c '_arguments() { print -rl -- "$@" "${subcommands[@]}" }
    words=(tlscope "$@" x); CURRENT=$(( $# + 2 ))
    source "$0"' "$zsh_completion" "$@"
}

check_zsh_completion() {
  [ -f "$zsh_completion" ] || fail "no $zsh_completion"
  head -1 "$zsh_completion" | grep -xe '#compdef tlscope' >/dev/null ||
    fail "_tlscope does not start with #compdef tlscope"
  if ! command -v zsh >/dev/null; then
    echo "zsh is not installed: the zsh completion was not checked beyond its #compdef line"
    return
  fi
  zsh -n "$zsh_completion" || fail "zsh -n finds errors in $zsh_completion"
  local specs flag sub
  specs=$(zsh_specs check)
  for flag in $(long_flags check); do
    grep -qE -- "^(\\(.*\\))?$flag\\[" <<<"$specs" ||
      fail "zsh: tlscope check does not complete $flag"
  done
  grep -qx ':log:_files' <<<"$specs" || fail "zsh: tlscope check's log is not completed as a file"
  specs=$(zsh_specs)
  for sub in $(subcommands); do
    grep -q "^$sub:" <<<"$specs" || fail "zsh: the subcommand $sub is not offered"
  done
  pass "the zsh completion parses and offers every subcommand and the flags of check"
}

cmake --install "$build" --prefix "$prefix" >"$tmp/install.log" ||
  { cat "$tmp/install.log"; fail "cmake --install"; }
check_binary
check_modules
check_man_page
check_man_finds_it
check_bash_completion
check_zsh_completion
echo "install test: all passed"
