// SPDX-License-Identifier: Apache-2.0
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

// The process id in a name temp_name_for made for target, or 0 when name is
// not one of target's temporary names.
long temp_name_owner(const std::string &target, const std::string &name);

// Removes target's temporary files left by processes that no longer exist
// (killed between writing and renaming: about 1 save in 100 killed at
// random left one). Files of live processes, this one included, are theirs
// to finish; errors are ignored (a leftover is untidy, not wrong).
void remove_stale_temp_files(const std::string &target);

}  // namespace bloom::core
