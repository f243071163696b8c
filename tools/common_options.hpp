// SPDX-License-Identifier: Apache-2.0
// common_options.hpp -- options shared by several commands: how keys are read
// (--fasta, --fastq, --kmer, --canonical) and filter parameters by name.
#pragma once

#include <bloom/bloom.h>

#include <string>
#include <vector>

#include "args.hpp"
#include "key_reader.hpp"

namespace bloom_cli {

// --fasta/-f, --fastq, --kmer K, --canonical, --no-canonical, --literal.
extern const std::vector<OptionSpec> kKeyFormatOptions;
KeyFormat parse_key_format(const Args &args);

// A kind or hasher by its library name (bloom_kind_from_name); the error
// lists the valid names.
int parse_kind(const std::string &name);
// The library's kinds by name, "classic, partitioned, ..." (bloom_kind_at,
// bloom_kind_name), or those with every BLOOM_CAP_* bit of need.
std::string kind_names(unsigned need = 0);
int parse_hash(const std::string &name);
// The library's hashes by name, "xxh3, murmur3, ..." (bloom_hash_name).
std::string hash_names();
// Whether a kind's filters hold a fixed number of keys at their rate (past
// it the rate climbs): not those that grow or forget old keys.
bool has_fixed_capacity(int kind);
// A whole number that may be 0 (seeds): decimal digits, or 0x and hex
// digits; no sign, blanks or separators.
uint64_t parse_uint(const std::string &text, const std::string &what);
// A number of hash functions, 1 to BLOOM_MAX_HASHES (checked here, before a
// narrowing cast could wrap 2^32 + 1 around to 1).
uint32_t parse_hashes(const std::string &text, const std::string &what);

// Sets kind, hash, seed, -p, -n, growth and tightening from the options that
// are present: --kind, --hash, --seed, -p/--rate, -n/--capacity, and for
// scalable filters --growth (capacity factor per stage, default 2) and
// --tightening (error factor per stage, default 0.85; seed 000 uses 0.9).
extern const std::vector<OptionSpec> kFilterOptions;
void apply_filter_options(const Args &args, bloom_options *o);

template <typename T>
std::vector<T> concat(std::vector<T> a, const std::vector<T> &b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

}  // namespace bloom_cli
