"""tlscope from Python: the doctor, the CI check, the diff and the report of
PyTorch ``TORCH_TRACE`` logs (and ``TORCH_LOGS`` text).

Every function runs the ``tlscope`` binary this package carries and returns
what it printed as JSON, so the answers are the command's own::

    import tlscope
    s = tlscope.summary("/tmp/trace")          # a TORCH_TRACE folder or a log
    assert s["totals"]["recompiles"] == 0
    r = tlscope.check("/tmp/trace", max_recompiles=2)
    assert r.passed, r.broken

A path may be a log (plain, .gz or .zst), TORCH_LOGS text, a folder of rank
logs (``dedicated_log_torch_trace_rank_<N>_*.log``) or any other folder, of
which the newest file is read. An input that cannot be read or holds nothing
raises :class:`TraceError`; arguments the command refuses raise
:class:`UsageError`. Nothing fails silently.
"""

from __future__ import annotations

from tlscope._api import (
    CheckResult,
    TlscopeError,
    TraceError,
    UsageError,
    binary,
    check,
    diff,
    report,
    resolve_log,
    summary,
)

__all__ = [
    "CheckResult",
    "TlscopeError",
    "TraceError",
    "UsageError",
    "binary",
    "check",
    "diff",
    "report",
    "resolve_log",
    "summary",
]
