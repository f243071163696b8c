#include "kinds/registry.hpp"

#include <string>

#include "bloom/bloom.h"
#include "error.hpp"
#include "kinds/blocked.hpp"
#include "kinds/blocked_line.hpp"
#include "kinds/classic.hpp"
#include "kinds/partitioned.hpp"

namespace bloom::core {

namespace {

const char *kind_name(Kind k) { return bloom_kind_name(static_cast<int>(k)); }

[[noreturn]] void unsupported_kind(Kind k) {
  fail(BLOOM_E_UNSUPPORTED, std::string("the ") + kind_name(k) + " kind is not implemented in this version");
}

void require(bool ok, const std::string &what) {
  if (!ok) fail(BLOOM_E_FORMAT, what);
}

}  // namespace

void validate_config(const FilterConfig &c) {
  if (c.bits < 1 || c.bits > BLOOM_MAX_BITS)
    fail(BLOOM_E_OVERFLOW, "bit count m = " + std::to_string(c.bits) + " is outside [1, 2^40]");
  if (c.hashes < 1 || c.hashes > BLOOM_MAX_HASHES)
    fail(BLOOM_E_INVALID_ARG, "hash count k = " + std::to_string(c.hashes) + " is outside [1, 64]");
  switch (c.kind) {
    case Kind::kClassic:
      if (c.counter_bits != 0 || c.growth != 0 || c.tightening != 0)
        fail(BLOOM_E_INVALID_ARG, "classic filters take no counter, growth or tightening parameters");
      return;
    case Kind::kPartitioned:
      if (c.counter_bits != 0 || c.growth != 0 || c.tightening != 0)
        fail(BLOOM_E_INVALID_ARG, "partitioned filters take no counter, growth or tightening parameters");
      if (c.bits < c.hashes)
        fail(BLOOM_E_INVALID_ARG, "partitioned filters need m >= k (one bit per slice); m = " +
                                      std::to_string(c.bits) + ", k = " + std::to_string(c.hashes));
      return;
    case Kind::kBlocked:
      if (c.counter_bits != 0 || c.growth != 0 || c.tightening != 0)
        fail(BLOOM_E_INVALID_ARG, "blocked filters take no counter, growth or tightening parameters");
      if (c.bits % blocked::kLineBits != 0)
        fail(BLOOM_E_INVALID_ARG,
             "blocked filters need m to be a multiple of 512; m = " + std::to_string(c.bits));
      if (!c.enhanced_probes())
        fail(BLOOM_E_INVALID_ARG, "BLOOM_FLAG_PLAIN_DOUBLE_HASHING does not apply to blocked filters");
      return;
    default:
      unsupported_kind(c.kind);
  }
}

std::unique_ptr<Filter> create_filter(const FilterConfig &c) {
  switch (c.kind) {
    case Kind::kClassic:
      return std::make_unique<ClassicFilter>(c);
    case Kind::kPartitioned:
      return std::make_unique<PartitionedFilter>(c);
    case Kind::kBlocked:
      return std::make_unique<BlockedFilter>(c);
    default:
      unsupported_kind(c.kind);
  }
}

std::unique_ptr<Filter> load_filter(const Header &h, ByteSource &src, bool zero_copy) {
  try {
    validate_config(h.config);
  } catch (const Error &e) {
    if (e.status() == BLOOM_E_UNSUPPORTED) throw;
    fail(BLOOM_E_FORMAT, std::string("header describes an invalid filter: ") + e.what());
  }
  switch (h.config.kind) {
    case Kind::kClassic:
      require(h.stages == 1, "classic filter with a stage count other than 1");
      require(h.payload_size == ClassicFilter::payload_size_for(h.config.bits),
              "payload size " + std::to_string(h.payload_size) +
                  " does not fit m = " + std::to_string(h.config.bits));
      return ClassicFilter::load(h.config, src, zero_copy);
    case Kind::kPartitioned:
      require(h.stages == 1, "partitioned filter with a stage count other than 1");
      require(h.payload_size == PartitionedFilter::payload_size_for(h.config.bits),
              "payload size " + std::to_string(h.payload_size) +
                  " does not fit m = " + std::to_string(h.config.bits));
      return PartitionedFilter::load(h.config, src, zero_copy);
    case Kind::kBlocked:
      require(h.stages == 1, "blocked filter with a stage count other than 1");
      require(h.payload_size == BlockedFilter::payload_size_for(h.config.bits),
              "payload size " + std::to_string(h.payload_size) +
                  " does not fit m = " + std::to_string(h.config.bits));
      return BlockedFilter::load(h.config, src, zero_copy);
    default:
      unsupported_kind(h.config.kind);
  }
}

}  // namespace bloom::core
