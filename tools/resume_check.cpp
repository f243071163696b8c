// SPDX-License-Identifier: Apache-2.0
#include "resume_check.hpp"

#include <vector>

#include "cli_error.hpp"
#include "filter_file.hpp"
#include "numbers.hpp"

namespace bloom_cli {

std::string window_label(uint64_t window_ms, uint64_t count) {
  if (window_ms == 0) return std::to_string(count);
  struct Unit {
    uint64_t ms;
    const char *suffix;
  };
  for (const Unit u : {Unit{86400000, "d"}, Unit{3600000, "h"}, Unit{60000, "min"}, Unit{1000, "s"}})
    if (window_ms % u.ms == 0) return std::to_string(window_ms / u.ms) + u.suffix;
  return std::to_string(window_ms) + "ms";
}

void check_resumed(const bloom_info &info, const bloom_options &o, const Args &args,
                   const std::string &path) {
  const std::string holds = "--resume " + path + " holds a " + kind_label(info.kind) + " filter";
  const unsigned caps = bloom_kind_caps(info.kind);
  const bool window = (caps & BLOOM_CAP_FORGETS) != 0;
  if (info.kind != o.kind) {
    const std::string saved = window ? "--window " + window_label(info.window_ms, info.capacity) +
                                           (info.window_ms != 0 ? " -n " + std::to_string(info.capacity) : "")
                                     : "--kind " + kind_label(info.kind);
    throw CliError(holds + ", not a " + kind_label(o.kind) + " one: resume it with " + saved +
                   ", or give another file");
  }
  std::vector<std::string> differ;
  if (window && (info.window_ms != o.window_ms || (info.window_ms == 0 && info.capacity != o.capacity)))
    differ.push_back("--window " + window_label(info.window_ms, info.capacity));
  if (window && info.window_ms != 0 && info.capacity != o.capacity)
    differ.push_back("-n " + std::to_string(info.capacity));
  // A growing (scalable) filter reports the capacity of all its stages, not
  // the first stage's -n; a different -n only sizes stages not yet made.
  if (!window && (caps & BLOOM_CAP_GROWS) == 0 && args.has("capacity") && info.capacity != o.capacity)
    differ.push_back("-n " + std::to_string(info.capacity));
  if (args.has("rate") && info.fp_rate != o.fp_rate) differ.push_back("-p " + format_double(info.fp_rate));
  if (args.has("hash") && info.hash != o.hash) differ.push_back("--hash " + hash_label(info.hash));
  if (args.has("seed") && info.seed != o.seed) differ.push_back("--seed " + std::to_string(info.seed));
  if (args.has("growth") && info.growth != o.growth)
    differ.push_back("--growth " + format_double(info.growth));
  if (args.has("tightening") && info.tightening != o.tightening)
    differ.push_back("--tightening " + format_double(info.tightening));
  if (args.has("split-block") && (info.flags & BLOOM_FLAG_SPLIT_BLOCK) == 0)
    differ.push_back("no --split-block");
  if (differ.empty()) return;
  std::string list;
  for (const std::string &d : differ) list += (list.empty() ? "" : ", ") + d;
  throw CliError(
      holds + " saved with " + list +
      ": options given with --resume must match the saved filter (leave them out to keep its own), "
      "or give another file");
}

}  // namespace bloom_cli
