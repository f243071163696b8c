// save_path.hpp -- which file a save replaces, and the name of the temporary
// file it writes first.
#pragma once

#include <cstdint>
#include <string>

namespace bloom::core {

// The directory part of path ("." when there is none, "/" for the root).
std::string directory_of(const std::string &path);

// The file a save of `path` replaces: path itself, or, when path is a
// symbolic link (a chain of them), the file it points to, so the link stays
// a link and its target receives the new filter -- what editors and
// `sed -i --follow-symlinks` do; renaming onto the link itself would turn it
// into a regular file and leave the target stale. A dangling link names the
// file to create. Throws Error(IO) for an unreadable link or more than 40 in
// a chain (ELOOP).
std::string save_target(const std::string &path);

// "<target>.tmp.<pid>.<n>" in target's directory; when that is longer than
// a file name may be (255 bytes), target's own name is cut short first, so a
// valid 250-byte name can still be saved.
std::string temp_name_for(const std::string &target, uint64_t n);

}  // namespace bloom::core
