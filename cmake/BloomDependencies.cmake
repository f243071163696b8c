# SPDX-License-Identifier: Apache-2.0
# xxHash comes from the system (Debian: libxxhash-dev). The library uses it
# header-only (XXH_INLINE_ALL), so nothing links against libxxhash at run time.
find_package(PkgConfig REQUIRED)
pkg_check_modules(XXHASH REQUIRED libxxhash>=0.8.0)
find_path(XXHASH_HEADER_DIR xxhash.h HINTS ${XXHASH_INCLUDE_DIRS} REQUIRED)

find_package(Threads REQUIRED)
