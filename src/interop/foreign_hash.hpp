// SPDX-License-Identifier: Apache-2.0
// foreign_hash.hpp -- filters that hash and place keys as another system
// does (format 1.5), so a filter moved out of that system answers exactly
// as it did and keeps taking adds:
//
//   hash             kind                     that system's
//   guava (5)        classic                  BloomFilter, MURMUR128_MITZ_64
//   bits-and-blooms  classic                  Go bits-and-blooms/bloom v3
//   parquet (7)      blocked, split blocks    split-block filter (BloomFilter.md)
//
// Each is a hash mode of an existing kind, the way the redisbloom hash is:
// the kind's array holds the other system's bits as they are (its file
// format is a byte order and a header away: interop/*_codec.cpp), and the
// hash kind selects the positions (kinds/classic_modulo.cpp,
// kinds/classic_bits_and_blooms.cpp, kinds/split_block.hpp). These systems
// have no seed, no concurrent adds and (Guava, bits-and-blooms) one probe
// rule, so a filter of these hashes has seed 0, no BLOOM_FLAG_CONCURRENT,
// and for the classic ones plain unmixed probes.
#pragma once

#include <cstdint>

#include "filter_config.hpp"
#include "options.hpp"

namespace bloom::core {

// The name the C API gives the hash, for messages.
const char *foreign_hash_name(HashKind h);

// configure() for a foreign hash: checks the kind and options, then sizes as
// the other system does for (capacity, fp_rate), or takes explicit bits and
// hashes. Throws Error(INVALID_ARG / OVERFLOW).
void configure_foreign(const Options &o, FilterConfig &c);

// validate_config()'s part for a foreign hash (create and load alike).
void validate_foreign(const FilterConfig &c);

// Each system's sizing for n keys at rate p, as its own create does.
struct ForeignShape {
  uint64_t bits;
  uint32_t hashes;
};
// Guava 31: bits = floor(-n ln p / ln^2 2) rounded up to a multiple of 64
// (its array of longs), k = round(bits / n * ln 2) from the unrounded bits.
ForeignShape guava_shape(uint64_t n, double p);
// bits-and-blooms v3 EstimateParameters: m = ceil(-n ln p / ln^2 2),
// k = ceil(ln 2 * m / n).
ForeignShape bits_and_blooms_shape(uint64_t n, double p);
// parquet-java: -8 n / ln(1 - p^(1/8)) bits as bytes, rounded up to a power
// of two within [32 bytes, 128 MiB]; k = 8.
ForeignShape parquet_shape(uint64_t n, double p);

}  // namespace bloom::core
