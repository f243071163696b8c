// SPDX-License-Identifier: Apache-2.0
#include "interop/foreign_hash.hpp"

#include <cmath>
#include <string>

#include "error.hpp"
#include "kind_table.hpp"

namespace bloom::core {

namespace {

// Parquet writers' bounds on a filter's bytes (parquet-java's
// BlockSplitBloomFilter): one 32-byte block to 128 MiB.
constexpr uint64_t kParquetMinBytes = 32;
constexpr uint64_t kParquetMaxBytes = uint64_t{128} << 20;
// Guava counts its longs and Parquet its bytes in a Java int.
constexpr uint64_t kJavaIntMax = 0x7fffffff;

std::string name_of(const FilterConfig &c) { return foreign_hash_name(c.hash); }

uint32_t checked_hashes(uint64_t k, const char *what) {
  if (k > BLOOM_MAX_HASHES)
    fail(Status::kOverflow, std::string(what) + " needs k = " + std::to_string(k) + " hashes, more than 64");
  return static_cast<uint32_t>(k < 1 ? 1 : k);
}

uint64_t checked_bits(double bits, const char *what) {
  if (!(bits >= 1.0) || bits > static_cast<double>(BLOOM_MAX_BITS))
    fail(Status::kOverflow,
         std::string(what) + " sizing gives " + std::to_string(bits) + " bits, outside [1, 2^40]");
  return static_cast<uint64_t>(bits);
}

}  // namespace

const char *foreign_hash_name(HashKind h) {
  switch (h) {
    case HashKind::kGuava:
      return "guava";
    case HashKind::kBitsAndBlooms:
      return "bits-and-blooms";
    case HashKind::kParquet:
      return "parquet";
    default:
      return "?";
  }
}

ForeignShape guava_shape(uint64_t n, double p) {
  const double ln2 = std::log(2.0);
  const double dn = static_cast<double>(n);
  // Java's (long) cast truncates toward zero, as static_cast does.
  const uint64_t raw = checked_bits(std::trunc(-dn * std::log(p) / (ln2 * ln2)), "Guava's");
  const uint64_t bits = (raw + 63) / 64 * 64;
  // Java's Math.round is floor(x + 0.5).
  const double k = std::floor(static_cast<double>(raw) / dn * ln2 + 0.5);
  return {bits, checked_hashes(static_cast<uint64_t>(k), "Guava's sizing")};
}

ForeignShape bits_and_blooms_shape(uint64_t n, double p) {
  const double ln2 = std::log(2.0);
  const double dn = static_cast<double>(n);
  const uint64_t m = checked_bits(std::ceil(-dn * std::log(p) / (ln2 * ln2)), "bits-and-blooms'");
  const double k = std::ceil(ln2 * static_cast<double>(m) / dn);
  return {m, checked_hashes(static_cast<uint64_t>(k), "bits-and-blooms' sizing")};
}

ForeignShape parquet_shape(uint64_t n, double p) {
  const double bits = -8.0 * static_cast<double>(n) / std::log(1.0 - std::pow(p, 1.0 / 8.0));
  uint64_t bytes = kParquetMaxBytes;
  if (bits >= 0 && bits / 8.0 < static_cast<double>(kParquetMaxBytes)) {
    bytes = kParquetMinBytes;
    while (static_cast<double>(bytes) * 8.0 < bits) bytes *= 2;
  }
  return {bytes * 8, 8};
}

void configure_foreign(const Options &o, FilterConfig &c) {
  const std::string name = name_of(c);
  if (c.concurrent())
    fail(Status::kInvalidArg, "the " + name + " hash does not take BLOOM_FLAG_CONCURRENT (" + name +
                                  "'s filters have no concurrent adds)");
  if (c.seed != 0) fail(Status::kInvalidArg, "the " + name + " hash has no seed; seed must be 0");
  c.capacity = o.capacity;
  if (c.hash == HashKind::kParquet) {
    if (!describe(c.kind).can(BLOOM_CAP_SPLIT_BLOCK))
      fail(Status::kInvalidArg, "the parquet hash is defined for blocked filters (split blocks), not " +
                                    std::string(describe(c.kind).name));
    if (o.hashes != 0 && o.hashes != 8)
      fail(Status::kInvalidArg, "Parquet's filters have k = 8; hashes = " + std::to_string(o.hashes));
    c.flags |= BLOOM_FLAG_SPLIT_BLOCK | kFlagBlockedLayout2;
    c.hashes = 8;
    if (o.bits != 0) {
      c.bits = o.bits;
      c.fp_rate = 0;
    } else {
      c.bits = parquet_shape(o.capacity, o.fp_rate).bits;
      c.fp_rate = o.fp_rate;
    }
    return;
  }
  // Guava's and bits-and-blooms' filters are one bit array probed k times
  // anywhere: the classic kind, which no capability bit singles out.
  if (c.kind != Kind::kClassic)
    fail(Status::kInvalidArg, "the " + name + " hash is defined for classic filters only, not " +
                                  std::string(describe(c.kind).name));
  if (o.hashes > BLOOM_MAX_HASHES)
    fail(Status::kInvalidArg, "hashes = " + std::to_string(o.hashes) + " exceeds the maximum of 64");
  c.flags |= BLOOM_FLAG_PLAIN_DOUBLE_HASHING;
  const bool guava = c.hash == HashKind::kGuava;
  if (o.bits == 0) {
    const ForeignShape s =
        guava ? guava_shape(o.capacity, o.fp_rate) : bits_and_blooms_shape(o.capacity, o.fp_rate);
    c.bits = s.bits;
    c.hashes = o.hashes != 0 ? o.hashes : s.hashes;
    c.fp_rate = o.fp_rate;
    return;
  }
  if (o.bits > BLOOM_MAX_BITS)
    fail(Status::kOverflow, "bits = " + std::to_string(o.bits) + " exceeds the 2^40 limit");
  if (o.hashes == 0 && o.capacity == 0)
    fail(Status::kInvalidArg, "with explicit bits, give hashes or a capacity to derive them from");
  c.bits = o.bits;
  c.fp_rate = 0;
  if (o.hashes != 0) {
    c.hashes = o.hashes;
  } else {
    const double per_key = std::log(2.0) * static_cast<double>(o.bits) / static_cast<double>(o.capacity);
    c.hashes = checked_hashes(static_cast<uint64_t>(guava ? std::floor(per_key + 0.5) : std::ceil(per_key)),
                              "this size");
  }
}

void validate_foreign(const FilterConfig &c) {
  const std::string name = name_of(c);
  if (c.concurrent()) fail(Status::kInvalidArg, "the " + name + " hash does not take BLOOM_FLAG_CONCURRENT");
  if (c.seed != 0) fail(Status::kInvalidArg, "the " + name + " hash has no seed; seed must be 0");
  if (c.hash == HashKind::kParquet) {
    if (!describe(c.kind).can(BLOOM_CAP_SPLIT_BLOCK) || !c.split_block())
      fail(Status::kInvalidArg, "the parquet hash is defined only for blocked filters with split blocks");
    if (c.bits / 8 > kJavaIntMax)
      fail(Status::kOverflow, "a Parquet filter holds at most 2^31 - 1 bytes; m = " + std::to_string(c.bits));
    return;
  }
  if (c.kind != Kind::kClassic)
    fail(Status::kInvalidArg, "the " + name + " hash is defined for classic filters only");
  if (c.enhanced_probes() || c.mixed_probes())
    fail(Status::kInvalidArg, "the " + name + " hash takes plain, unmixed probes (" + name + "'s positions)");
  if (c.hash == HashKind::kGuava) {
    if (c.bits % 64 != 0)
      fail(Status::kInvalidArg,
           "Guava's filters have m a multiple of 64 (an array of longs); m = " + std::to_string(c.bits));
    if (c.bits / 64 > kJavaIntMax)
      fail(Status::kOverflow, "a Guava filter holds at most 2^31 - 1 longs; m = " + std::to_string(c.bits));
  }
}

}  // namespace bloom::core
