// SPDX-License-Identifier: Apache-2.0
// cmd_stats.cpp -- `bloom stats`: what a filter file is and how full it is.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "args.hpp"
#include "cli_error.hpp"
#include "commands.hpp"
#include "filter_file.hpp"
#include "json_text.hpp"
#include "numbers.hpp"

namespace bloom_cli {

namespace {

const char kHelp[] =
    "Usage: bloom stats FILTER [--json]\n"
    "\n"
    "Describe a filter file: kind, hasher, seed, m (bits), k (hashes), memory,\n"
    "the capacity and rate it was sized for, keys added, distinct keys estimated\n"
    "from the fill, the fill ratio and the false-positive rate expected now.\n"
    "A window filter adds its window, slices (k + l, bits each), generation\n"
    "size, the current generation and its lines, and its clock.\n"
    "\n"
    "Options:\n"
    "  --json    one JSON object instead of aligned text\n"
    "\n"
    "Example:\n"
    "  bloom stats keys.bloom --json\n";

const std::vector<OptionSpec> kOptions = {{"json", 0, false}};

using ull = unsigned long long;

// A kind that forgets on a schedule (the window) has the window members.
bool forgets(const bloom_info &i) { return (bloom_kind_caps(i.kind) & BLOOM_CAP_FORGETS) != 0; }

// A window filter's own fields (bloom_info's window members), all of them.
std::string window_json(const bloom_info &i) {
  char buf[512];
  std::snprintf(buf, sizeof buf,
                ", \"window\": {\"window_ms\": %llu, \"k\": %u, \"l\": %u, \"slice_bits\": %llu, "
                "\"generation_capacity\": %llu, \"generation\": %llu, \"generation_keys\": %llu, "
                "\"generation_ms\": %llu, \"clock_ms\": %llu, \"generation_start_ms\": %llu}",
                ull{i.window_ms}, i.window_k, i.window_l, ull{i.slice_bits}, ull{i.generation_capacity},
                ull{i.generation}, ull{i.generation_keys}, ull{i.generation_ms}, ull{i.clock_ms},
                ull{i.generation_start_ms});
  return buf;
}

void print_json(const std::string &path, const bloom_info &i) {
  std::printf(
      "{\"file\": %s, \"kind\": %s, \"hash\": %s, \"seed\": %llu, \"flags\": %s, \"bits\": %llu, \"hashes\": "
      "%u, "
      "\"bytes\": %llu, \"capacity\": %llu, \"fp_rate\": %s, \"keys_added\": %llu, \"estimated_keys\": %s, "
      "\"fill_ratio\": %s, \"expected_fp_rate\": %s, \"stages\": %u, \"counter_bits\": %u, \"growth\": %s, "
      "\"tightening\": %s, \"format\": \"%u.%u\"%s}\n",
      json_string(path).c_str(), json_string(kind_label(i.kind)).c_str(),
      json_string(hash_label(i.hash)).c_str(), static_cast<unsigned long long>(i.seed),
      json_string(flags_text(i.flags)).c_str(), static_cast<unsigned long long>(i.bits), i.hashes,
      static_cast<unsigned long long>(i.bytes), static_cast<unsigned long long>(i.capacity),
      json_number(i.fp_rate).c_str(), static_cast<unsigned long long>(i.keys_added),
      json_number(i.estimated_keys).c_str(), json_number(i.fill_ratio).c_str(),
      json_number(i.expected_fp_rate).c_str(), i.stages, i.counter_bits, json_number(i.growth).c_str(),
      json_number(i.tightening).c_str(), unsigned{i.format_major}, unsigned{i.format_minor},
      forgets(i) ? window_json(i).c_str() : "");
}

void row(const char *label, const std::string &value) { std::printf("%-18s %s\n", label, value.c_str()); }

void print_text(const std::string &path, const bloom_info &i) {
  row("file", path);
  row("kind", kind_label(i.kind));
  row("hash", hash_label(i.hash));
  row("seed", std::to_string(i.seed));
  row("flags", flags_text(i.flags));
  row("m (bits)", format_count(i.bits));
  row("k (hashes)", std::to_string(i.hashes));
  row("bytes", format_count(i.bytes) + " (" + format_bytes(i.bytes) + ")");
  row("capacity", format_count(i.capacity));
  row("target fp rate", i.fp_rate > 0 ? format_double(i.fp_rate) : "none (sized by m and k)");
  row("keys added", format_count(i.keys_added));
  row("estimated keys", std::isfinite(i.estimated_keys)
                            ? format_count(static_cast<uint64_t>(std::llround(i.estimated_keys)))
                            : "unknown (every bit is set)");
  row("fill ratio", format_double(i.fill_ratio, 4));
  row("expected fp rate", format_double(i.expected_fp_rate, 4));
  if ((bloom_kind_caps(i.kind) & BLOOM_CAP_GROWS) != 0) {
    row("stages", std::to_string(i.stages));
    row("growth", format_double(i.growth));
    row("tightening", format_double(i.tightening));
  }
  if (i.counter_bits > 1) row("counter bits", std::to_string(i.counter_bits));
  if (forgets(i)) {
    row("window", i.window_ms != 0 ? format_count(i.window_ms) + " ms (time), at most " +
                                         format_count(i.capacity) + " keys"
                                   : format_count(i.capacity) + " keys (count)");
    row("slices (k + l)", std::to_string(i.window_k) + " + " + std::to_string(i.window_l) + " of " +
                              format_count(i.slice_bits) + " bits");
    row("generation size", format_count(i.generation_capacity) + " keys" +
                               (i.window_ms != 0 ? ", " + format_count(i.generation_ms) + " ms" : ""));
    row("generation", format_count(i.generation) + " (retired so far), holding " +
                          format_count(i.generation_keys) + " keys");
    if (i.window_ms != 0) {
      row("clock (ms)", std::to_string(i.clock_ms));
      row("generation start", std::to_string(i.generation_start_ms) + " ms (retires at " +
                                  std::to_string(i.generation_start_ms + i.generation_ms) + ")");
    }
  }
  row("file format", std::to_string(i.format_major) + "." + std::to_string(i.format_minor));
}

int run(int argc, char **argv) {
  const Args args(kOptions, argc, argv, 2);
  if (args.help()) {
    print_help(kStatsCommand);
    return kExitOk;
  }
  const auto &pos = args.positional();
  if (pos.size() != 1) throw CliError("expected exactly one FILTER file (see bloom stats --help)");
  const FilterPtr filter = open_filter_readonly(pos[0]);
  const bloom_info info = filter_info(filter.get());
  if (args.has("json")) {
    print_json(pos[0], info);
  } else {
    print_text(pos[0], info);
  }
  return kExitOk;
}

}  // namespace

const Command kStatsCommand{"stats", "describe a filter: parameters, fill, expected FPR (--json)", kHelp,
                            run};

}  // namespace bloom_cli
