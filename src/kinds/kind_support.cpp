// SPDX-License-Identifier: Apache-2.0
#include "kinds/kind_support.hpp"

#include "error.hpp"
#include "kind_table.hpp"
#include "kinds/redisbloom_sizing.hpp"
#include "kinds/registry.hpp"
#include "sizing.hpp"
#include "small_filter_sizing.hpp"

namespace bloom::core {

void size_bit_array(const Options &o, FilterConfig &c) {
  if (o.hashes > BLOOM_MAX_HASHES)
    fail(Status::kInvalidArg, "hashes = " + std::to_string(o.hashes) + " exceeds the maximum of 64");
  if (o.bits == 0 && c.modulo_probes()) {
    // RedisBloom's sizing (redisbloom_sizing.hpp), so its filters answer
    // with its bits.
    const RedisBloomShape s = redisbloom_shape(o.capacity, o.fp_rate);
    c.bits = s.bits;
    c.hashes = o.hashes != 0 ? o.hashes : s.hashes;
    c.fp_rate = o.fp_rate;
  } else if (o.bits == 0) {
    const Shape s = fit_small_filter(optimal_shape(o.capacity, o.fp_rate), o.capacity, o.fp_rate, o.hashes,
                                     c.kind == Kind::kPartitioned);
    c.bits = s.bits;
    c.hashes = o.hashes != 0 ? o.hashes : s.hashes;
    c.fp_rate = o.fp_rate;
  } else {
    if (o.bits > BLOOM_MAX_BITS)
      fail(Status::kOverflow, "bits = " + std::to_string(o.bits) + " exceeds the 2^40 limit");
    if (o.hashes == 0 && o.capacity == 0)
      fail(Status::kInvalidArg, "with explicit bits, give hashes or a capacity to derive them from");
    c.bits = o.bits;
    c.hashes = o.hashes != 0 ? o.hashes : optimal_hashes(o.capacity, o.bits);
    c.fp_rate = 0;
  }
}

void refuse_foreign_parameters(const FilterConfig &c, const char *kind_name, bool takes_counter_bits) {
  if ((!takes_counter_bits && c.counter_bits != 0) || c.growth != 0 || c.tightening != 0)
    fail(Status::kInvalidArg, std::string(kind_name) + " filters take no " +
                                  (takes_counter_bits ? "" : "counter, ") +
                                  "growth or tightening parameters");
}

void validate_loaded(const Header &h) {
  try {
    validate_config(h.config);
  } catch (const Error &e) {
    if (e.status() == Status::kUnsupported) throw;
    fail(Status::kFormat, std::string("header describes an invalid filter: ") + e.what());
  }
}

void require_single_array(const Header &h, uint64_t expected_payload) {
  const char *name = describe(h.config.kind).name;
  if (h.stages != 1) fail(Status::kFormat, std::string(name) + " filter with a stage count other than 1");
  std::string shape = "m = " + std::to_string(h.config.bits);
  if (h.config.counter_bits != 0) shape += " counters of " + std::to_string(h.config.counter_bits) + " bits";
  if (h.payload_size != expected_payload)
    fail(Status::kFormat, "payload size " + std::to_string(h.payload_size) + " does not fit " + shape + " (" +
                              std::to_string(expected_payload) + " bytes)");
}

}  // namespace bloom::core
