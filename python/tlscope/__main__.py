"""``python -m tlscope ARGS`` and the ``tlscope`` command of the package: the
binary itself, with the same arguments, output and exit status."""

from __future__ import annotations

import os
import sys

from tlscope._api import TlscopeError, binary


def main() -> None:
    try:
        exe = str(binary())
    except TlscopeError as e:
        sys.exit(f"tlscope: {e}")
    # Replaces this process: signals, standard streams and the exit status
    # are the binary's own.
    os.execv(exe, ["tlscope", *sys.argv[1:]])


if __name__ == "__main__":
    main()
