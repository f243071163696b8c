#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""What users read speaks of their problem, not of how the project was
planned: no line of the tool's --help (every command), a README, docs/ or a
Python docstring of the bloomkit package may name a planning seed ("seed
004", "the seeds' formulas") or an issue number ("issue 22"). The hash
seed (--seed, "equal seeds") is a real option and is not matched.

    check_user_text.py --root SRC --bloom bin/bloom

Prints every offending line as FILE:LINE: TEXT and exits 1 when there is one."""

import argparse
import ast
import re
import subprocess
import sys
from pathlib import Path

INTERNAL = re.compile(r"\bseeds? [0-9]{3}\b|\bthe seeds'|\bissues? #?[0-9]+\b", re.I)
SKIP_DIRS = {"build", "tests", "node_modules", "target", ".git"}


def texts(root: Path, bloom: Path):
    """(where, text) for every piece of user-facing text."""
    commands = subprocess.run([str(bloom), "--list", "commands"], capture_output=True, text=True,
                              check=True).stdout.split()
    if len(commands) < 6:
        sys.exit(f"bloom --list commands gave {commands}")
    yield "bloom --help", subprocess.run([str(bloom), "--help"], capture_output=True, text=True, check=True).stdout
    for c in commands:
        yield f"bloom {c} --help", subprocess.run([str(bloom), c, "--help"], capture_output=True, text=True,
                                                  check=True).stdout
    docs = sorted((root / "docs").rglob("*.md"))
    readmes = sorted(p for p in root.rglob("README*")
                     if p.is_file() and not SKIP_DIRS & set(p.relative_to(root).parts[:-1]))
    for path in docs + readmes:
        yield str(path.relative_to(root)), path.read_text(encoding="utf-8")
    for path in sorted((root / "python" / "bloomkit").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
                doc = ast.get_docstring(node, clean=False)
                if doc:
                    first = getattr(node, "body", [None])[0]
                    line = first.lineno if first is not None else 1
                    yield f"{path.relative_to(root)} (docstring at line {line})", doc


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", type=Path, required=True)
    ap.add_argument("--bloom", type=Path, required=True)
    a = ap.parse_args()
    bad = 0
    places = 0
    for where, text in texts(a.root, a.bloom):
        places += 1
        for number, line in enumerate(text.splitlines(), 1):
            if INTERNAL.search(line):
                print(f"{where}:{number}: {line.strip()}")
                bad += 1
    if bad:
        print(f"{bad} line(s) name a planning seed or an issue number: say what the user's case is instead",
              file=sys.stderr)
        return 1
    print(f"ok: {places} help texts, documents and docstrings name no seed number or issue number")
    return 0


if __name__ == "__main__":
    sys.exit(main())
