"""The PEP 517 build backend of the tlscope Python package, with the standard
library only, so that ``pip install .`` needs nothing from a package index.

The wheel holds the ``tlscope`` module (python/tlscope) and the binary CMake
builds, as ``tlscope/bin/tlscope``, with the binary's modules beside it
(``MODULES``: the shared libraries it loads for ``--serve`` and ``bundle``). Where the binary comes from:

* ``TLSCOPE_BUILD_DIR`` (or ``pip install -C build-dir=DIR .``): a CMake build
  folder of this clone, brought up to date with ``cmake --build DIR --target
  tlscope`` (the tests use the one ``make test`` built);
* otherwise ``build-python/`` in the clone, configured (Release, no tests) and
  built on first use.

The binary links the shared libraries of the machine it was built on (Debian
12's, see scripts/setup): the wheel is for this machine, not for PyPI.
"""

from __future__ import annotations

import base64
import hashlib
import io
import os
import re
import subprocess
import sys
import sysconfig
import tarfile
import zipfile
from pathlib import Path
from typing import Dict, List, Optional, Tuple

SOURCE = Path(__file__).resolve().parents[2]
NAME = "tlscope"
SUMMARY = "Compilation reports, a compile doctor and CI checks for PyTorch TORCH_TRACE logs"


def _version() -> str:
    text = (SOURCE / "CMakeLists.txt").read_text()
    found = re.search(r"project\(\s*tlscope\s+VERSION\s+([0-9][0-9.]*)", text)
    if not found:
        raise RuntimeError("no project(tlscope VERSION x.y.z) in CMakeLists.txt")
    return found.group(1)


def _tag() -> str:
    # One binary for every Python 3: the module is pure Python, the binary
    # depends only on the platform.
    platform = sysconfig.get_platform().replace("-", "_").replace(".", "_")
    return f"py3-none-{platform}"


def _log(text: str) -> None:
    print(f"tlscope_build: {text}", file=sys.stderr, flush=True)


def _given_build_dir(config_settings: Optional[Dict[str, object]]) -> Optional[str]:
    given = (config_settings or {}).get("build-dir") or os.environ.get("TLSCOPE_BUILD_DIR")
    if given is not None and not isinstance(given, str):
        raise RuntimeError("build-dir takes one folder (-C build-dir=DIR, once)")
    return given


def _check_build_of_this_clone(build: Path) -> None:
    """A build folder of another checkout would pack that checkout's binary
    under this clone's version."""
    cache = (build / "CMakeCache.txt").read_text(errors="replace")
    found = re.search(r"^CMAKE_HOME_DIRECTORY:INTERNAL=(.*)$", cache, re.M)
    if found and Path(found.group(1)).resolve() != SOURCE:
        raise RuntimeError(f"{build} is a build folder of {found.group(1)}, not of {SOURCE}")


# What the binary loads from its own folder (src/base/module.h): the server
# of --serve and the archive writer of `bundle`.
MODULES = ("tlscope-http.so", "tlscope-archive.so")


def _build_binary(config_settings: Optional[Dict[str, object]]) -> Path:
    given = _given_build_dir(config_settings)
    build = Path(given).resolve() if given else SOURCE / "build-python"
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    jobs = str(cpus or 2)
    if (build / "CMakeCache.txt").exists():
        _check_build_of_this_clone(build)
    else:
        if given:
            raise RuntimeError(f"{build} is not a CMake build folder (no CMakeCache.txt)")
        _log(f"configuring {build} (Release, no tests)")
        subprocess.run(
            ["cmake", "-S", str(SOURCE), "-B", str(build), "-DCMAKE_BUILD_TYPE=Release",
             "-DTLSCOPE_TESTS=OFF"],
            check=True, stdout=sys.stderr,
        )
    _log(f"building the tlscope binary in {build} (a few minutes the first time)")
    subprocess.run(
        ["cmake", "--build", str(build), "--target", "tlscope", "-j", jobs],
        check=True, stdout=sys.stderr,
    )
    exe = build / "tlscope"
    if not os.access(exe, os.X_OK):
        raise RuntimeError(f"CMake built no binary at {exe}")
    for module in MODULES:
        if not (build / module).is_file():
            raise RuntimeError(f"CMake built no {module} beside {exe}")
    return exe


# The same as pyproject.toml's [project] (the package test compares them).
REQUIRES_PYTHON = ">=3.9"
CLASSIFIERS = [
    "Programming Language :: Python :: 3",
    "Operating System :: POSIX :: Linux",
    "Typing :: Typed",
]


def _metadata() -> str:
    readme = (SOURCE / "docs" / "python.md").read_text()
    return "\n".join([
        "Metadata-Version: 2.1",
        f"Name: {NAME}",
        f"Version: {_version()}",
        f"Summary: {SUMMARY}",
        f"Requires-Python: {REQUIRES_PYTHON}",
        *[f"Classifier: {c}" for c in CLASSIFIERS],
        "Description-Content-Type: text/markdown",
        "",
        readme,
    ])


def _dist_info_files() -> List[Tuple[str, bytes]]:
    info = f"{NAME}-{_version()}.dist-info"
    wheel = "\n".join([
        "Wheel-Version: 1.0",
        "Generator: tlscope_build",
        "Root-Is-Purelib: false",
        f"Tag: {_tag()}",
        "",
    ])
    entry_points = "[console_scripts]\ntlscope = tlscope.__main__:main\n"
    return [
        (f"{info}/METADATA", _metadata().encode()),
        (f"{info}/WHEEL", wheel.encode()),
        (f"{info}/entry_points.txt", entry_points.encode()),
    ]


def _record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def _write_wheel(directory: str, exe: Path) -> str:
    files: List[Tuple[str, bytes, int]] = []
    for source in sorted((SOURCE / "python" / "tlscope").iterdir()):
        if source.is_file() and source.suffix in (".py", ".typed"):
            files.append((f"tlscope/{source.name}", source.read_bytes(), 0o644))
    files.append(("tlscope/bin/tlscope", exe.read_bytes(), 0o755))
    files += [(f"tlscope/bin/{m}", (exe.parent / m).read_bytes(), 0o644) for m in MODULES]
    files += [(name, data, 0o644) for name, data in _dist_info_files()]
    info = f"{NAME}-{_version()}.dist-info"
    record = [_record_line(name, data) for name, data, _ in files] + [f"{info}/RECORD,,"]
    files.append((f"{info}/RECORD", ("\n".join(record) + "\n").encode(), 0o644))

    wheel_name = f"{NAME}-{_version()}-{_tag()}.whl"
    with zipfile.ZipFile(Path(directory) / wheel_name, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data, mode in files:
            entry = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
            entry.external_attr = (0o100000 | mode) << 16  # a regular file, with its mode
            entry.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(entry, data)
    _log(f"wrote {wheel_name}")
    return wheel_name


# The PEP 517 hooks.

def get_requires_for_build_wheel(config_settings=None) -> List[str]:
    return []


def get_requires_for_build_editable(config_settings=None) -> List[str]:
    return []


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None) -> str:
    return _write_wheel(wheel_directory, _build_binary(config_settings))


# No build_editable: an editable install would have to find the binary in a
# build folder and follow its rebuilds; pip says editable installs are not
# supported, rather than install a copy that does not follow edits.


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None) -> str:
    """The dist-info without building the binary (pip asks for it first)."""
    info = f"{NAME}-{_version()}.dist-info"
    for name, data in _dist_info_files():
        target = Path(metadata_directory) / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    return info


def get_requires_for_build_sdist(config_settings=None) -> List[str]:
    return []


def build_sdist(sdist_directory, config_settings=None) -> str:
    """The clone's tracked files (every file but build folders, where git is
    not there), with PKG-INFO."""
    base = f"{NAME}-{_version()}"
    listed = subprocess.run(["git", "-C", str(SOURCE), "ls-files", "-z"],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    if listed.returncode == 0:
        files = [f.decode() for f in listed.stdout.split(b"\0") if f]
    else:
        skip = {".git", "node_modules", "__pycache__"}
        files = [str(p.relative_to(SOURCE)) for p in sorted(SOURCE.rglob("*"))
                 if p.is_file() and not any(part in skip or part.startswith("build")
                                            for part in p.relative_to(SOURCE).parts)]
    name = f"{base}.tar.gz"
    with tarfile.open(Path(sdist_directory) / name, "w:gz", format=tarfile.PAX_FORMAT) as tar:
        for f in files:
            if (SOURCE / f).is_file():
                tar.add(str(SOURCE / f), arcname=f"{base}/{f}", recursive=False)
        info = tarfile.TarInfo(f"{base}/PKG-INFO")
        data = _metadata().encode()
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))
    _log(f"wrote {name}")
    return name
