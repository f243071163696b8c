// SPDX-License-Identifier: Apache-2.0
// The blocked kind: its line layout, its SIMD and portable paths (which must
// read exactly the same bits), its sizing model and its option checks.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <random>

#include "error.hpp"
#include "kinds/blocked_kernels.hpp"
#include "kinds/blocked_line.hpp"
#include "kinds/blocked_sizing.hpp"
#include "test_util.hpp"

namespace bloom::test {
namespace {

using core::blocked::Kernels;
using core::blocked::kLineWords;

// Both layouts' multiplier tables (blocked_line.hpp), with a name.
struct Layout {
  const char *name;
  const uint32_t *mult;
};
const Layout kLayouts[] = {{"layout1", core::blocked::kPowerMultipliers.data()},
                           {"layout2", core::blocked::kSaltMultipliers.data()}};

bloom_options blocked_options(uint64_t n, double p) {
  bloom_options o = classic_options(n, p);
  o.kind = BLOOM_KIND_BLOCKED;
  return o;
}

bloom_info info_of(const bloom_filter *f) {
  bloom_info info;
  info.struct_size = sizeof info;
  EXPECT_EQ(bloom_get_info(f, &info), BLOOM_OK);
  return info;
}

// Every kernel set this CPU can run, portable first.
std::vector<const Kernels *> kernel_sets() {
  std::vector<const Kernels *> sets{&core::blocked::portable_kernels()};
  if (core::blocked::avx2_kernels() != nullptr) sets.push_back(core::blocked::avx2_kernels());
  return sets;
}

// The multiplier tables are part of the file format: layout 1's are the
// powers of 0x9E3779B9, layout 2's the low 32 bits, made odd, of splitmix64
// outputs from the state 0x0b10c4ed5a175000 (as blocked_line.hpp says).
TEST(Blocked, LayoutMultipliersAreWhatTheFormatSays) {
  uint32_t power = 1;
  uint64_t state = 0x0b10c4ed5a175000ULL;
  for (uint32_t j = 0; j < core::blocked::kMaxProbes; ++j) {
    EXPECT_EQ(core::blocked::kPowerMultipliers[j], power) << j;
    power *= 0x9E3779B9u;
    uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    z ^= z >> 31;
    EXPECT_EQ(core::blocked::kSaltMultipliers[j], static_cast<uint32_t>(z) | 1u) << j;
    EXPECT_EQ(core::blocked::kSaltMultipliers[j] & 1u, 1u) << j;  // odd: x * M is a bijection
  }
}

TEST(Blocked, BestKernelsIsOneOfTheAvailableSets) {
  const Kernels &best = core::blocked::best_kernels();
  bool found = false;
  for (const Kernels *k : kernel_sets()) found |= k == &best;
  EXPECT_TRUE(found) << best.name;
  if (const char *chosen = std::getenv("BLOOM_KERNELS")) {
    // ctest also runs the blocked tests with BLOOM_KERNELS=portable.
    EXPECT_STREQ(best.name, chosen);
    return;
  }
#if defined(__x86_64__) || defined(__i386__)
  if (__builtin_cpu_supports("avx2")) {
    EXPECT_STREQ(best.name, "avx2");
  }
#endif
}

// A line holding exactly one key's mask answers "present" for that key on
// every path, and clearing any one of its bits makes every path answer
// "absent": so each path reads exactly the bits build_mask sets.
TEST(Blocked, EveryPathReadsExactlyTheBitsTheMaskSets) {
  const auto sets = kernel_sets();
  std::mt19937_64 rng(12345);
  for (const Layout &layout : kLayouts) {
    const uint32_t *mult = layout.mult;
    for (uint32_t k = 1; k <= BLOOM_MAX_HASHES; ++k) {
      const core::blocked::Probes probes = core::blocked::make_probes(k, mult);
      for (int trial = 0; trial < 200; ++trial) {
        const auto x = static_cast<uint32_t>(rng());
        alignas(64) uint64_t line[kLineWords] = {};
        core::blocked::build_mask(x, k, mult, line);
        for (const Kernels *s : sets)
          ASSERT_TRUE(s->query_line(line, x, probes)) << s->name << " k=" << k << " " << layout.name;
        for (uint32_t w = 0; w < kLineWords; ++w) {
          for (uint64_t rest = line[w]; rest != 0; rest &= rest - 1) {
            const uint64_t bit = rest & (~rest + 1);
            line[w] ^= bit;
            for (const Kernels *s : sets)
              ASSERT_FALSE(s->query_line(line, x, probes)) << s->name << " k=" << k << " " << layout.name;
            line[w] ^= bit;
          }
        }
      }
    }
  }
}

// Adding through any path sets exactly build_mask's bits and reports "all
// set before" exactly when they were.
TEST(Blocked, EveryPathAddsExactlyTheMaskBits) {
  const auto sets = kernel_sets();
  std::mt19937_64 rng(4242);
  for (const Layout &layout : kLayouts) {
    const uint32_t *mult = layout.mult;
    for (uint32_t k = 1; k <= BLOOM_MAX_HASHES; ++k) {
      const core::blocked::Probes probes = core::blocked::make_probes(k, mult);
      for (int trial = 0; trial < 200; ++trial) {
        const auto x = static_cast<uint32_t>(rng());
        uint64_t mask[kLineWords] = {};
        core::blocked::build_mask(x, k, mult, mask);
        // A random background line, sometimes already holding the mask.
        uint64_t background[kLineWords];
        for (auto &w : background) w = rng() & rng();
        if (trial % 4 == 0)
          for (uint32_t w = 0; w < kLineWords; ++w) background[w] |= mask[w];
        bool want_all_set = true;
        for (uint32_t w = 0; w < kLineWords; ++w) want_all_set &= (background[w] & mask[w]) == mask[w];
        for (const Kernels *s : sets) {
          alignas(64) uint64_t line[kLineWords];
          std::memcpy(line, background, sizeof line);
          EXPECT_EQ(s->add_line(line, x, probes), want_all_set)
              << s->name << " k=" << k << " " << layout.name;
          for (uint32_t w = 0; w < kLineWords; ++w)
            ASSERT_EQ(line[w], background[w] | mask[w]) << s->name << " k=" << k << " word " << w;
          // The batch form sets the same bits.
          alignas(64) uint64_t batch[kLineWords];
          std::memcpy(batch, background, sizeof batch);
          const uint64_t line_index = 0;
          s->add_lines(batch, &line_index, &x, 1, probes);
          ASSERT_EQ(std::memcmp(batch, line, sizeof line), 0) << s->name << " k=" << k;
          // And so does the plain add (no answer).
          alignas(64) uint64_t plain[kLineWords];
          std::memcpy(plain, background, sizeof plain);
          s->or_line(plain, x, probes);
          ASSERT_EQ(std::memcmp(plain, line, sizeof line), 0) << s->name << " or_line k=" << k;
        }
      }
    }
  }
}

// Random lines dense enough that about half the queries hit: the paths agree
// key by key, single and batch.
TEST(Blocked, SimdAndPortablePathsAgreeOnRandomLines) {
  const auto sets = kernel_sets();
  if (sets.size() < 2) GTEST_SKIP() << "this CPU has no SIMD path to compare";
  std::mt19937_64 rng(777);
  constexpr size_t kLines = 64, kProbes = 4000;
  for (const Layout &layout : kLayouts)
    for (uint32_t k : {1u, 2u, 3u, 6u, 7u, 8u, 9u, 12u, 16u, 17u, 24u, 33u, 64u}) {
      const uint32_t *mult = layout.mult;
      const core::blocked::Probes probes = core::blocked::make_probes(k, mult);
      // Density d with d^k = 1/2.
      const double density = std::pow(0.5, 1.0 / k);
      std::vector<uint64_t> words(kLines * kLineWords);
      std::bernoulli_distribution bit(density);
      for (auto &w : words)
        for (int b = 0; b < 64; ++b) w |= bit(rng) ? uint64_t{1} << b : 0;
      std::vector<uint64_t> lines(kProbes);
      std::vector<uint32_t> seeds(kProbes);
      for (size_t i = 0; i < kProbes; ++i) {
        lines[i] = rng() % kLines;
        seeds[i] = static_cast<uint32_t>(rng());
      }
      std::vector<uint8_t> want(kProbes), got(kProbes);
      sets[0]->query_lines(words.data(), lines.data(), seeds.data(), kProbes, probes, want.data());
      size_t hits = 0;
      for (size_t i = 0; i < kProbes; ++i) hits += want[i];
      EXPECT_GT(hits, kProbes / 5) << k;  // the comparison sees both answers
      EXPECT_LT(hits, kProbes * 4 / 5) << k;
      for (const Kernels *s : sets) {
        s->query_lines(words.data(), lines.data(), seeds.data(), kProbes, probes, got.data());
        EXPECT_EQ(got, want) << s->name << " k=" << k;
        for (size_t i = 0; i < kProbes; ++i)
          ASSERT_EQ(s->query_line(words.data() + lines[i] * kLineWords, seeds[i], probes), want[i] == 1)
              << s->name << " k=" << k << " probe " << i;
      }
    }
}

// One key touches one 64-byte line and sets at most k bits in it.
TEST(Blocked, AKeyLivesInOneCacheLine) {
  bloom_options o = blocked_options(10000, 0.01);
  for (int i = 0; i < 50; ++i) {
    FilterPtr f = make_filter(o);
    const std::string key = "line-" + std::to_string(i);
    ASSERT_EQ(bloom_add(f.get(), key.data(), key.size()), BLOOM_OK);
    const auto bytes = serialize(f.get());
    const bloom_info info = info_of(f.get());
    // The payload starts at offset 128 and is m/8 bytes.
    ASSERT_GE(bytes.size(), 128 + info.bits / 8);
    int lines_touched = 0, bits_set = 0;
    for (uint64_t line = 0; line < info.bits / 512; ++line) {
      int in_line = 0;
      for (int b = 0; b < 64; ++b) in_line += std::popcount(bytes[128 + line * 64 + b]);
      lines_touched += in_line > 0;
      bits_set += in_line;
    }
    EXPECT_EQ(lines_touched, 1);
    EXPECT_GE(bits_set, 1);
    EXPECT_LE(bits_set, static_cast<int>(info.hashes));
  }
}

TEST(Blocked, SizeIsWholeLinesAndMeetsTheModel) {
  for (double p : {0.1, 0.01, 0.001, 0.0001, 1e-6}) {
    for (uint64_t n : {1ull, 100ull, 100000ull, 10000000ull}) {
      uint64_t classic_bits = 0;
      uint32_t classic_k = 0;
      ASSERT_EQ(bloom_optimal_params(n, p, &classic_bits, &classic_k), BLOOM_OK);
      FilterPtr f = make_filter(blocked_options(n, p));
      const bloom_info info = info_of(f.get());
      EXPECT_EQ(info.bits % 512, 0u);
      EXPECT_GE(info.bits, classic_bits) << n << " " << p;  // uneven lines only cost
      const uint64_t lines = info.bits / 512;
      EXPECT_LE(core::blocked::model_fp_rate(n, lines, info.hashes), p) << n << " " << p;
      // ... and is the smallest such size for its k: one line fewer misses p.
      if (lines > 1) {
        EXPECT_GT(core::blocked::model_fp_rate(n, lines - 1, info.hashes), p) << n << " " << p;
      }
    }
  }
}

// Below p ~ 1e-10 the model's exact form (an alternating sum) has no
// correct digits left; it used to read as tiny or negative, clamped to 0, so
// p = 1e-15 got a smaller filter than 1e-14 and a true rate 35x p. Now the
// model falls back to its upper bound there. References: the same model in
// 60-digit arithmetic (mpmath).
TEST(Blocked, ModelNeverUnderstatesTinyRates) {
  struct Case {
    double lambda;
    uint32_t k;
    double exact;
  };
  const Case cases[] = {{1, 20, 1.54022e-16}, {2, 20, 3.20437e-14},   {0.5, 16, 2.50407e-17},
                        {1, 12, 5.08176e-14}, {2, 12, 2.55588e-12},   {4, 20, 1.30334e-11},
                        {8, 16, 1.20427e-8},  {23.24, 12, 9.99747e-5}};
  for (const Case &c : cases) {
    const double model = core::blocked::model_fp_rate(1000 * c.lambda, 1000, c.k);
    EXPECT_GE(model, c.exact * (1 - 1e-5)) << c.lambda << " " << c.k;
    EXPECT_LE(model, c.exact * 4) << c.lambda << " " << c.k;  // the bound is 1.5-2.8x here
  }
  // Where the exact form is trustworthy it is what the model returns.
  EXPECT_NEAR(core::blocked::model_fp_rate(23240, 1000, 12), 9.99747e-5, 1e-9);
  EXPECT_NEAR(core::blocked::model_fp_rate(8000, 1000, 16), 1.20427e-8, 1e-13);
}

TEST(Blocked, SmallerRatesNeverGetSmallerFilters) {
  for (uint64_t n : {1000ull, 1000000ull}) {
    uint64_t previous = 0;
    for (double p = 1e-2; p > 1e-31; p /= 10) {
      const core::blocked::BlockedShape s = core::blocked::blocked_shape(n, p, 0);
      EXPECT_GE(s.lines, previous) << n << " " << p;
      EXPECT_LE(core::blocked::model_fp_rate(static_cast<double>(n), s.lines, s.hashes), p) << n << " " << p;
      // The k search finds the best k however far it is from its start
      // (at p = 1e-20 the start was k = 19 and the best k = 40).
      for (uint32_t k : {s.hashes - 1, s.hashes + 1}) {
        if (k >= 1 && k <= 64) {
          EXPECT_GE(core::blocked::blocked_shape(n, p, k).lines, s.lines) << n << " " << p;
        }
      }
      previous = s.lines;
    }
  }
}

// Where the model trades its exact form for the bound it is not unimodal
// in k, and small n have plateaus: the searches must still find what an
// exhaustive search finds (cases from a review that caught the first
// version stopping early: 34 lines where 33 do, k = 18 where 23 is best).
TEST(Blocked, SearchesFindWhatExhaustiveSearchFinds) {
  struct Case {
    uint64_t n;
    double p;
  };
  for (const Case c : {Case{100, 1e-12}, Case{30, 1e-11}, Case{10, 1e-14}, Case{1, 0.01}, Case{5, 1e-4},
                       Case{1000000, 1e-20}, Case{1000000, 0.01}, Case{1000000, 1e-4}}) {
    uint64_t fewest = ~uint64_t{0};
    uint32_t smallest_k = 0;
    for (uint32_t k = 1; k <= 64; ++k) {
      uint64_t lines = ~uint64_t{0};
      try {
        lines = core::blocked::blocked_shape(c.n, c.p, k).lines;
      } catch (const core::Error &) {  // this k needs more than 2^40 bits
      }
      if (lines < fewest) {
        fewest = lines;
        smallest_k = k;
      }
    }
    const core::blocked::BlockedShape s = core::blocked::blocked_shape(c.n, c.p, 0);
    EXPECT_EQ(s.lines, fewest) << c.n << " " << c.p;
    EXPECT_EQ(core::blocked::blocked_shape(c.n, c.p, s.hashes).lines, fewest) << c.n << " " << c.p;
    if (c.n >= 1000) {
      EXPECT_EQ(s.hashes, smallest_k) << c.n << " " << c.p;  // no plateau there
    }
  }
  for (const uint64_t lines : {uint64_t{188085}, uint64_t{43028}, uint64_t{2000}}) {
    uint32_t argmin = 1;
    for (uint32_t k = 2; k <= 64; ++k)
      if (core::blocked::model_fp_rate(1e6, lines, k) < core::blocked::model_fp_rate(1e6, lines, argmin))
        argmin = k;
    EXPECT_EQ(core::blocked::best_hashes(1000000, lines), argmin) << lines;
  }
}

TEST(Blocked, ModelLimitsAndMonotonicity) {
  EXPECT_EQ(core::blocked::line_fp_rate(0, 8), 0.0);
  EXPECT_DOUBLE_EQ(core::blocked::line_fp_rate(512, 8), 1.0);
  EXPECT_LT(core::blocked::line_fp_rate(200, 8), core::blocked::line_fp_rate(300, 8));
  EXPECT_GT(core::blocked::model_fp_rate(1000, 10, 6), core::blocked::model_fp_rate(1000, 20, 6));
  // The model is never below the classic rate at equal m (uneven loads).
  for (uint32_t k = 2; k <= 20; k += 3)
    EXPECT_GE(core::blocked::model_fp_rate(100000, 2000, k), bloom_expected_fp_rate(100000, 2000 * 512, k))
        << k;
}

TEST(Blocked, ExplicitBitsMustBeWholeLines) {
  bloom_options o = blocked_options(1000, 0.01);
  o.bits = 1000;
  bloom_filter *f = nullptr;
  EXPECT_EQ(bloom_create(&o, &f), BLOOM_E_INVALID_ARG);
  EXPECT_EQ(f, nullptr);
  EXPECT_NE(std::strstr(bloom_last_error(), "512"), nullptr) << bloom_last_error();
  o.bits = 1024;
  FilterPtr ok = make_filter(o);
  EXPECT_EQ(info_of(ok.get()).bits, 1024u);
  EXPECT_GE(info_of(ok.get()).hashes, 1u);
}

TEST(Blocked, PlainDoubleHashingFlagIsRejected) {
  bloom_options o = blocked_options(1000, 0.01);
  o.flags = BLOOM_FLAG_PLAIN_DOUBLE_HASHING;
  bloom_filter *f = nullptr;
  EXPECT_EQ(bloom_create(&o, &f), BLOOM_E_INVALID_ARG);
  EXPECT_NE(std::strstr(bloom_last_error(), "PLAIN_DOUBLE_HASHING"), nullptr) << bloom_last_error();
}

TEST(Blocked, ConcurrentAndPlainFiltersHoldTheSameBits) {
  bloom_options plain = blocked_options(20000, 0.01), conc = plain;
  conc.flags = BLOOM_FLAG_CONCURRENT;
  FilterPtr a = make_filter(plain), b = make_filter(conc);
  const auto keys = make_keys("same-", 20000);
  add_all(a.get(), keys);
  add_all(b.get(), keys);
  const auto sa = serialize(a.get()), sb = serialize(b.get());
  // The flags live in the header; the payloads (after the 128-byte header)
  // must be the same bits.
  ASSERT_EQ(sa.size(), sb.size());
  const uint64_t payload = info_of(a.get()).bits / 8;
  ASSERT_GE(sa.size(), 128 + payload);
  EXPECT_TRUE(std::equal(sa.begin() + 128, sa.begin() + 128 + payload, sb.begin() + 128));
  const auto probes = make_keys("other-", 20000);
  for (const auto &k : probes)
    ASSERT_EQ(bloom_query(a.get(), k.data(), k.size()), bloom_query(b.get(), k.data(), k.size()));
  const bloom_info ia = info_of(a.get()), ib = info_of(b.get());
  EXPECT_EQ(ia.fill_ratio, ib.fill_ratio);
}

}  // namespace
}  // namespace bloom::test
