# SPDX-License-Identifier: Apache-2.0
"""Runs an example that needs Dask (argv[1:]) with this interpreter, or
says that it skips (no Dask on a developer machine; never when CI is set,
where a missing Dask is an error: dask_helpers.require_dask)."""

import os
import sys
import unittest

from dask_helpers import require_dask

try:
    require_dask()
except unittest.SkipTest as e:
    print(f"skipped: {e}")
    sys.exit(0)
os.execv(sys.executable, [sys.executable, *sys.argv[1:]])
