# SPDX-License-Identifier: Apache-2.0
"""The PEP 517 build backend behind ``pip install .`` and ``pip wheel .``.

It builds the C library (and the extension bloomkit._cext when Python's
headers are there) with CMake, then writes a wheel holding the package with
``libbloomfilter.so.1`` and ``_cext.abi3.so`` inside it, where
``bloomkit/_locate.py`` and ``bloomkit/_fast.py`` look first. It needs
nothing but the standard library and CMake with a C++20 compiler, so
``pip install .`` works offline, with or without build isolation.

Environment:
    BLOOMKIT_CMAKE_BUILD_DIR  reuse this configured CMake build directory
                              (its targets are brought up to date) instead of
                              configuring a fresh Release build in a temporary
                              directory; the tests use it to build once.
    BLOOMKIT_CMAKE_ARGS       extra arguments for the fresh configure (split
                              on spaces), e.g. -DBLOOM_BUILD_PYTHON_EXTENSION=OFF.
    CMAKE_BUILD_PARALLEL_LEVEL, CMAKE_<LANG>_COMPILER_LAUNCHER: as for CMake.

No sdist and no editable install: a checkout is the source distribution.
"""

from __future__ import annotations

import base64
import hashlib
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import zipfile
from pathlib import Path
from typing import Dict, List, Optional, Tuple

NAME = "bloomkit"
SUMMARY = "Bloom filters (classic, partitioned, blocked, counting, scalable, window) over the C library libbloomfilter"
REQUIRES_PYTHON = ">=3.8"  # the ctypes path; the extension needs 3.10 (abi3 cp310)
ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "python" / "bloomkit"
# What the build tree holds (src/ and python/ of the CMake binary dir).
LIBRARY = Path("src") / "libbloomfilter.so.1"
EXTENSION = Path("python") / "_cext.abi3.so"


def version() -> str:
    """The release version, from CMakeLists.txt's project(), the one place it is written."""
    text = (ROOT / "CMakeLists.txt").read_text(encoding="utf-8")
    m = re.search(r"^project\(bloom VERSION ([0-9]+\.[0-9]+\.[0-9]+)\b", text, re.M)
    if not m:
        raise RuntimeError("CMakeLists.txt: project(bloom VERSION X.Y.Z ...) not found")
    return m.group(1)


def _run(cmd: List[str]) -> None:
    print("bloomkit build:", " ".join(cmd), file=sys.stderr, flush=True)
    subprocess.run(cmd, check=True)


def _cmake_build(build_dir: Path, fresh: bool) -> None:
    if fresh:
        _run([
            "cmake", "-S", str(ROOT), "-B", str(build_dir), "-DCMAKE_BUILD_TYPE=Release",
            "-DBLOOM_BUILD_TESTS=OFF", "-DBLOOM_BUILD_BENCH=OFF", "-DBLOOM_BUILD_REDIS=OFF",
            "-DBLOOM_BUILD_CLI=OFF", "-DBLOOM_PYTHON_SOURCE_PATHS=OFF",
            # The headers of the interpreter pip runs (any >= 3.10 gives the same abi3 file).
            f"-DPython3_EXECUTABLE={sys.executable}",
        ] + os.environ.get("BLOOMKIT_CMAKE_ARGS", "").split())
    targets = ["bloom_shared"] + (["bloomkit_cext"] if _extension_enabled(build_dir) else [])
    _run(["cmake", "--build", str(build_dir), "--target"] + targets)


def _platform_tag() -> str:
    return re.sub(r"[^A-Za-z0-9]", "_", sysconfig.get_platform())


def _package_files(build_dir: Path) -> Tuple[Dict[str, Path], bool]:
    """Archive name -> file; and whether the extension is among them."""
    files = {}
    for path in sorted(PACKAGE.iterdir()):
        # _paths.py names a build tree (source checkout only); an installed
        # package finds the library beside itself.
        if path.name == "_paths.py" or not (path.suffix == ".py" or path.name == "py.typed"):
            continue
        files[f"{NAME}/{path.name}"] = path
    library = build_dir / LIBRARY
    if not library.is_file():
        raise RuntimeError(f"{library} was not built")
    files[f"{NAME}/{LIBRARY.name}"] = library.resolve()  # the file, not the symlink
    extension = build_dir / EXTENSION
    with_extension = _extension_enabled(build_dir)
    if with_extension and not extension.is_file():
        raise RuntimeError(f"{extension} was not built")
    if with_extension:
        files[f"{NAME}/{EXTENSION.name}"] = extension
    return files, with_extension


def _extension_enabled(build_dir: Path) -> bool:
    """Whether the build configures bloomkit._cext (python/cext/BloomkitCext.cmake
    turns it on when it finds Python >= 3.10 headers)."""
    cache = (build_dir / "CMakeCache.txt").read_text(encoding="utf-8", errors="replace")
    return re.search(r"^BLOOM_BUILD_PYTHON_EXTENSION:BOOL=ON$", cache, re.M) is not None


def _record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def _metadata(ver: str) -> str:
    return (f"Metadata-Version: 2.1\nName: {NAME}\nVersion: {ver}\nSummary: {SUMMARY}\n"
            f"License: Apache-2.0\nRequires-Python: {REQUIRES_PYTHON}\n")


def _write_wheel(wheel_directory: str, files: Dict[str, Path], tag: str) -> str:
    ver = version()
    dist_info = f"{NAME}-{ver}.dist-info"
    wheel_name = f"{NAME}-{ver}-{tag}.whl"
    extra = {
        f"{dist_info}/METADATA": _metadata(ver).encode(),
        f"{dist_info}/WHEEL": (f"Wheel-Version: 1.0\nGenerator: bloomkit_build\nRoot-Is-Purelib: false\n"
                               f"Tag: {tag}\n").encode(),
        f"{dist_info}/top_level.txt": f"{NAME}\n".encode(),
    }
    record = []
    out = Path(wheel_directory) / wheel_name
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        def add(name: str, data: bytes, mode: int) -> None:
            info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))  # reproducible
            info.external_attr = (0o100000 | mode) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            zf.writestr(info, data)
            record.append(_record_line(name, data))

        for name, path in files.items():
            add(name, path.read_bytes(), 0o755 if name.endswith(".so") or ".so." in name else 0o644)
        for name, data in extra.items():
            add(name, data, 0o644)
        record.append(f"{dist_info}/RECORD,,")
        info = zipfile.ZipInfo(f"{dist_info}/RECORD", date_time=(2020, 1, 1, 0, 0, 0))
        info.external_attr = (0o100644) << 16
        zf.writestr(info, "\n".join(record) + "\n")
    return wheel_name


# -- PEP 517 hooks -----------------------------------------------------------


def get_requires_for_build_wheel(config_settings: Optional[dict] = None) -> List[str]:
    return []


def build_wheel(wheel_directory: str, config_settings: Optional[dict] = None,
                metadata_directory: Optional[str] = None) -> str:
    reuse = os.environ.get("BLOOMKIT_CMAKE_BUILD_DIR")
    if reuse:
        build_dir = Path(reuse).resolve()
        if not (build_dir / "CMakeCache.txt").is_file():
            raise RuntimeError(f"BLOOMKIT_CMAKE_BUILD_DIR={reuse} is not a configured CMake build directory")
        _cmake_build(build_dir, fresh=False)
        files, with_extension = _package_files(build_dir)
        tmp = None
    else:
        tmp = tempfile.mkdtemp(prefix="bloomkit-build-")
        build_dir = Path(tmp)
        try:
            _cmake_build(build_dir, fresh=True)
            files, with_extension = _package_files(build_dir)
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise
    try:
        # abi3 from 3.10 with the extension; otherwise any Python 3 (ctypes).
        tag = f"cp310-abi3-{_platform_tag()}" if with_extension else f"py3-none-{_platform_tag()}"
        return _write_wheel(wheel_directory, files, tag)
    finally:
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)
