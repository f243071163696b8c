// SPDX-License-Identifier: Apache-2.0
// kind_table.hpp -- one descriptor per filter kind, and the table of them.
//
// Everything the library knows of a kind outside the kind's own class is in
// its descriptor: its name, how options become its sizes, how a
// configuration is validated (once, for create and load alike), how it is
// created and loaded, which format flags its files may carry and what its
// adds do. Each kind defines its descriptor in src/kinds/<kind>_kind.cpp;
// src/kinds/registry.cpp lists them. Every consumer reads this table: the C
// API's names (bloom_kind_name / bloom_kind_from_name, which the CLI and the
// Python package read in turn), configure(), the header's flag rules, the
// loader, and the filter's add paths. docs/ARCHITECTURE.md has the recipe
// for a new kind.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "bloom/bloom.h"
#include "filter_config.hpp"
#include "options.hpp"

namespace bloom::core {

class Filter;
class ByteSource;
struct Header;

// Whether a kind's new filters mix their probe values (kFlagMixedProbes,
// needs_mixed_probes in configure.hpp).
enum class MixedProbes : uint8_t {
  kNever,      // no double-hashing probe sequence (blocked)
  kAlways,     // scalable stages, window slices
  kWhenSmall,  // where unmixed double hashing's excess rate matters
};

struct KindDescriptor {
  Kind kind;
  const char *name;  // bloom_kind_name's answer: lower case, one word
  // Flags (filter_config.hpp) a filter of this kind may carry beyond
  // kCommonFlags: format flags and kind-specific options
  // (BLOOM_FLAG_SPLIT_BLOCK); any other is BLOOM_E_INVALID_ARG at create
  // and BLOOM_E_FORMAT in a file.
  uint32_t file_flags;
  // The format minor that introduced the kind: its files are written with
  // at least this minor (header.hpp's format_minor_for).
  uint16_t format_minor;
  // Adding a key that is fully present changes nothing (the kind only ORs
  // bits in), so a concurrent test-and-add may skip its lock (filter.cpp).
  bool adds_only_set_bits;
  // What the kind can do: BLOOM_CAP_* bits, bloom_kind_caps' answer and the
  // one place consumers and the core ask. BLOOM_CAP_REDISBLOOM_HASH brings
  // ProbeScheme::kModulo (RedisBloom's filters are classic arrays, alone or
  // chained); BLOOM_CAP_SPLIT_BLOCK goes with BLOOM_FLAG_SPLIT_BLOCK in
  // file_flags (a test holds the two together).
  unsigned caps;
  MixedProbes mixed_probes;
  // From the caller's options (defaults applied, range-checked for the
  // fields every kind shares) to a sized configuration: m, k and the kind's
  // own parameters. Throws Error naming the option that is wrong.
  void (*size)(const Options &o, FilterConfig &c);
  // Throws Error unless c is a complete, valid configuration of the kind.
  // create and load both call it, so a file never describes a filter that
  // create would refuse.
  void (*validate)(const FilterConfig &c);
  std::unique_ptr<Filter> (*create)(const FilterConfig &c);
  // Reads the payload of a file whose header h has passed decode_header;
  // validates h for the kind first (validate_loaded, kinds/kind_support.hpp).
  std::unique_ptr<Filter> (*load)(const Header &h, ByteSource &src, bool zero_copy);

  bool can(unsigned cap) const { return (caps & cap) == cap; }
};

// The descriptor of kind number v, or nullptr when there is none.
const KindDescriptor *find_kind(int32_t v);
// The descriptor of a kind known to exist (a Kind held in a FilterConfig,
// which only ever comes from find_kind's table).
const KindDescriptor &describe(Kind k);
// Every kind, in kind-number order.
const KindDescriptor *const *kinds_begin();
const KindDescriptor *const *kinds_end();
// The names of the kinds that have every bit of cap, for error messages:
// "blocked", "classic and scalable", "a, b and c".
std::string kinds_with(unsigned cap);

}  // namespace bloom::core
