// SPDX-License-Identifier: Apache-2.0
// use_cases.cpp -- three common uses of a Bloom filter, with the C++
// wrapper <bloom/bloom.hpp>. Build with CMake: find_package(bloom CONFIG
// REQUIRED) and target_link_libraries(app PRIVATE bloom::bloom).
// What each use is: see use_cases.c.
#include <bloom/bloom.hpp>
#include <cstdio>
#include <string>

int main(int argc, char **argv) {
  const std::string dir = argc > 1 ? argv[1] : ".";
  const std::string path = dir + "/use_cases_cpp.data.bloom";
  auto row = [](int i) { return "row" + std::to_string(i); };
  try {
    // 1. "Is the key in this data file?": the saved filter, mapped, guards reads.
    bloom::filter data(bloom::options().capacity(10000).fp_rate(0.01));
    for (int i = 0; i < 10000; i++) data.add(row(i));
    data.save(path);
    const auto sstable = bloom::filter::map(path);
    int reads = 0, found = 0;
    for (int i = 5000; i < 25000; i++)
      if (sstable.contains(row(i))) reads++, found += i < 10000;
    std::printf("precheck: 20000 lookups, %d data-file reads, %d of 5000 present rows found\n", reads, found);

    // 2. Join pre-filter: only clicks whose user may exist are shuffled.
    bloom::filter users(bloom::options().capacity(1000).fp_rate(0.01));
    for (int i = 0; i < 1000; i++) users.add("user" + std::to_string(i * 7));
    int shuffled = 0, joinable = 0;
    for (int i = 0; i < 50000; i++) {
      const int u = i % 20000;
      if (users.contains("user" + std::to_string(u))) shuffled++, joinable += (u % 7 == 0 && u < 7000);
    }
    std::printf("join: 50000 clicks, %d shuffled, %d joinable kept\n", shuffled, joinable);

    // 3. Stream de-duplication with test_and_add.
    bloom::filter seen(bloom::options().capacity(100000).fp_rate(0.001));
    int delivered = 0, duplicates = 0;
    for (int i = 0; i < 11000; i++) {
      const int id = i < 10000 ? i : (i - 10000) * 10;
      (seen.test_and_add("msg-" + std::to_string(id)) ? duplicates : delivered)++;
    }
    std::printf("dedup: 11000 messages, %d delivered, %d dropped as duplicates\n", delivered, duplicates);
  } catch (const bloom::error &e) {
    std::fprintf(stderr, "use_cases: %s\n", e.what());
    return 1;
  }
  std::remove(path.c_str());
  return 0;
}
