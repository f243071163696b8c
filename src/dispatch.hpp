// SPDX-License-Identifier: Apache-2.0
// dispatch.hpp -- the one way a filter's run-time shape becomes specialised
// code.
//
// with_shape(config, body) calls body.template operator()<kConcurrent,
// kScheme>() for the filter's concurrency flag and probe scheme, so a kind
// writes its per-key code once as a template and never spells out the
// combinations (no per-kind macro or table). The shape is a per-filter
// constant, so the two branches predict perfectly; 2 x 4 of the 2 x 5
// instances are what the kinds compiled before, when three flags were
// re-derived by hand. The kModulo instances (the redisbloom hash) are
// reached only in the kinds whose row takes that hash (classic, and the
// scalable kind's classic stages): configure and decode_header refuse it
// elsewhere, where ProbeSequence would treat it as plain probes.
#pragma once

#include "filter_config.hpp"

namespace bloom::core {

template <bool kConcurrent, typename Body>
[[gnu::always_inline]] inline decltype(auto) with_scheme(ProbeScheme scheme, Body &&body) {
  switch (scheme) {
    case ProbeScheme::kPlain:
      return body.template operator()<kConcurrent, ProbeScheme::kPlain>();
    case ProbeScheme::kEnhanced:
      return body.template operator()<kConcurrent, ProbeScheme::kEnhanced>();
    case ProbeScheme::kPlainMixed:
      return body.template operator()<kConcurrent, ProbeScheme::kPlainMixed>();
    case ProbeScheme::kModulo:
      return body.template operator()<kConcurrent, ProbeScheme::kModulo>();
    case ProbeScheme::kEnhancedMixed:
    default:
      return body.template operator()<kConcurrent, ProbeScheme::kEnhancedMixed>();
  }
}

template <typename Body>
[[gnu::always_inline]] inline decltype(auto) with_shape(const FilterConfig &c, Body &&body) {
  return c.concurrent() ? with_scheme<true>(c.probe_scheme(), body)
                        : with_scheme<false>(c.probe_scheme(), body);
}

}  // namespace bloom::core
