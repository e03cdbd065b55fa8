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

This file is the command line and the writing; the package beside it,
scripts/clidocs/, reads the help (helptext) and makes each file (man, bash,
zsh).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

# CMake runs this by its full path from the build folder, so the package is
# found from this file's own folder, not from the current directory.
sys.path.insert(0, str(Path(__file__).resolve().parent))

from clidocs.bash import bash_completion  # noqa: E402
from clidocs.helptext import read_cli, run  # noqa: E402
from clidocs.man import man_page  # noqa: E402
from clidocs.zsh import zsh_completion  # noqa: E402

MAN_PAGE = Path("share/man/man1/tlscope.1")
BASH_COMPLETION = Path("share/bash-completion/completions/tlscope")
ZSH_COMPLETION = Path("share/zsh/site-functions/_tlscope")


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

    write(opts.out / MAN_PAGE, man_page(version, main_cmd, subs, usage_status, help_texts))
    write(opts.out / BASH_COMPLETION, bash_completion(version, main_cmd, subs))
    write(opts.out / ZSH_COMPLETION, zsh_completion(version, main_cmd, subs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
