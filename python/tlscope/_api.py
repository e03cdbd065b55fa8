"""The functions of the tlscope module: each runs the packaged binary and
reads what it prints (see the package docstring)."""

from __future__ import annotations

import json
import os
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Union

PathLike = Union[str, "os.PathLike[str]"]

# The binary's exit status for arguments it refuses (src/cli/checks.h).
_EXIT_USAGE = 2
_RANK_LOG_PREFIX = "dedicated_log_torch_trace_rank_"


class TlscopeError(Exception):
    """The binary failed; ``message`` is what it said, ``returncode`` its status."""

    def __init__(self, message: str, returncode: int = 1, command: Sequence[str] = ()) -> None:
        super().__init__(message)
        self.message = message
        self.returncode = returncode
        self.command = list(command)


class TraceError(TlscopeError):
    """The command failed on its input (exit status 1): it cannot be read, is
    empty, is neither a trace nor TORCH_LOGS text, or the report's folder
    already holds a report."""


class UsageError(TlscopeError):
    """The arguments were refused (the binary's exit status 2)."""


def binary() -> Path:
    """The tlscope binary this package runs: ``$TLSCOPE_BINARY`` when set,
    else the one installed with the package."""
    override = os.environ.get("TLSCOPE_BINARY")
    if override:
        exe = Path(override)
        if not (exe.is_file() and os.access(exe, os.X_OK)):
            raise TlscopeError(f"TLSCOPE_BINARY={override} is not an executable file")
        return exe
    exe = Path(__file__).resolve().parent / "bin" / "tlscope"
    if not (exe.is_file() and os.access(exe, os.X_OK)):
        raise TlscopeError(
            f"the tlscope binary is missing at {exe}: reinstall the package (pip install .)"
        )
    return exe


def resolve_log(path: PathLike) -> str:
    """The log a path stands for: a file as it is; a folder of rank logs as it
    is (every rank is read); any other folder, its newest file (a TORCH_TRACE
    folder of one process)."""
    # Absolute, so that no path ("-x.log", "check", "-") reads as an option,
    # a subcommand or standard input.
    p = Path(os.path.abspath(os.fspath(path)))
    if not p.is_dir():
        return str(p)
    files = [f for f in p.iterdir() if f.is_file() and not f.name.startswith(".")]
    if any(f.name.startswith(_RANK_LOG_PREFIX) for f in files):
        return str(p)
    if not files:
        raise TraceError(f"{p}: the folder holds no log")
    return str(max(files, key=lambda f: (f.stat().st_mtime_ns, f.name)))


def _run(args: Sequence[str]) -> subprocess.CompletedProcess:
    command = [str(binary()), *args]
    # The binary writes UTF-8 whatever the locale; nothing is read from the
    # caller's standard input.
    return subprocess.run(
        command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        encoding="utf-8", errors="replace",
    )


def _message(done: subprocess.CompletedProcess) -> str:
    text = (done.stderr.strip() or done.stdout.strip() or f"exit status {done.returncode}")
    lines = [l.removeprefix("Error: ") for l in text.splitlines()]
    return "\n".join(l for l in lines if not l.startswith("See `tlscope"))


def _raise_for(done: subprocess.CompletedProcess, command: Sequence[str]) -> None:
    if done.returncode < 0:  # killed: not the input's fault
        raise TlscopeError(
            f"tlscope was killed by signal {-done.returncode}: {_message(done)}",
            done.returncode, command,
        )
    kind = UsageError if done.returncode == _EXIT_USAGE else TraceError
    raise kind(_message(done), done.returncode, command)


def _json_of(done: subprocess.CompletedProcess, command: Sequence[str]) -> Dict[str, Any]:
    try:
        value = json.loads(done.stdout)
    except ValueError:
        raise TlscopeError(
            f"tlscope printed no JSON: {_message(done)}", done.returncode, command
        ) from None
    if not isinstance(value, dict):
        raise TlscopeError("tlscope printed JSON that is not an object", done.returncode, command)
    return value


def _json_command(args: List[str]) -> Dict[str, Any]:
    done = _run(args)
    if done.returncode != 0:
        _raise_for(done, args)
    return _json_of(done, args)


def summary(path: PathLike, *, all_frames: bool = False) -> Dict[str, Any]:
    """summary.json of a log or a folder (docs/summary.md): totals, frames,
    recompile reasons, graph breaks, failures, compile time, advice.
    ``all_frames`` lists every frame, not only those worth a look."""
    args = ["summary", resolve_log(path), "--json"]
    if all_frames:
        args.append("--all")
    return _json_command(args)


@dataclass
class CheckResult:
    """What ``tlscope check`` decided. True when it passed."""

    passed: bool
    broken: List[str]  # one line per limit broken, as the command prints it
    totals: Dict[str, Any]  # recompiles, graph_breaks, failures, compile_time_s, ...
    ranks: int  # ranks of a folder (or of text that names them); 0 for one log
    path: str  # the log (or folder) that was checked
    _summary: Dict[str, Any] = field(default_factory=dict, init=False, repr=False, compare=False)

    def __bool__(self) -> bool:
        return self.passed

    @property
    def summary(self) -> Dict[str, Any]:
        """summary.json of the checked log (read when first asked for)."""
        if not self._summary:
            self._summary.update(summary(self.path))
        return self._summary


def check(
    path: PathLike,
    *,
    max_recompiles: Optional[int] = None,
    max_graph_breaks: Optional[int] = None,
    max_failures: Optional[int] = None,
    max_compile_seconds: Optional[float] = None,
    allow_empty: bool = False,
    baseline: Optional[PathLike] = None,
    max_compile_ratio: Optional[float] = None,
    same_artifacts: bool = False,
) -> CheckResult:
    """``tlscope check``: whether the log stays within the limits given (and,
    with ``baseline``, has no more recompiles, graph breaks or failures than
    it). A log where nothing was compiled fails unless ``allow_empty``."""
    log = resolve_log(path)
    args = ["check", log, "--json"]
    for flag, value in (
        ("--max-recompiles", max_recompiles),
        ("--max-graph-breaks", max_graph_breaks),
        ("--max-failures", max_failures),
        ("--max-compile-seconds", max_compile_seconds),
        ("--max-compile-ratio", max_compile_ratio),
    ):
        if value is not None:
            args += [flag, str(value)]
    if baseline is not None:
        args += ["--baseline", resolve_log(baseline)]
    if allow_empty:
        args.append("--allow-empty")
    if same_artifacts:
        args.append("--same-artifacts")
    done = _run(args)
    # Exit 1 with a verdict is a failed check; without one, an unreadable input.
    if done.returncode not in (0, 1) or not done.stdout.strip():
        _raise_for(done, args)
    verdict = _json_of(done, args)
    return CheckResult(
        passed=bool(verdict["passed"]),
        broken=list(verdict["broken"]),
        totals=dict(verdict["totals"]),
        ranks=int(verdict["ranks"]),
        path=log,
    )


def diff(a: PathLike, b: PathLike, *, exact: bool = False) -> Dict[str, Any]:
    """What changed from log ``a`` to log ``b`` (docs/diff.md): compile ids,
    frames, recompile and graph-break reasons, artifacts. Object ids,
    addresses and times are not changes unless ``exact``."""
    args = ["diff", resolve_log(a), resolve_log(b), "--json"]
    if exact:
        args.append("--exact")
    return _json_command(args)


def report(
    path: PathLike,
    out: PathLike,
    *,
    overwrite: bool = False,
    plain_text: bool = False,
    export: bool = False,
    inductor_provenance: bool = False,
    raw_log_gz: bool = True,
    strict: bool = False,
    custom_header_html: Optional[str] = None,
) -> Path:
    """Writes the HTML report of a log into the folder ``out`` (a folder of
    rank logs gets the multi-rank report) and returns the path of its
    index.html."""
    log = resolve_log(path)
    out = Path(os.path.abspath(os.fspath(out)))
    args = [log, "-o", str(out), "--no-browser"]
    if Path(log).is_dir():
        args.append("--all-ranks-html")
    for flag, on in (
        ("--overwrite", overwrite),
        ("--plain-text", plain_text),
        ("--export", export),
        ("--inductor-provenance", inductor_provenance),
        ("--no-raw-log-gz", not raw_log_gz),
        ("--strict", strict),
    ):
        if on:
            args.append(flag)
    if custom_header_html is not None:
        args += ["--custom-header-html", custom_header_html]
    done = _run(args)
    if done.returncode != 0:
        _raise_for(done, args)
    return out / "index.html"
