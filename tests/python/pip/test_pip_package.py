# SPDX-License-Identifier: Apache-2.0
"""pip: `pip wheel .` makes a wheel with the library (and the extension)
inside; `pip install .` into a fresh venv gives a package that imports from
the venv alone, in another directory, with no BLOOM_LIBRARY or PYTHONPATH;
`pip uninstall` removes every file. Offline: the backend needs no package.

ctest sets BLOOMKIT_CMAKE_BUILD_DIR so the backend reuses its build; CI
(.ci/steps.d/75-pip-venv.sh) runs VenvInstallTest without it, a real
from-source build. BLOOM_TEST_EXPECT_IMPLEMENTATION: "cext" or "ctypes".
"""

import os
import subprocess
import sys
import tempfile
import unittest
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
EXPECT = os.environ.get("BLOOM_TEST_EXPECT_IMPLEMENTATION", "cext")

SCRIPT = r"""
import os, sys, tempfile
import bloomkit
print(bloomkit.__file__)
print(bloomkit.library_path())
print(bloomkit.implementation)
f = bloomkit.Filter(capacity=10000, fp_rate=0.001)
f.add("a"); f.add_many([b"b", "c"])
assert "a" in f and f.contains_many(["b", "c", "zz"])[:2] == [True, True]
d = tempfile.mkdtemp()
f.save(os.path.join(d, "f.bloom"))
g = bloomkit.Filter.load(os.path.join(d, "f.bloom"))
assert "a" in g and f <= g and (f | g).issubset(g)
print("ok")
"""


def clean_env():
    drop = ("BLOOM_LIBRARY", "PYTHONPATH", "BLOOMKIT_CEXT", "BLOOMKIT_PURE", "PYTHONHOME")
    return {k: v for k, v in os.environ.items() if k not in drop}


def run(cmd, **kw):
    r = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, timeout=1800, **kw)
    if r.returncode != 0:
        raise AssertionError(f"{cmd} exited {r.returncode}\n{r.stdout[-4000:]}\n{r.stderr[-4000:]}")
    return r.stdout


class WheelTest(unittest.TestCase):
    def test_the_wheel_holds_the_library_and_no_build_paths(self):
        with tempfile.TemporaryDirectory() as out:
            run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-index", "-w", out, ROOT])
            wheels = list(Path(out).glob("bloomkit-*.whl"))
            self.assertEqual(len(wheels), 1, os.listdir(out))
            names = zipfile.ZipFile(wheels[0]).namelist()
            self.assertIn("bloomkit/libbloomfilter.so.1", names)
            self.assertIn("bloomkit/__init__.py", names)
            self.assertNotIn("bloomkit/_paths.py", names)  # a build tree's paths
            if EXPECT == "cext":
                self.assertIn("bloomkit/_cext.abi3.so", names)
                self.assertIn("-cp310-abi3-", wheels[0].name)
            else:
                self.assertIn("-py3-none-", wheels[0].name)


class VenvInstallTest(unittest.TestCase):
    def test_pip_install_into_a_venv_then_uninstall(self):
        with tempfile.TemporaryDirectory() as tmp:
            venv = Path(tmp) / "venv"
            run([sys.executable, "-m", "venv", venv])
            python = venv / "bin" / "python"
            env = clean_env()
            run([python, "-m", "pip", "install", "--no-index", ROOT], env=env)
            with tempfile.TemporaryDirectory() as cwd:
                out = run([python, "-c", SCRIPT], env=env, cwd=cwd).splitlines()
            module, library, implementation, ok = out
            site = Path(module).resolve().parent
            self.assertTrue(str(site).startswith(str(venv.resolve())), module)
            self.assertEqual(Path(library).resolve(), site / "libbloomfilter.so.1")
            self.assertEqual(implementation, EXPECT)
            self.assertEqual(ok, "ok")
            run([python, "-m", "pip", "uninstall", "-y", "bloomkit"], env=env)
            self.assertFalse(site.exists() and any(site.iterdir()), list(site.iterdir()) if site.exists() else [])


if __name__ == "__main__":
    unittest.main()
