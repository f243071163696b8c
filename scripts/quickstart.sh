#!/usr/bin/env bash
# The README's first command: install what is missing, build, and run the main
# job -- build a filter from the shipped sample keys, query it, print its info.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build build -j"$(nproc)"
scripts/cli-demo.sh
