"""The Python package, installed the way a user installs it: `pip install .`
from the clone into a fresh virtual environment, with no package index (the
build backend is in the tree), taking the binary of this CMake build. Then
every function of the module, and each error, on recorded logs, against what
the binary itself prints.

    python3 tests/python/package_test.py --source CLONE --build BUILD_DIR
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
import unittest
from pathlib import Path

ARGS = argparse.Namespace()
VENV: Path = Path()
RECORDED: Path = Path()


def run(cmd, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([str(c) for c in cmd], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True, **kw)


def binary_json(*args) -> dict:
    """What the CMake-built binary prints as JSON, for comparison."""
    done = run([ARGS.build / "tlscope", *args])
    return json.loads(done.stdout)


def in_venv(code: str, cwd=None) -> str:
    """Runs `code` with the environment's Python; returns its standard output."""
    done = run([VENV / "bin" / "python", "-c", textwrap.dedent(code)], cwd=cwd)
    if done.returncode != 0:
        raise AssertionError(f"python in the environment failed:\n{done.stdout}\n{done.stderr}")
    return done.stdout


def setUpModule() -> None:
    global VENV
    VENV = Path(tempfile.mkdtemp(prefix="tlscope_venv_")) / "venv"
    done = run([sys.executable, "-m", "venv", VENV])
    if done.returncode != 0:
        raise AssertionError(
            f"python3 -m venv failed (scripts/setup installs python3-venv):\n{done.stderr}")
    env = dict(os.environ, TLSCOPE_BUILD_DIR=str(ARGS.build), PIP_NO_INDEX="1",
               PIP_DISABLE_PIP_VERSION_CHECK="1")
    done = run([VENV / "bin" / "python", "-m", "pip", "install", "--no-index", ARGS.source],
               env=env, cwd=VENV.parent)
    if done.returncode != 0:
        raise AssertionError(f"pip install failed:\n{done.stdout}\n{done.stderr}")


def tearDownModule() -> None:
    shutil.rmtree(VENV.parent, ignore_errors=True)


class Installed(unittest.TestCase):
    def test_the_wheel_carries_the_binary_cmake_built(self):
        where = in_venv("import tlscope; print(tlscope.binary())").strip()
        self.assertIn(str(VENV), where)
        digest = lambda p: hashlib.sha256(Path(p).read_bytes()).hexdigest()
        self.assertEqual(digest(where), digest(ARGS.build / "tlscope"))

    def test_the_wheel_carries_the_binary_s_modules_and_they_load(self):
        where = Path(in_venv("import tlscope; print(tlscope.binary())").strip())
        digest = lambda p: hashlib.sha256(Path(p).read_bytes()).hexdigest()
        for module in ("tlscope-http.so", "tlscope-archive.so"):
            self.assertEqual(digest(where.parent / module), digest(ARGS.build / module), module)
        # `bundle` writes its archive through tlscope-archive.so.
        with tempfile.TemporaryDirectory() as d:
            out = Path(d) / "b.tar.gz"
            done = run([VENV / "bin" / "tlscope", "bundle", RECORDED / "shape_change.log.gz", "-o", out])
            self.assertEqual(done.returncode, 0, done.stderr)
            import tarfile
            with tarfile.open(out) as tar:
                self.assertIn("tlscope-bundle/ISSUE.md", tar.getnames())

    def test_command_and_module_are_the_binary(self):
        want = run([ARGS.build / "tlscope", "--version"]).stdout
        self.assertTrue(want.startswith("tlscope "), want)
        self.assertEqual(run([VENV / "bin" / "tlscope", "--version"]).stdout, want)
        self.assertEqual(run([VENV / "bin" / "python", "-m", "tlscope", "--version"]).stdout, want)
        # The exit status and messages pass through: a usage error is 2.
        done = run([VENV / "bin" / "python", "-m", "tlscope", "summary", "--bogus"])
        self.assertEqual(done.returncode, 2)
        self.assertIn("log is required", done.stderr)

    def test_metadata_is_pyproject_s(self):
        try:
            import tomllib
        except ImportError:
            self.skipTest("tomllib needs Python 3.11")
        project = tomllib.loads((ARGS.source / "pyproject.toml").read_text())["project"]
        meta = in_venv("import importlib.metadata as m; print(m.metadata('tlscope').as_string())")
        self.assertIn(f"Summary: {project['description']}\n", meta)
        self.assertIn(f"Requires-Python: {project['requires-python']}\n", meta)
        for c in project["classifiers"]:
            self.assertIn(f"Classifier: {c}\n", meta)
        version = run([ARGS.build / "tlscope", "--version"]).stdout.split()[1]
        self.assertIn(f"Version: {version}\n", meta)

    def test_sdist_holds_the_sources_and_pkg_info(self):
        with tempfile.TemporaryDirectory() as d:
            name = run([sys.executable, "-c", textwrap.dedent(f"""
                import sys; sys.path.insert(0, {str(ARGS.source / 'python' / 'build_backend')!r})
                import tlscope_build; print(tlscope_build.build_sdist({d!r}))
            """)]).stdout.strip()
            import tarfile
            with tarfile.open(Path(d) / name) as tar:
                names = set(tar.getnames())
            base = name.removesuffix(".tar.gz")
            for f in ("pyproject.toml", "CMakeLists.txt", "python/tlscope/_api.py",
                                "python/build_backend/tlscope_build.py", "PKG-INFO"):
                self.assertIn(f"{base}/{f}", names)
            self.assertFalse(any("/build/" in n for n in names))

    def test_typed(self):
        files = in_venv("import tlscope, pathlib; "
                        "print(sorted(p.name for p in pathlib.Path(tlscope.__file__).parent.iterdir()))")
        self.assertIn("py.typed", files)


class Functions(unittest.TestCase):
    def test_summary_is_summary_json(self):
        for name in ("shape_change", "float_constant", "print_graph_break", "compile_error"):
            log = RECORDED / f"{name}.log.gz"
            got = json.loads(in_venv(f"import tlscope, json; print(json.dumps(tlscope.summary({str(log)!r})))"))
            want = binary_json("summary", log, "--json")
            self.assertEqual(got, want, name)
        got = json.loads(in_venv(
            f"import tlscope, json; print(json.dumps(tlscope.summary({str(RECORDED / 'shape_change.log.gz')!r})['totals']))"))
        self.assertGreaterEqual(got["recompiles"], 1)

    def test_a_folder_of_rank_logs_has_job_totals(self):
        folder = RECORDED / "two_ranks_aborted"
        got = json.loads(in_venv(f"import tlscope, json; print(json.dumps(tlscope.summary({str(folder)!r})))"))
        ranks = [r["summary"]["totals"] for r in got["ranks"] if "summary" in r]
        self.assertGreaterEqual(len(ranks), 2)
        self.assertEqual(got["totals"]["recompiles"], sum(t["recompiles"] for t in ranks))
        self.assertEqual(got["totals"]["compiles"], sum(t["compiles"] for t in ranks))

    def test_a_trace_folder_reads_its_newest_log(self):
        with tempfile.TemporaryDirectory() as d:
            old, new = Path(d) / "dedicated_log_torch_trace_a.log", Path(d) / "dedicated_log_torch_trace_b.log"
            old.write_bytes(gzip.decompress((RECORDED / "float_constant.log.gz").read_bytes()))
            new.write_bytes(gzip.decompress((RECORDED / "shape_change.log.gz").read_bytes()))
            os.utime(old, (1_000_000, 1_000_000))
            got = json.loads(in_venv(f"import tlscope, json; print(json.dumps(tlscope.summary({d!r})))"))
            self.assertEqual(got, binary_json("summary", new, "--json"))
            self.assertEqual(in_venv(f"import tlscope; print(tlscope.resolve_log({d!r}))").strip(), str(new))

    def test_check_passes_and_fails_with_the_limits_broken(self):
        log = str(RECORDED / "shape_change.log.gz")
        recompiles = binary_json("summary", log, "--json")["totals"]["recompiles"]
        out = in_venv(f"""
            import tlscope, json
            bad = tlscope.check({log!r}, max_recompiles={recompiles - 1})
            good = tlscope.check({log!r}, max_recompiles={recompiles}, max_failures=0)
            print(json.dumps([bad.passed, bool(bad), bad.broken, bad.totals["recompiles"],
                              good.passed, good.broken, good.summary["totals"]["recompiles"]]))
        """)
        bad_passed, bad_bool, broken, totals, good_passed, good_broken, summary_recompiles = json.loads(out)
        self.assertFalse(bad_passed)
        self.assertFalse(bad_bool)
        self.assertEqual(broken, [f"recompiles: {recompiles} > {recompiles - 1}"])
        self.assertEqual(totals, recompiles)
        self.assertTrue(good_passed)
        self.assertEqual(good_broken, [])
        self.assertEqual(summary_recompiles, recompiles)

    def test_check_limits_baseline_and_ranks(self):
        log = str(RECORDED / "shape_change.log.gz")
        with tempfile.TemporaryDirectory() as d:
            (Path(d) / "dedicated_log_torch_trace_rank_0_ab.log").write_bytes(
                gzip.decompress((RECORDED / "shape_change.log.gz").read_bytes()))
            out = json.loads(in_venv(f"""
                import tlscope, json
                base = tlscope.check({log!r}, baseline={log!r})
                slow = tlscope.check({log!r}, max_graph_breaks=0, max_compile_seconds=0.001)
                one = tlscope.check({d!r}, max_recompiles=0)
                print(json.dumps([base.passed, slow.broken, one.ranks, one.broken, one.passed]))
            """))
        base_passed, slow_broken, ranks, one_broken, one_passed = out
        self.assertTrue(base_passed)
        self.assertEqual(len(slow_broken), 1)
        self.assertTrue(slow_broken[0].startswith("compile seconds: "), slow_broken)
        self.assertEqual(ranks, 1)
        self.assertFalse(one_passed)
        self.assertEqual(one_broken, ["rank 0: recompiles: 1 > 0"])

    def test_paths_that_look_like_options_are_paths(self):
        with tempfile.TemporaryDirectory() as d:
            (Path(d) / "-x.log").write_bytes(
                gzip.decompress((RECORDED / "shape_change.log.gz").read_bytes()))
            got = json.loads(in_venv("import tlscope, json; print(json.dumps(tlscope.summary('-x.log')['totals']))",
                                     cwd=d))
            self.assertEqual(got["recompiles"], 1)

    def test_check_fails_on_an_empty_log_unless_allowed(self):
        with tempfile.TemporaryDirectory() as d:
            empty = Path(d) / "empty.log"
            empty.write_text("")
            out = in_venv(f"""
                import tlscope
                try:
                    tlscope.check({str(empty)!r})
                    print("no error")
                except tlscope.TraceError as e:
                    print("TraceError", e.returncode, e.message)
                print(tlscope.check({str(empty)!r}, allow_empty=True).passed)
            """)
            self.assertIn("TraceError 1", out)
            self.assertIn("is empty", out)
            self.assertTrue(out.rstrip().endswith("True"), out)

    def test_diff_is_the_binary_s(self):
        a, b = RECORDED / "shape_change.log.gz", RECORDED / "float_constant.log.gz"
        for x, y in ((a, b), (a, a)):
            got = json.loads(in_venv(f"import tlscope, json; print(json.dumps(tlscope.diff({str(x)!r}, {str(y)!r})))"))
            self.assertEqual(got, binary_json("diff", x, y, "--json"))
        same = json.loads(in_venv(f"import tlscope, json; print(json.dumps(tlscope.diff({str(a)!r}, {str(a)!r})))"))
        self.assertTrue(same["same"], same)

    def test_report_writes_the_report(self):
        with tempfile.TemporaryDirectory() as d:
            out = Path(d) / "out"
            log = RECORDED / "shape_change.log.gz"
            index = in_venv(f"import tlscope; print(tlscope.report({str(log)!r}, {str(out)!r}))").strip()
            self.assertEqual(index, str(out / "index.html"))
            self.assertIn("[0/1]", Path(index).read_text())
            self.assertTrue((out / "compile_directory.json").is_file())
            # A second report into the same folder needs overwrite=True.
            again = in_venv(f"""
                import tlscope
                try:
                    tlscope.report({str(log)!r}, {str(out)!r}); print("no error")
                except tlscope.TlscopeError as e:
                    print(type(e).__name__, e.message)
                print(tlscope.report({str(log)!r}, {str(out)!r}, overwrite=True))
            """)
            self.assertNotIn("no error", again)
            self.assertIn("--overwrite", again)


class Errors(unittest.TestCase):
    def error_of(self, call: str) -> list:
        return json.loads(in_venv(f"""
            import tlscope, json
            try:
                {call}
                print(json.dumps(["none"]))
            except tlscope.TlscopeError as e:
                print(json.dumps([type(e).__name__, e.returncode, e.message,
                                  isinstance(e, tlscope.TlscopeError)]))
        """))

    def test_each_error_is_an_exception_with_the_tool_s_message(self):
        log = str(RECORDED / "shape_change.log.gz")
        with tempfile.TemporaryDirectory() as d:
            not_a_log = Path(d) / "notes.txt"
            not_a_log.write_text("a shopping list\nmilk\n")
            cases = {
                f"tlscope.summary({'/no/such/trace.log'!r})": ("TraceError", "no such file"),
                f"tlscope.summary({str(not_a_log)!r})": ("TraceError", "neither"),
                f"tlscope.summary({d + '/empty_dir'!r} if __import__('os').mkdir({d + '/empty_dir'!r}) is None else 0)":
                    ("TraceError", "holds no log"),
                f"tlscope.diff({log!r}, {'/no/such.log'!r})": ("TraceError", "no such file"),
                f"tlscope.check({log!r}, max_compile_ratio=2)": ("UsageError", "needs --baseline"),
                f"tlscope.check({log!r}, max_recompiles=-1)": ("UsageError", "max-recompiles"),
                "__import__('os').environ.__setitem__('TLSCOPE_BINARY', '/tmp') or tlscope.summary('x')":
                    ("TlscopeError", "TLSCOPE_BINARY=/tmp is not an executable file"),
            }
            for call, (kind, words) in cases.items():
                got = self.error_of(call)
                self.assertEqual(got[0], kind, f"{call}: {got}")
                self.assertIn(words, got[2], call)
                self.assertTrue(got[3])
                if kind != "TlscopeError":
                    self.assertEqual(got[1], 2 if kind == "UsageError" else 1, call)


def main() -> None:
    global RECORDED
    parser = argparse.ArgumentParser()
    parser.add_argument("--source", type=Path, required=True)
    parser.add_argument("--build", type=Path, required=True)
    parsed, rest = parser.parse_known_args()
    ARGS.source, ARGS.build = parsed.source.resolve(), parsed.build.resolve()
    RECORDED = ARGS.source / "tests" / "data" / "recorded"
    unittest.main(argv=[sys.argv[0], "-v", *rest])


if __name__ == "__main__":
    main()
