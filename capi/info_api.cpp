// SPDX-License-Identifier: Apache-2.0
// info_api.cpp -- the C entry points that need no filter: math, names,
// status strings, versions.
#include <cmath>
#include <cstring>
#include <limits>

#include "bloom/bloom.h"
#include "guard.hpp"
#include "kind_table.hpp"
#include "sizing.hpp"
#include "small_filter_sizing.hpp"

using bloom::capi::guarded;
using bloom::capi::require_arg;
namespace core = bloom::core;

namespace {

struct Name {
  int value;
  const char *name;
};
constexpr Name kHashNames[] = {{BLOOM_HASH_XXH3, "xxh3"},
                               {BLOOM_HASH_MURMUR3, "murmur3"},
                               {BLOOM_HASH_FNV1A, "fnv1a"},
                               {BLOOM_HASH_REDISBLOOM, "redisbloom"}};

template <size_t N>
const char *name_of(const Name (&table)[N], int value) {
  for (const Name &n : table)
    if (n.value == value) return n.name;
  return nullptr;
}

template <size_t N>
int value_of(const Name (&table)[N], const char *name) {
  if (name == nullptr) return 0;
  for (const Name &n : table)
    if (std::strcmp(n.name, name) == 0) return n.value;
  return 0;
}

}  // namespace

extern "C" {

bloom_status bloom_optimal_params(uint64_t n, double p, uint64_t *bits, uint32_t *hashes) {
  return guarded("bloom_optimal_params", [&] {
    require_arg(bits, "bits");
    require_arg(hashes, "hashes");
    const core::Shape s = core::fit_small_filter(core::optimal_shape(n, p), n, p, 0, false);
    *bits = s.bits;
    *hashes = s.hashes;
  });
}

double bloom_expected_fp_rate(uint64_t n, uint64_t bits, uint32_t hashes) {
  if (bits == 0 || hashes == 0) {
    bloom::capi::set_error("bloom_expected_fp_rate", BLOOM_E_INVALID_ARG, "bits and hashes must be non-zero");
    return std::numeric_limits<double>::quiet_NaN();
  }
  return core::classic_fp_rate(static_cast<double>(n), bits, hashes);
}

const char *bloom_strerror(int status) {
  switch (status) {
    case BLOOM_OK:
      return "success";
    case BLOOM_E_INVALID_ARG:
      return "invalid argument";
    case BLOOM_E_NOMEM:
      return "out of memory";
    case BLOOM_E_IO:
      return "input/output error";
    case BLOOM_E_FORMAT:
      return "not a valid bloom filter image";
    case BLOOM_E_CHECKSUM:
      return "checksum mismatch: the data is damaged";
    case BLOOM_E_VERSION:
      return "unsupported format version";
    case BLOOM_E_UNSUPPORTED:
      return "operation not supported by this filter";
    case BLOOM_E_INCOMPATIBLE:
      return "filters have incompatible parameters";
    case BLOOM_E_OVERFLOW:
      return "size exceeds the library's limits";
    case BLOOM_E_BUFFER_TOO_SMALL:
      return "buffer too small";
    case BLOOM_E_NOT_PRESENT:
      return "key is not in the filter";
    default:
      return "unknown status";
  }
}

// Kind names come from the kind table, the one list of kinds.
const char *bloom_kind_name(int kind) {
  const core::KindDescriptor *d = core::find_kind(kind);
  return d != nullptr ? d->name : nullptr;
}
const char *bloom_hash_name(int hash) { return name_of(kHashNames, hash); }
int bloom_kind_from_name(const char *name) {
  if (name == nullptr) return 0;
  for (auto d = core::kinds_begin(); d != core::kinds_end(); ++d)
    if (std::strcmp((*d)->name, name) == 0) return static_cast<int>((*d)->kind);
  return 0;
}
int bloom_hash_from_name(const char *name) { return value_of(kHashNames, name); }

unsigned bloom_kind_caps(int kind) {
  const core::KindDescriptor *d = core::find_kind(kind);
  return d != nullptr ? d->caps : 0;
}
int bloom_kind_count(void) { return static_cast<int>(core::kinds_end() - core::kinds_begin()); }
int bloom_kind_at(int i) {
  if (i < 0 || i >= bloom_kind_count()) return 0;
  return static_cast<int>(core::kinds_begin()[i]->kind);
}

#define BLOOM_STR2(x) #x
#define BLOOM_STR(x) BLOOM_STR2(x)
const char *bloom_version_string(void) {
  return BLOOM_STR(BLOOM_VERSION_MAJOR) "." BLOOM_STR(BLOOM_VERSION_MINOR) "." BLOOM_STR(BLOOM_VERSION_PATCH);
}
unsigned bloom_version_number(void) { return BLOOM_VERSION_NUMBER; }

}  // extern "C"
