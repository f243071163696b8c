#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""One version everywhere: the release version is written once, in
CMakeLists.txt's project(); every other place that names it must agree, and
the functions a release added must carry its "Since" note and its symbol
version node. Standard library only.

    check_versions.py --root SRC --library libbloomfilter.so --bloom bin/bloom --pc bloom.pc

Prints one line per place checked; exits 1 listing every disagreement."""

import argparse
import ctypes
import importlib.util
import json
import re
import subprocess
import sys
from pathlib import Path

VERSION = r"([0-9]+\.[0-9]+\.[0-9]+)"


class Checker:
    def __init__(self, root: Path, version: str):
        self.root = root
        self.version = version
        self.failures = []

    def agree(self, where: str, found) -> None:
        """found: a version string, or None when the place did not name one."""
        if found == self.version:
            print(f"ok   {where}: {found}")
        else:
            self.failures.append(f"{where}: {found or 'no version found'} (CMakeLists.txt: {self.version})")
            print(f"FAIL {self.failures[-1]}")

    def text(self, rel: str) -> str:
        return (self.root / rel).read_text(encoding="utf-8")

    def first(self, rel: str, pattern: str, flags=re.M):
        m = re.search(pattern, self.text(rel), flags)
        return m.group(1) if m else None

    def every(self, rel: str, pattern: str) -> None:
        """Each match of pattern in rel names the version (and there is one)."""
        found = re.findall(pattern, self.text(rel))
        if not found:
            self.agree(f"{rel} /{pattern}/", None)
        for v in sorted(set(found)):
            self.agree(f"{rel} /{pattern}/", v)

    def fail(self, message: str) -> None:
        self.failures.append(message)
        print(f"FAIL {message}")


def project_version(root: Path) -> str:
    m = re.search(r"^project\(bloom VERSION " + VERSION + r"\b", (root / "CMakeLists.txt").read_text(), re.M)
    if not m:
        sys.exit("CMakeLists.txt: no project(bloom VERSION X.Y.Z ...)")
    return m.group(1)


def check_files(c: Checker, pc: Path, bloom: Path) -> None:
    h = c.text("include/bloom/bloom.h")
    parts = [re.search(rf"^#define BLOOM_VERSION_{p} +([0-9]+)", h, re.M) for p in ("MAJOR", "MINOR", "PATCH")]
    c.agree("include/bloom/bloom.h BLOOM_VERSION_*", ".".join(m.group(1) for m in parts) if all(parts) else None)
    m = re.search(r"^Version: *(\S+)", pc.read_text(), re.M)
    c.agree(f"pkg-config {pc.name}", m.group(1) if m else None)
    out = subprocess.run([str(bloom), "--version"], capture_output=True, text=True).stdout
    m = re.fullmatch(r"bloom " + VERSION + r" \(library " + VERSION + r"\)\n", out)
    c.agree("bloom --version (tool)", m.group(1) if m else None)
    c.agree("bloom --version (library)", m.group(2) if m else None)

    spec = importlib.util.spec_from_file_location("bloomkit_build", c.root / "python/build_backend/bloomkit_build.py")
    backend = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(backend)
    c.agree("Python wheel (python/build_backend)", backend.version())

    c.agree("npm bindings/node/package.json", json.loads(c.text("bindings/node/package.json")).get("version"))
    for crate in ("bloom", "bloom-sys"):
        c.agree(f"crate {crate}", c.first(f"bindings/rust/{crate}/Cargo.toml", r'^\[package\][^\[]*?^version = "([^"]+)"',
                                          re.M | re.S))
    c.agree("crate bloom's bloom-sys dependency",
            c.first("bindings/rust/bloom/Cargo.toml", r'^bloom-sys = \{[^}]*version = "=?([^"]+)"'))
    c.agree("Java jar (bindings/java/build.sh)", c.first("bindings/java/build.sh", r"^VERSION=(\S+)$"))
    c.agree("Go binding test (bindings/go/api_test.go)", c.first("bindings/go/api_test.go", r'Version\(\) != "([^"]+)"'))
    for doc in ("README.md", "bindings/java/README.md"):
        c.every(doc, r"bloomkit-" + VERSION + r"\.jar")
    m = re.match(r"bloomfilter \(" + VERSION + r"-[0-9]+\)", c.text("debian/changelog"))
    c.agree("debian/changelog (newest entry)", m.group(1) if m else None)
    c.agree("CHANGELOG.md (newest release)", c.first("CHANGELOG.md", r"^## " + VERSION + r"\b"))


def since_notes(header: str):
    """Function name -> the "Since X.Y.Z" of the comment block right above
    it (None: none). A declaration right after another, with no comment
    between, shares that one's."""
    result = {}
    previous_end, previous_since = 0, None
    for m in re.finditer(r"^BLOOM_API [^;(]*?\b(bloom_[a-z0-9_]+)\s*\([^;]*;", header, re.M | re.S):
        between = header[previous_end:m.start()]
        # The last comment that starts a line (a #define's own trailing
        # comment does not; the macros a call takes may sit in between).
        blocks = re.findall(r"^/\*(.*?)\*/", between, re.M | re.S)
        if blocks:
            s = re.findall(r"Since " + VERSION, blocks[-1])
            previous_since = s[-1] if s else None
        result[m.group(1)] = previous_since
        previous_end = m.end()
    return result


def symbol_nodes(library: Path):
    """Function name -> its default symbol version node, from the library."""
    out = subprocess.run(["readelf", "--dyn-syms", "-W", str(library)], capture_output=True, text=True,
                         check=True).stdout
    return {m.group(1): m.group(2) for m in re.finditer(r"\s(bloom_[a-z0-9_]+)@@(\S+)", out)}


def node_releases(version_script: str):
    """Version node -> the release its "Added in X.Y.Z" comment names (the
    first node, with no such comment: None, the releases before)."""
    result = {}
    for m in re.finditer(r"(?:/\*\s*Added in " + VERSION + r"\.?\s*\*/\s*)?^(bloom_[0-9.]+) \{", version_script, re.M):
        result[m.group(2)] = m.group(1)
    return result


def check_symbols(c: Checker, library: Path) -> None:
    since = since_notes(c.text("include/bloom/bloom.h"))
    nodes = symbol_nodes(library)
    releases = node_releases(c.text("cmake/bloom.map"))
    newest = max((r for r in releases.values() if r), key=lambda v: tuple(map(int, v.split("."))), default=None)
    if newest and tuple(map(int, newest.split("."))) > tuple(map(int, c.version.split("."))):
        c.fail(f"cmake/bloom.map: a node added in {newest}, after this release {c.version}")
    for name, note in sorted(since.items()):
        node = nodes.get(name)
        if node is None:
            c.fail(f"{name}: declared in bloom.h, not exported by {library.name}")
            continue
        added = releases.get(node)
        if note != added:
            c.fail(f"{name}: bloom.h says {'Since ' + note if note else 'no Since note'}, "
                   f"its symbol version {node} is {'added in ' + added if added else 'the first node'}")
    listed = set(re.findall(r"^ (bloom_[a-z0-9_.]+@bloom_[0-9.]+) ", c.text("debian/libbloomfilter1.symbols"), re.M))
    exported = {f"{name}@{node}" for name, node in nodes.items()} | {f"{n}@{n}" for n in set(nodes.values())}
    for sym in sorted(exported - listed):
        c.fail(f"debian/libbloomfilter1.symbols: {sym} is exported but not listed")
    for sym in sorted(listed - exported):
        c.fail(f"debian/libbloomfilter1.symbols: {sym} is listed but not exported")
    if not any(f.startswith(("bloom_", "debian/libbloomfilter1.symbols")) for f in c.failures):
        print(f"ok   {len(since)} functions: Since notes agree with their symbol version nodes")


def check_summaries(c: Checker, library: Path) -> None:
    """A summary that names kinds names all the library's kinds, and a count
    of kinds is the library's count."""
    lib = ctypes.CDLL(str(library))
    lib.bloom_kind_count.restype = ctypes.c_int
    lib.bloom_kind_at.restype = ctypes.c_int
    lib.bloom_kind_at.argtypes = [ctypes.c_int]
    lib.bloom_kind_name.restype = ctypes.c_char_p
    lib.bloom_kind_name.argtypes = [ctypes.c_int]
    kinds = [lib.bloom_kind_name(lib.bloom_kind_at(i)).decode() for i in range(lib.bloom_kind_count())]
    words = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]
    places = {
        "bloom.pc.in": c.first("bloom.pc.in", r"^Description: (.*)$"),
        "python/build_backend SUMMARY": c.first("python/build_backend/bloomkit_build.py", r'^SUMMARY = "(.*)"$'),
        "bindings/node/package.json": json.loads(c.text("bindings/node/package.json")).get("description", ""),
        "bindings/rust/bloom/Cargo.toml": c.first("bindings/rust/bloom/Cargo.toml", r'^description = "(.*)"$'),
        "bindings/rust/bloom-sys/Cargo.toml": c.first("bindings/rust/bloom-sys/Cargo.toml", r'^description = "(.*)"$'),
        "debian/control": c.text("debian/control"),
    }
    for where, text in places.items():
        text = text or ""
        named = [k for k in kinds if re.search(rf"\b{k}\b", text)]
        if "classic" in named and len(named) != len(kinds):
            c.fail(f"{where}: names the kinds {', '.join(named)}; the library has {', '.join(kinds)}")
            continue
        for m in re.finditer(r"\b(" + "|".join(words) + r") kinds\b", text, re.I):
            if words.index(m.group(1).lower()) != len(kinds):
                c.fail(f"{where}: says '{m.group(0)}'; the library has {len(kinds)}")
                break
        else:
            print(f"ok   {where}: kinds current")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", type=Path, required=True)
    ap.add_argument("--library", type=Path, required=True)
    ap.add_argument("--bloom", type=Path, required=True)
    ap.add_argument("--pc", type=Path, required=True)
    a = ap.parse_args()
    c = Checker(a.root, project_version(a.root))
    print(f"CMakeLists.txt project() version: {c.version}")
    check_files(c, a.pc, a.bloom)
    check_symbols(c, a.library)
    check_summaries(c, a.library)
    if c.failures:
        print(f"\n{len(c.failures)} disagreement(s):\n  " + "\n  ".join(c.failures), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
