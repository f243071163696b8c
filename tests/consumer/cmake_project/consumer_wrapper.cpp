// SPDX-License-Identifier: Apache-2.0
// consumer_wrapper.cpp -- the installed C++ wrapper, from an out-of-tree project.
#include <bloom/bloom.hpp>
#include <cstdio>

int main() {
  try {
    bloom::filter f(bloom::options().capacity(10000).fp_rate(0.001));
    f.add("a");
    const bloom::filter g = bloom::filter::deserialize(f.serialize());
    if (!g.contains("a")) return std::puts("FAIL: false negative after a round trip"), 1;
    std::printf("wrapper: %s filter, m = %llu, k = %u, bloom %s\n", g.info().kind_name().data(),
                static_cast<unsigned long long>(g.info().bits), g.info().hashes, bloom::version().data());
  } catch (const bloom::error &e) {
    std::fprintf(stderr, "FAIL: %s\n", e.what());
    return 1;
  }
  return 0;
}
