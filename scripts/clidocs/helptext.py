"""Reading tlscope's help text, as CLI11 lays it out, into Arg and Command.

`tlscope --help` and `tlscope SUB --help` are the only source of the man page
and the completions, so everything they need is taken from here: the usage
line, the description, the Positionals: and Options: rows, the subcommands
that the report command's "Also:" lines name (a new subcommand needs no change
here), and what each option value or positional argument can be (a path, fixed
words, or anything), which the help says in its placeholders and descriptions.
When the layout changes so that a line this relies on is gone, it stops the
build, saying what is missing, rather than write empty documentation.
"""

from __future__ import annotations

import re
import subprocess
import sys
from dataclasses import dataclass, field

# Option values that are paths, by the placeholder the help gives them
# (-o OUT, --baseline LOG); other placeholders (N, HTML, PORT) get nothing.
PATH_METAVARS = {"OUT", "LOG", "FILE", "DIR", "FOLDER", "PATH"}
# A positional argument is a path when its description speaks of one.
PATH_WORDS = re.compile(r"\b(log|logs|folder|file|directory)\b", re.IGNORECASE)


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
             "the help's layout changed, so scripts/clidocs/helptext.py must follow it")


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
