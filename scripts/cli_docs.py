#!/usr/bin/env python3
"""tlscope's man page and its bash and zsh completions, from the binary's help.

    python3 scripts/cli_docs.py --tlscope build/tlscope --out build

writes, under --out:

    share/man/man1/tlscope.1
    share/bash-completion/completions/tlscope
    share/zsh/site-functions/_tlscope

Everything comes from running the binary: `tlscope --help` (its "Also:" lines
name the subcommands, so a new one needs no change here), `tlscope SUB --help`
for each of them, `tlscope --version`, and the exit status of an unknown
option. The build runs this after every link of tlscope (cmake/install.cmake), so
the three files cannot drift from --help. Standard library only.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

MAN_PAGE = Path("share/man/man1/tlscope.1")
BASH_COMPLETION = Path("share/bash-completion/completions/tlscope")
ZSH_COMPLETION = Path("share/zsh/site-functions/_tlscope")

# Option values that are paths, by the placeholder the help gives them
# (-o OUT, --baseline LOG); other placeholders (N, HTML, PORT) get nothing.
PATH_METAVARS = {"OUT", "LOG", "FILE", "DIR", "FOLDER", "PATH"}
# A positional argument is a path when its description speaks of one.
PATH_WORDS = re.compile(r"\b(log|logs|folder|file|directory)\b", re.IGNORECASE)


# --- Reading the help text (CLI11's layout) ----------------------------------

@dataclass
class Arg:
    """An option (names start with -) or a positional argument."""
    names: list[str]
    metavar: str = ""       # the placeholder of an option's value; "" for a flag
    required: bool = False
    help: str = ""

    @property
    def is_option(self) -> bool:
        return self.names[0].startswith("-")

    @property
    def longest(self) -> str:
        return max(self.names, key=len)


@dataclass
class Command:
    name: str                # "" for the report command, else the subcommand
    description: list[str]   # the lines above "Usage:"
    usage: str               # what follows "Usage: "
    text: str                # the whole help, as printed
    positionals: list[Arg] = field(default_factory=list)
    options: list[Arg] = field(default_factory=list)

    @property
    def words(self) -> str:
        return f"tlscope {self.name}".strip()

    @property
    def summary(self) -> str:
        return self.description[0] if self.description else ""

    @property
    def usage_args(self) -> str:
        """The usage after the command's words: `[OPTIONS] log`."""
        return self.usage.removeprefix(self.words).strip()


def run(binary: str, *args: str, check: bool = True) -> subprocess.CompletedProcess:
    return subprocess.run([binary, *args], capture_output=True, text=True, check=check)


def parse_entry(left: str, text: str) -> Arg:
    """One row of Positionals: or Options:, e.g. `-o OUT REQUIRED`, `log REQUIRED`."""
    tokens = left.split()
    arg = Arg(names=tokens[0].split(","), help=text.strip())
    for token in tokens[1:]:
        if token == "REQUIRED":
            arg.required = True
        elif arg.is_option and not arg.metavar and token != "(optional)":
            arg.metavar = token
    return arg


def parse_section(lines: list[str]) -> list[Arg]:
    """Rows indented by two spaces; the name and its description are two or
    more spaces apart, or the description is on the next, deeper line when
    the name is too wide for its column."""
    args: list[Arg] = []
    for line in lines:
        row = re.match(r"^ {2}(\S.*?)(?:\s{2,}(.*))?$", line.rstrip())
        if row:
            args.append(parse_entry(row.group(1), row.group(2) or ""))
        elif line.strip() and args:
            args[-1].help = f"{args[-1].help} {line.strip()}".strip()
    return args


def sections(lines: list[str]) -> dict[str, list[str]]:
    """The rows under each unindented `Title:` line."""
    found: dict[str, list[str]] = {}
    current = None
    for line in lines:
        if re.match(r"^[A-Z][A-Za-z ]*:$", line):
            current = found.setdefault(line[:-1], [])
        elif current is not None:
            current.append(line)
    return found


def first_line(lines: list[str], prefix: str, what: str) -> int:
    """The index of the first line starting with prefix; stops the build,
    saying what is missing, when the help has none (its layout changed)."""
    for i, line in enumerate(lines):
        if line.startswith(prefix):
            return i
    sys.exit(f"cli_docs.py: {what} has no line starting with {prefix!r}; "
             "the help's layout changed, so scripts/cli_docs.py must follow it")


def parse_help(name: str, text: str) -> Command:
    lines = text.splitlines()
    at = first_line(lines, "Usage: ", f"`tlscope {name} --help`")
    parts = sections(lines[at + 1:])
    return Command(name=name, description=lines[:at], usage=lines[at][len("Usage: "):], text=text,
                   positionals=parse_section(parts.get("Positionals", [])),
                   options=parse_section(parts.get("Options", [])))


def also_lines(main: Command) -> list[str]:
    """The subcommands' short forms that `tlscope --help` lists after "Also:"."""
    start = first_line(main.description, "Also:", "`tlscope --help`")
    joined = " ".join(main.description[start:])[len("Also:"):]
    return [form.strip() for form in joined.split(" | ")]


def subcommand_names(main: Command) -> list[str]:
    names: list[str] = []
    for form in also_lines(main):
        match = re.match(r"tlscope ([a-z][a-z0-9_-]*)", form)
        if match and match.group(1) not in names:
            names.append(match.group(1))
    return names


def read_cli(binary: str) -> tuple[Command, list[Command]]:
    main = parse_help("", run(binary, "--help").stdout)
    subs = [parse_help(name, run(binary, name, "--help").stdout)
            for name in subcommand_names(main)]
    return main, subs


# --- What a value or an argument can be ---------------------------------------

def listed_values(text: str) -> list[str]:
    """The fixed values a description lists after a colon, as in `What to
    redact: code, paths, strings, all (the default) or none`; [] when it
    lists none."""
    for match in re.finditer(r":\s+([^;.]*)", text):
        plain = re.sub(r"\([^)]*\)", " ", match.group(1))
        items = [item.strip() for item in re.split(r",|\bor\b", plain) if item.strip()]
        if len(items) >= 2 and all(re.fullmatch(r"[a-z][a-z0-9_]*", item) for item in items):
            return items
    return []


def value_kind(arg: Arg) -> tuple[str, list[str]]:
    """How to complete an option's value or a positional argument:
    ("csv", words) for a comma-separated list of fixed words, ("word", words)
    for one of them, ("file", []) for a path, ("none", []) otherwise."""
    words = listed_values(arg.help)
    if words:
        return ("csv" if "separated by commas" in arg.help else "word"), words
    if arg.is_option:
        return ("file" if arg.metavar in PATH_METAVARS else "none"), []
    return ("file" if PATH_WORDS.search(arg.help) else "none"), []


# --- Man page -----------------------------------------------------------------

def roff(text: str) -> str:
    """Help text as roff: backslashes and hyphens escaped (a `\\-` stays an
    ASCII minus, so flags copied from the page work), `code` in bold, and a
    leading dot or quote made literal so it is not read as a request."""
    text = text.replace("\\", "\\e").replace("-", "\\-")
    text = re.sub(r"`([^`]+)`", r"\\fB\1\\fR", text)
    return "\\&" + text if text[:1] in (".", "'") else text


def quoted(text: str) -> str:
    """A macro argument: double quotes inside it as \\(dq."""
    return '"' + roff(text).replace('"', "\\(dq") + '"'


def man_arg_entry(arg: Arg) -> list[str]:
    if arg.is_option:
        names = ", ".join(f"\\fB{roff(n)}\\fR" for n in arg.names)
        label = names + (f" \\fI{roff(arg.metavar)}\\fR" if arg.metavar else "")
    else:
        label = f"\\fI{roff(arg.names[0])}\\fR ({'required' if arg.required else 'optional'})"
    return [".TP", label, roff(arg.help)]


def man_synopsis(main: Command, subs: list[Command]) -> list[str]:
    out = [".SH SYNOPSIS"]
    for i, cmd in enumerate([main, *subs]):
        out += ([".br"] if i else []) + [f".B {cmd.words}", roff(cmd.usage_args)]
    return out


def man_description(main: Command, subs: list[Command]) -> list[str]:
    out = [".SH DESCRIPTION", roff(main.summary)]
    out += [entry for arg in main.positionals for entry in man_arg_entry(arg)]
    out += [".PP", "The subcommands, each described under", ".B SUBCOMMANDS", "below:", ".nf"]
    out += [roff(form) for form in also_lines(main)]
    return out + [".fi"]


def man_subcommand(cmd: Command) -> list[str]:
    out = [f".SS {cmd.name}"] + [roff(line) for line in cmd.description]
    out += [".PP", f"Usage: \\fB{cmd.words}\\fR {roff(cmd.usage_args)}"]
    for arg in cmd.positionals + cmd.options:
        out += man_arg_entry(arg)
    return out


def exit_one_reasons(commands: list[Command]) -> list[str]:
    """What the help says makes a command exit 1: each such description once,
    with the commands and flags it belongs to."""
    owners: dict[str, list[str]] = {}
    for cmd in commands:
        if any(re.search(r"\bexit 1\b", line, re.IGNORECASE) for line in cmd.description):
            owners.setdefault(cmd.summary, []).append(f"\\fB{cmd.words}\\fR")
        for arg in cmd.options:
            if re.search(r"\bexit 1\b", arg.help, re.IGNORECASE):
                owners.setdefault(arg.help, []).append(f"\\fB{cmd.words} {roff(arg.longest)}\\fR")
    return [f"{', '.join(who)}: {roff(text)}" for text, who in owners.items()]


def man_exit_status(commands: list[Command], usage_status: int) -> list[str]:
    # 0 and 1 are the convention every command keeps (tlparse's); the cases
    # of 1 come from the help, and the usage error's status from the binary.
    reasons = exit_one_reasons(commands)
    out = [".SH EXIT STATUS", ".TP", ".B 0", "The command did its work.", ".TP", ".B 1",
           "An error, said in one line on standard error" + ("; and:" if reasons else ".")]
    if reasons:
        bullets = [line for reason in reasons for line in (".IP \\(bu 2", reason)]
        out += [".RS", *bullets, ".RE"]
    if usage_status not in (0, 1):
        out += [".TP", f".B {usage_status}",
                "A usage error: an unknown option, a missing or malformed argument."]
    return out


def man_see_also(help_texts: list[str]) -> list[str]:
    docs = sorted(set(re.findall(r"docs/[\w.-]+\.md", "\n".join(help_texts))))
    text = "README.md" + "".join(f", {d}" for d in docs) + " in the tlscope sources."
    return [".SH SEE ALSO", roff(text)]


def man_page(version: str, main: Command, subs: list[Command], usage_status: int,
             help_texts: list[str]) -> str:
    name = re.sub(r"^tlscope:\s*", "", main.summary).rstrip(".")
    lines = ['.\\" Generated by scripts/cli_docs.py from `tlscope --help`; '
             'edit the help, not this.',
             f'.TH TLSCOPE 1 "" {quoted(version)} "User Commands"',
             ".SH NAME", f"tlscope \\- {roff(name)}"]
    lines += man_synopsis(main, subs) + man_description(main, subs)
    lines += [".SH OPTIONS"] + [e for arg in main.options for e in man_arg_entry(arg)]
    lines += [".SH SUBCOMMANDS"] + [line for cmd in subs for line in man_subcommand(cmd)]
    lines += man_exit_status([main, *subs], usage_status) + man_see_also(help_texts)
    return "\n".join(lines) + "\n"


# --- Bash completion ----------------------------------------------------------

def sh_quote(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"


def bash_kind(arg: Arg) -> str:
    kind, words = value_kind(arg)
    return f"@{kind}:{' '.join(words)}" if words else f"@{kind}"


def bash_spec_case(cmd: Command) -> list[str]:
    flags = " ".join(name for arg in cmd.options for name in arg.names)
    values = " ".join(f"[{name}]={sh_quote(bash_kind(arg))}"
                      for arg in cmd.options if arg.metavar for name in arg.names)
    args = " ".join(sh_quote(bash_kind(arg)) for arg in cmd.positionals)
    return [f"    {sh_quote(cmd.name)})",
            f"        flags={sh_quote(flags)}",
            f"        values=({values})",
            f"        args=({args})",
            "        ;;"]


BASH_FUNCTIONS = r'''
# Adds to COMPREPLY the completions of $cur as one kind of argument: @file
# (a path), @word:WORDS (one of WORDS), @csv:WORDS (several, separated by
# commas), @none (nothing).
_tlscope_kind() {
    case $1 in
    @file)
        compopt -o filenames 2>/dev/null
        mapfile -t -O "${#COMPREPLY[@]}" COMPREPLY < <(compgen -f -- "$cur") ;;
    @word:*)
        mapfile -t -O "${#COMPREPLY[@]}" COMPREPLY < <(compgen -W "${1#@word:}" -- "$cur") ;;
    @csv:*)
        # The words before the last comma stay as they are.
        local before=${cur%"${cur##*,}"}
        mapfile -t -O "${#COMPREPLY[@]}" COMPREPLY \
            < <(compgen -P "$before" -W "${1#@csv:}" -- "${cur##*,}") ;;
    esac
}

# Sets pos: how many positional arguments come before the word being
# completed, from word $1 on (flags and their values do not count).
_tlscope_position() {
    local i
    pos=0
    for (( i = $1; i < COMP_CWORD; i++ )); do
        if [[ ${COMP_WORDS[i]} == -* ]]; then
            [[ -n ${values[${COMP_WORDS[i]}]+set} ]] && (( i++ ))
        else
            (( pos++ ))
        fi
    done
}

_tlscope() {
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
    local sub='' first=1 flags pos
    local -a args
    local -A values
    if (( COMP_CWORD > 1 )) && [[ " $_tlscope_subcommands " == *" ${COMP_WORDS[1]} "* ]]; then
        sub=${COMP_WORDS[1]} first=2
    fi
    _tlscope_spec "$sub"
    COMPREPLY=()
    if (( COMP_CWORD > first )) && [[ $prev == -* && -n ${values[$prev]+set} ]]; then
        _tlscope_kind "${values[$prev]}"
    elif [[ $cur == -* ]]; then
        mapfile -t COMPREPLY < <(compgen -W "$flags" -- "$cur")
    else
        # The first word is a subcommand or the report command's log.
        if (( COMP_CWORD == 1 )); then
            mapfile -t COMPREPLY < <(compgen -W "$_tlscope_subcommands" -- "$cur")
        fi
        _tlscope_position "$first"
        _tlscope_kind "${args[pos]:-@none}"
    fi
}

complete -F _tlscope tlscope
'''


def bash_completion(version: str, main: Command, subs: list[Command]) -> str:
    names = " ".join(cmd.name for cmd in subs)
    lines = [f"# bash completion for {version}.",
             "# Generated by scripts/cli_docs.py from `tlscope --help`; edit the help, not this.",
             "",
             f"_tlscope_subcommands={sh_quote(names)}",
             "",
             "# Sets flags, values (the flags that take a value, each with what the value",
             "# is) and args (what each positional argument is) for subcommand $1 ('':",
             "# the report command).",
             "_tlscope_spec() {",
             "    case $1 in"]
    for cmd in [main, *subs]:
        lines += bash_spec_case(cmd)
    lines += ["    esac", "}"]
    return "\n".join(lines) + "\n" + BASH_FUNCTIONS


# --- Zsh completion -----------------------------------------------------------

def zsh_text(text: str) -> str:
    """A description inside _arguments' [...]: brackets escaped."""
    return re.sub(r"([\[\]\\])", r"\\\1", text)


def zsh_action(arg: Arg) -> str:
    kind, words = value_kind(arg)
    if kind == "file":
        return "_files"
    if kind == "csv":
        return f"_values -s , {arg.metavar or arg.names[0]} " + " ".join(words)
    if kind == "word":
        return "(" + " ".join(words) + ")"
    return " "


def zsh_option(arg: Arg) -> str:
    value = f":{arg.metavar}:{zsh_action(arg)}" if arg.metavar else ""
    body = f"[{zsh_text(arg.help)}]{value}"
    if len(arg.names) == 1:
        return sh_quote(arg.names[0] + body)
    # -v and --verbose: one spec each (brace expansion), each excluding both.
    exclusive = sh_quote("(" + " ".join(arg.names) + ")")
    return exclusive + "{" + ",".join(arg.names) + "}" + sh_quote(body)


def zsh_positional(arg: Arg) -> str:
    colons = ":" if arg.required else "::"
    return sh_quote(f"{colons}{arg.names[0]}:{zsh_action(arg)}")


def zsh_subcommand_function(cmd: Command) -> list[str]:
    specs = [zsh_option(arg) for arg in cmd.options]
    specs += [zsh_positional(arg) for arg in cmd.positionals]
    return [f"_tlscope_{cmd.name}() {{", "    _arguments -s -S \\"]\
        + [f"        {spec} \\" for spec in specs[:-1]] + [f"        {specs[-1]}", "}", ""]


def first_sentence(text: str) -> str:
    """Up to the first full stop that ends a sentence (not the one of "e.g.")."""
    return re.split(r"\.\s+(?=[A-Z])", text)[0]


def zsh_main_function(main: Command, subs: list[Command]) -> list[str]:
    described = [sh_quote(f"{cmd.name}:{first_sentence(cmd.summary)}") for cmd in subs]
    specs = [zsh_option(arg) for arg in main.options]
    # The first word is a subcommand or the report command's log.
    specs.append(sh_quote("1: :{_describe -t commands 'tlscope subcommand' subcommands; _files}"))
    return (["_tlscope() {", "    local -a subcommands", "    subcommands=("]
            + [f"        {d}" for d in described]
            + ["    )",
               "    if (( CURRENT > 2 )) && (( ${+functions[_tlscope_${words[2]}]} )); then",
               "        local sub=${words[2]}",
               "        shift words",
               "        (( CURRENT-- ))",
               "        _tlscope_$sub",
               "        return",
               "    fi",
               "    _arguments -s -S \\"]
            + [f"        {spec} \\" for spec in specs[:-1]] + [f"        {specs[-1]}", "}", ""])


def zsh_completion(version: str, main: Command, subs: list[Command]) -> str:
    lines = ["#compdef tlscope",
             f"# zsh completion for {version}.",
             "# Generated by scripts/cli_docs.py from `tlscope --help`; edit the help, not this.",
             ""]
    for cmd in subs:
        lines += zsh_subcommand_function(cmd)
    lines += zsh_main_function(main, subs) + ['_tlscope "$@"']
    return "\n".join(lines) + "\n"


# --- Writing ------------------------------------------------------------------

def write(path: Path, text: str) -> None:
    """Written even when unchanged: the build reruns this when a file is older
    than the binary."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tlscope", required=True, help="the built tlscope binary")
    parser.add_argument("--out", required=True, type=Path, help="folder to write share/... under")
    opts = parser.parse_args()

    version = run(opts.tlscope, "--version").stdout.strip()
    main_cmd, subs = read_cli(opts.tlscope)
    help_texts = [cmd.text for cmd in [main_cmd, *subs]]
    usage_status = run(opts.tlscope, "--cli-docs-no-such-option", check=False).returncode

    write(opts.out / MAN_PAGE,
                     man_page(version, main_cmd, subs, usage_status, help_texts))
    write(opts.out / BASH_COMPLETION, bash_completion(version, main_cmd, subs))
    write(opts.out / ZSH_COMPLETION, zsh_completion(version, main_cmd, subs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
