#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# pip from source, as a user does it: Debian's python3 makes a venv and
# `pip install .` builds the library and the extension with CMake (a fresh
# Release build in a temporary directory, no reused build, no network:
# --no-index); the package must then import and work from the venv alone.
# tests/python/pip/test_pip_package.py, VenvInstallTest (ctest's run of it
# reuses the CI build instead). A few minutes: one library build.
set -euo pipefail
cd "$(dirname "$0")/../.."
echo "pip: from-source install of bloomkit into a venv of /usr/bin/python3"
start=$(date +%s)
env -u BLOOMKIT_CMAKE_BUILD_DIR CMAKE_BUILD_PARALLEL_LEVEL=2 BLOOM_TEST_EXPECT_IMPLEMENTATION=cext \
  /usr/bin/python3 -m unittest -v tests/python/pip/test_pip_package.py -k VenvInstallTest
echo "pip: from-source venv install passed in $(( $(date +%s) - start )) s"
