// SPDX-License-Identifier: Apache-2.0
// probing_array_filter_impl.hpp -- ProbingArrayFilter's add, test_and_add
// and query (array_filter.hpp). Included only by the .cpp of a kind that
// derives from it, which instantiates them once:
//   template class ProbingArrayFilter<YourFilter, BitArray>;
#pragma once

#include "dispatch.hpp"
#include "kinds/array_filter.hpp"

namespace bloom::core {

template <typename KindFilter, typename Storage>
bool ProbingArrayFilter<KindFilter, Storage>::query(Hash128 h) const {
  const auto &self = static_cast<const KindFilter &>(*this);
  return with_shape(this->config_, [&]<bool kConcurrent, ProbeScheme kScheme>() {
    return self.template probe<kConcurrent, kScheme>(h);
  });
}

template <typename KindFilter, typename Storage>
void ProbingArrayFilter<KindFilter, Storage>::add(Hash128 h) {
  auto &self = static_cast<KindFilter &>(*this);
  with_shape(this->config_, [&]<bool kConcurrent, ProbeScheme kScheme>() {
    (void)self.template probe_and_set<kConcurrent, kScheme>(h);
  });
}

template <typename KindFilter, typename Storage>
bool ProbingArrayFilter<KindFilter, Storage>::test_and_add(Hash128 h) {
  auto &self = static_cast<KindFilter &>(*this);
  return with_shape(this->config_, [&]<bool kConcurrent, ProbeScheme kScheme>() {
    return self.template probe_and_set<kConcurrent, kScheme>(h);
  });
}

}  // namespace bloom::core
