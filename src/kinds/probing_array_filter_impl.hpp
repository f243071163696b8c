// SPDX-License-Identifier: Apache-2.0
// probing_array_filter_impl.hpp -- ProbingArrayFilter's add, test_and_add
// and query (array_filter.hpp). Included only by the .cpp of a kind that
// derives from it, which instantiates them once:
//   template class ProbingArrayFilter<YourFilter, BitArray>;
#pragma once

#include <type_traits>

#include "bit_array.hpp"
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

// On bits, a key already present is answered by a read alone (a miss
// usually stops at its first or second probe), so its words are never
// written: pages that a forked process shares, as a Redis BGSAVE child
// does, are not copied for adds that change nothing. Counters always count.
template <typename KindFilter, typename Storage>
bool ProbingArrayFilter<KindFilter, Storage>::test_and_add(Hash128 h) {
  auto &self = static_cast<KindFilter &>(*this);
  return with_shape(this->config_, [&]<bool kConcurrent, ProbeScheme kScheme>() {
    if constexpr (std::is_same_v<Storage, BitArray>) {
      if (self.template probe<kConcurrent, kScheme>(h)) return true;
      (void)self.template probe_and_set<kConcurrent, kScheme>(h);
      return false;
    } else {
      return self.template probe_and_set<kConcurrent, kScheme>(h);
    }
  });
}

}  // namespace bloom::core
