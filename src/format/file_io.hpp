// SPDX-License-Identifier: Apache-2.0
// file_io.hpp -- filters to and from files: atomic save, load, read-only map.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <memory>

#include "filter.hpp"

namespace bloom::core {

// Writes f to path atomically: a temporary file next to path is written,
// fsync'ed and renamed over it, then the directory is fsync'ed. On any
// failure the temporary file is removed and path is untouched. Where the
// file system has O_TMPFILE the file is written unnamed and named only just
// before the rename, so a killed save leaves nothing behind. A symbolic
// link is followed (its target is replaced; save_path.hpp), and a replaced
// file keeps its permissions. Throws Error.
void save_file(const Filter &f, const char *path);

// Reads a whole file as format v1. Throws Error (IO for missing, unreadable
// or non-regular files).
std::unique_ptr<Filter> load_file(const char *path);

// Maps a file read-only and returns a filter that queries it in place.
std::unique_ptr<Filter> map_file(const char *path);

// The system calls save_file uses, replaceable by tests to inject failures.
struct FileOps {
  ssize_t (*write)(int fd, const void *buf, size_t len);
  int (*fsync)(int fd);
  int (*rename)(const char *from, const char *to);
  // An unnamed file in a directory (O_TMPFILE), and giving it a name; -1
  // with errno makes the save fall back to a named temporary file.
  int (*open_unnamed)(const char *dir);
  int (*link_unnamed)(int fd, const char *name);
};
FileOps &file_ops();

}  // namespace bloom::core
