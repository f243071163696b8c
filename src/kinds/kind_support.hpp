// SPDX-License-Identifier: Apache-2.0
// kind_support.hpp -- the pieces the kinds' descriptors (kinds/*_kind.cpp)
// share: sizing one array from the options, the checks every kind made of
// one array makes of its configuration and of a loaded header, and the
// generic create.
#pragma once

#include <memory>
#include <string>

#include "bloom/bloom.h"
#include "filter.hpp"
#include "filter_config.hpp"
#include "format/header.hpp"
#include "options.hpp"

namespace bloom::core {

// m and k of a single array from the options: (n, p) by the formulas
// (exactly, for small filters: small_filter_sizing.hpp), or the explicit m
// with an explicit or optimal k.
void size_bit_array(const Options &o, FilterConfig &c);

// Throws Error(INVALID_ARG) when c carries parameters of another kind:
// counter_bits (unless the kind takes them), growth, tightening.
void refuse_foreign_parameters(const FilterConfig &c, const char *kind_name, bool takes_counter_bits = false);

// A loaded header's configuration, validated as create validates it; any
// refusal but UNSUPPORTED is the file's fault (BLOOM_E_FORMAT).
void validate_loaded(const Header &h);

// What every kind made of one array shares on load: a single stage, and a
// payload of exactly the bytes its m (and counter width) needs.
void require_single_array(const Header &h, uint64_t expected_payload);

template <typename KindFilter>
std::unique_ptr<Filter> create_filter_of(const FilterConfig &c) {
  return std::make_unique<KindFilter>(c);
}

// The load of a kind made of one array (array_filter.hpp): the header
// validated for the kind, the payload's size checked, then the array read.
template <typename KindFilter>
std::unique_ptr<Filter> load_single_array(const Header &h, ByteSource &src, bool zero_copy) {
  validate_loaded(h);
  require_single_array(h, KindFilter::payload_size_for(h.config));
  return KindFilter::load(h.config, src, zero_copy);
}

}  // namespace bloom::core
