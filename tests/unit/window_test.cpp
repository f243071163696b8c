// SPDX-License-Identifier: Apache-2.0
// window_test.cpp -- the window kind (kinds/window.hpp): no false negative
// inside the window (count and time, across save/load), the measured rate
// at steady state, forgetting at the documented age, memory against the
// paper's formula, and the refusals.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "image_tools.hpp"
#include "kind_test_util.hpp"
#include "kinds/window_sizing.hpp"
#include "test_util.hpp"

namespace bloom::test {
namespace {

bloom_options window_options(uint64_t w, double p, uint64_t window_ms = 0) {
  bloom_options o;
  bloom_options_init(&o);
  o.kind = BLOOM_KIND_WINDOW;
  o.capacity = w;
  o.fp_rate = p;
  o.window_ms = window_ms;
  return o;
}

std::string key(uint64_t i) { return "id-" + std::to_string(i); }

bool has(const bloom_filter *f, const std::string &k) { return bloom_query(f, k.data(), k.size()) == 1; }

TEST(WindowSizing, RunProbabilityMatchesEnumeration) {
  // Every pattern of 7 slices with fills x: the run-length recursion must
  // equal the sum over patterns that contain 3 consecutive set slices.
  const double x[7] = {0.1, 0.5, 0.9, 0.3, 0.7, 0.5, 0.6};
  double direct = 0;
  for (unsigned bits = 0; bits < 128; ++bits) {
    double pr = 1;
    int run = 0;
    bool hit = false;
    for (int i = 0; i < 7; ++i) {
      const bool set = (bits >> i) & 1;
      pr *= set ? x[i] : 1 - x[i];
      run = set ? run + 1 : 0;
      hit |= run >= 3;
    }
    if (hit) direct += pr;
  }
  EXPECT_NEAR(core::run_probability(x, 7, 3), direct, 1e-12);
}

TEST(WindowSizing, ShapesMeetPAndStayNearTheLeastMemory) {
  for (double p : {0.1, 0.01, 0.001, 1e-4, 1e-6}) {
    const core::WindowShape s = core::window_shape(36000000, p);
    EXPECT_LE(core::window_shape_rate(s), p) << p;
    EXPECT_GE(static_cast<uint64_t>(s.l) * s.g, 36000000u) << p;
    const double bits_per_key = static_cast<double>(s.k + s.l) * static_cast<double>(s.m) / 36e6;
    EXPECT_LE(bits_per_key, 1.1 * core::window_min_bits_per_key(p)) << p;
    EXPECT_EQ(s.m % 64, 0u);
    // The blocked layout (format 1.4): the same (k, l, g), m grown until
    // its modelled rate meets p, and still within 1.1x of the formula.
    const core::WindowShape b = core::window_blocked_shape(36000000, p);
    EXPECT_EQ(b.k, s.k) << p;
    EXPECT_EQ(b.l, s.l) << p;
    EXPECT_GE(b.m, s.m) << p;
    EXPECT_LE(core::window_blocked_rate(b), p) << p;
    EXPECT_GE(core::window_blocked_rate(b), core::window_shape_rate(b)) << "the model only adds: " << p;
    EXPECT_LE(static_cast<double>(b.k + b.l) * static_cast<double>(b.m) / 36e6,
              1.1 * core::window_min_bits_per_key(p))
        << p;
    EXPECT_EQ(b.m % 64, 0u);
  }
}

TEST(Window, CreatesWithTheDerivedShape) {
  FilterPtr f = make_filter(window_options(100000, 0.001));
  const bloom_info info = info_of(f.get());
  const core::WindowShape s = core::window_blocked_shape(100000, 0.001);
  EXPECT_EQ(info.kind, BLOOM_KIND_WINDOW);
  EXPECT_EQ(info.hashes, s.k);
  EXPECT_EQ(info.window_k, s.k);
  EXPECT_EQ(info.window_l, s.l);
  EXPECT_EQ(info.slice_bits, s.m);
  EXPECT_EQ(info.generation_capacity, s.g);
  EXPECT_EQ(info.bits, (s.k + s.l) * s.m);
  EXPECT_EQ(info.stages, s.k + s.l);
  EXPECT_EQ(info.window_ms, 0u);
  EXPECT_EQ(info.format_minor, 4);  // the blocked layout
  EXPECT_STREQ(bloom_kind_name(BLOOM_KIND_WINDOW), "window");
  EXPECT_EQ(bloom_kind_from_name("window"), BLOOM_KIND_WINDOW);
}

TEST(Window, OptionsFromTheOldLayoutMakeACountWindow) {
  // A caller compiled against 0.2.0: its struct ends before window_ms, and
  // the bytes after it (here 0xAB) must not be read.
  struct {
    bloom_options o;
    unsigned char poison[16];
  } old;
  std::memset(&old, 0xAB, sizeof old);
  (bloom_options_init)(&old.o);  // the symbol: the 0.2.0 layout only
  EXPECT_EQ(old.o.struct_size, offsetof(bloom_options, window_ms));
  old.o.kind = BLOOM_KIND_WINDOW;
  old.o.capacity = 1000;
  FilterPtr f = make_filter(old.o);
  EXPECT_EQ(info_of(f.get()).window_ms, 0u);
  // The symbol wrote nothing past the 0.2.0 layout.
  const auto *tail = reinterpret_cast<const unsigned char *>(&old.o) + offsetof(bloom_options, window_ms);
  for (size_t i = 0; i < sizeof(uint64_t); ++i) EXPECT_EQ(tail[i], 0xAB);
  bloom_options sized;
  bloom_options_init_sized(&sized, sizeof sized);
  EXPECT_EQ(sized.struct_size, sizeof sized);
  EXPECT_EQ(sized.window_ms, 0u);
}

TEST(Window, RefusesWhatDoesNotApply) {
  bloom_options o = window_options(1000, 0.01);
  bloom_filter *g = nullptr;
  o.bits = 4096;
  EXPECT_EQ(bloom_create(&o, &g), BLOOM_E_INVALID_ARG);
  o.bits = 0;
  o.hashes = 5;
  EXPECT_EQ(bloom_create(&o, &g), BLOOM_E_INVALID_ARG);
  EXPECT_EQ(g, nullptr);

  FilterPtr count = make_filter(window_options(1000, 0.01));
  FilterPtr timed = make_filter(window_options(1000, 0.01, 60000));
  EXPECT_EQ(bloom_advance(count.get(), 5), BLOOM_E_UNSUPPORTED);
  EXPECT_EQ(bloom_advance(nullptr, 5), BLOOM_E_INVALID_ARG);
  FilterPtr classic = make_filter(classic_options(1000, 0.01));
  EXPECT_EQ(bloom_advance(classic.get(), 5), BLOOM_E_UNSUPPORTED);
  EXPECT_EQ(bloom_merge(count.get(), count.get()), BLOOM_E_UNSUPPORTED);
  EXPECT_EQ(bloom_intersect(count.get(), timed.get()), BLOOM_E_UNSUPPORTED);
  EXPECT_EQ(bloom_merge(classic.get(), count.get()), BLOOM_E_UNSUPPORTED);
  EXPECT_EQ(bloom_remove(count.get(), "a", 1), BLOOM_E_UNSUPPORTED);
}

// Count window: after every insertion, every one of the last W keys is
// present (checked at many points). From (l + 1) g insertions on a key is
// no longer guaranteed: one of its k slices is cleared per generation, so
// its "maybe" needs ever more chance neighbours (about half as likely each
// generation); once all k are cleared, (l + k) g insertions after it, it
// answers like a key never added.
TEST(Window, CountWindowRemembersTheLastWAndForgetsOlder) {
  const uint64_t W = 5000;
  FilterPtr f = make_filter(window_options(W, 0.01));
  const bloom_info info = info_of(f.get());
  const uint64_t g = info.generation_capacity;
  const uint64_t fading_age = (info.window_l + 1) * g;
  const uint64_t forget_age = (info.window_l + info.window_k) * g;
  const uint64_t total = 12 * W;
  size_t missed = 0, old_present = 0, old_checked = 0, fading_present = 0, fading_checked = 0;
  for (uint64_t i = 0; i < total; ++i) {
    const std::string k = key(i);
    ASSERT_EQ(bloom_add(f.get(), k.data(), k.size()), BLOOM_OK);
    if (i % 613 == 0 || i == total - 1) {
      for (uint64_t j = i + 1 > W ? i + 1 - W : 0; j <= i; ++j) missed += has(f.get(), key(j)) ? 0 : 1;
      for (uint64_t j = 0; j + forget_age <= i; j += 7) {
        ++old_checked;
        old_present += has(f.get(), key(j)) ? 1 : 0;
      }
      for (uint64_t j = i + 1 > forget_age ? i + 1 - forget_age : 0; j + fading_age <= i; ++j) {
        ++fading_checked;
        fading_present += has(f.get(), key(j)) ? 1 : 0;
      }
    }
  }
  EXPECT_EQ(missed, 0u);
  // Fading: on average over its k generations about 2/k, far from 1.
  ASSERT_GT(fading_checked, 10000u);
  EXPECT_LT(static_cast<double>(fading_present), 0.35 * static_cast<double>(fading_checked));
  // Forgotten keys are false positives at most: within 4 sigma of p.
  ASSERT_GT(old_checked, 10000u);
  EXPECT_LE(static_cast<double>(old_present), 0.01 * old_checked + 4 * sigma(old_checked, 0.01));
}

// The measured rate over 12 window lengths: every insertion is a
// test-and-add of a new key (a de-duplication stream with no repeats), so
// every "maybe present" answer after the first window is a false positive.
TEST(Window, MeasuredRateAtSteadyStateMeetsP) {
  for (double p : {0.01, 0.001}) {
    const uint64_t W = p == 0.01 ? 20000 : 40000;
    FilterPtr f = make_filter(window_options(W, p));
    size_t fp = 0, queries = 0;
    for (uint64_t i = 0; i < 12 * W; ++i) {
      const std::string k = key(i);
      const int r = bloom_test_and_add(f.get(), k.data(), k.size());
      ASSERT_GE(r, 0);
      if (i >= W) {
        ++queries;
        fp += static_cast<size_t>(r);
      }
    }
    const double q = static_cast<double>(queries);
    EXPECT_LE(static_cast<double>(fp), p * q + 4 * sigma(q, p))
        << "p = " << p << ": " << fp << " of " << queries;
    // And it is a filter, not a wall: the rate is not far below p either.
    EXPECT_GT(static_cast<double>(fp), 0.1 * p * q) << p;
  }
}

TEST(Window, MemoryIsConstantAndNearThePapersFormula) {
  const uint64_t W = 200000;
  FilterPtr f = make_filter(window_options(W, 0.001));
  const uint64_t bytes0 = info_of(f.get()).bytes;
  std::vector<std::string> batch;
  for (uint64_t i = 0; i < 5 * W; ++i) batch.push_back(key(i));
  ASSERT_EQ(add_all_batch(f.get(), batch), BLOOM_OK);
  const bloom_info info = info_of(f.get());
  EXPECT_EQ(info.bytes, bytes0);
  EXPECT_GE(info.generation, 5u * info.window_l - 1);
  const double formula_bits = core::window_min_bits_per_key(0.001) * static_cast<double>(W);
  EXPECT_LE(static_cast<double>(info.bits), 1.1 * formula_bits);
}

// Time window under a deterministic clock: 20 keys every 100 ms for 10
// windows; at every step each key younger than T is present, and keys
// older than T + k d (all their slices cleared) answer like absent keys.
TEST(Window, TimeWindowRemembersTheLastTAndForgetsOlder) {
  const uint64_t T = 60000;
  FilterPtr f = make_filter(window_options(12000, 0.01, T));  // 20 keys per 100 ms = 12,000 per T
  const bloom_info info = info_of(f.get());
  const uint64_t d = info.generation_ms;
  ASSERT_EQ(d, (T + info.window_l - 1) / info.window_l);
  std::vector<uint64_t> added_at;
  size_t missed = 0, old_present = 0, old_checked = 0;
  uint64_t next = 0;
  const uint64_t t0 = 1700000000000ull;  // any epoch
  for (uint64_t now = t0; now < t0 + 10 * T; now += 100) {
    ASSERT_EQ(bloom_advance(f.get(), now), BLOOM_OK);
    for (int i = 0; i < 20; ++i, ++next) {
      const std::string k = key(next);
      ASSERT_EQ(bloom_add(f.get(), k.data(), k.size()), BLOOM_OK);
      added_at.push_back(now);
    }
    if ((now - t0) % 7000 == 0) {
      for (uint64_t j = 0; j < next; ++j) {
        const uint64_t age = now - added_at[j];
        if (age < T) missed += has(f.get(), key(j)) ? 0 : 1;
        if (age >= T + info.window_k * d) {
          ++old_checked;
          old_present += has(f.get(), key(j)) ? 1 : 0;
        }
      }
    }
  }
  EXPECT_EQ(missed, 0u);
  ASSERT_GT(old_checked, 100000u);
  EXPECT_LE(static_cast<double>(old_present), 0.01 * old_checked + 4 * sigma(old_checked, 0.01));
  EXPECT_GE(info_of(f.get()).generation, 9u * info.window_l);
}

TEST(Window, TimeWindowClockJumpsAndGoesBack) {
  const uint64_t T = 10000;
  FilterPtr f = make_filter(window_options(1000, 0.01, T));
  // Keys added before the first advance belong to the generation it starts.
  ASSERT_EQ(bloom_add(f.get(), "early", 5), BLOOM_OK);
  ASSERT_EQ(bloom_advance(f.get(), 5000000), BLOOM_OK);
  EXPECT_TRUE(has(f.get(), "early"));
  ASSERT_EQ(bloom_add(f.get(), "a", 1), BLOOM_OK);
  // Backwards by an hour: no time passed; nothing is forgotten.
  ASSERT_EQ(bloom_advance(f.get(), 5000000 - 3600000), BLOOM_OK);
  EXPECT_TRUE(has(f.get(), "a"));
  EXPECT_EQ(info_of(f.get()).clock_ms, 5000000u - 3600000u);
  // Then forwards by T - 1 from there: still inside the window.
  ASSERT_EQ(bloom_advance(f.get(), 5000000 - 3600000 + T - 1), BLOOM_OK);
  EXPECT_TRUE(has(f.get(), "a"));
  EXPECT_TRUE(has(f.get(), "early"));
  // A jump of many windows clears everything, whatever its size.
  ASSERT_EQ(bloom_advance(f.get(), UINT64_MAX), BLOOM_OK);
  EXPECT_FALSE(has(f.get(), "a"));
  EXPECT_EQ(info_of(f.get()).fill_ratio, 0.0);
  ASSERT_EQ(bloom_add(f.get(), "b", 1), BLOOM_OK);
  EXPECT_TRUE(has(f.get(), "b"));
}

// A time window that receives more than g keys in a generation forgets
// nothing early; its rate rises instead, and info says so.
TEST(Window, OverfullTimeGenerationKeepsEveryKey) {
  FilterPtr f = make_filter(window_options(1000, 0.01, 1000));
  ASSERT_EQ(bloom_advance(f.get(), 0), BLOOM_OK);
  for (uint64_t i = 0; i < 5000; ++i) ASSERT_EQ(bloom_add(f.get(), key(i).data(), key(i).size()), BLOOM_OK);
  const bloom_info info = info_of(f.get());
  EXPECT_EQ(info.generation, 0u);
  EXPECT_EQ(info.generation_keys, 5000u);
  EXPECT_GT(info.expected_fp_rate, 0.01);
  for (uint64_t i = 0; i < 5000; ++i) ASSERT_TRUE(has(f.get(), key(i)));
}

// Save/load (and map) resume exactly where the window stopped: the loaded
// copy and the original answer alike at every later step, and neither
// forgets a key of the window.
TEST(Window, SavedWindowResumesWhereItStopped) {
  for (uint64_t window_ms : {uint64_t{0}, uint64_t{30000}}) {
    const uint64_t W = 3000;
    FilterPtr a = make_filter(window_options(W, 0.01, window_ms));
    uint64_t now = 1000;
    auto step = [&](bloom_filter *f, uint64_t i, uint64_t t) {
      if (window_ms != 0) {
        ASSERT_EQ(bloom_advance(f, t), BLOOM_OK);
      }
      const std::string k = key(i);
      ASSERT_GE(bloom_test_and_add(f, k.data(), k.size()), 0);
    };
    for (uint64_t i = 0; i < W + W / 2; ++i, now += 7) step(a.get(), i, now);
    const std::string path = temp_path("window_" + std::to_string(window_ms) + ".bloom");
    ASSERT_EQ(bloom_save(a.get(), path.c_str()), BLOOM_OK) << bloom_last_error();
    bloom_filter *raw = nullptr;
    ASSERT_EQ(bloom_load(path.c_str(), &raw), BLOOM_OK) << bloom_last_error();
    FilterPtr b(raw);
    ASSERT_EQ(bloom_map(path.c_str(), &raw), BLOOM_OK) << bloom_last_error();
    FilterPtr mapped(raw);
    EXPECT_EQ(serialize(a.get()), serialize(b.get()));
    std::vector<std::string> probes;
    for (uint64_t i = 0; i < 3 * W; ++i) probes.push_back(key(i));
    expect_same_answers(a.get(), mapped.get(), probes);
    EXPECT_EQ(bloom_add(mapped.get(), "x", 1), BLOOM_E_UNSUPPORTED);
    EXPECT_EQ(bloom_advance(mapped.get(), now), window_ms ? BLOOM_E_UNSUPPORTED : BLOOM_E_UNSUPPORTED);
    for (uint64_t i = W + W / 2; i < 4 * W; ++i, now += 7) {
      step(a.get(), i, now);
      step(b.get(), i, now);
      if (i % 500 == 0) {
        size_t missed = 0;
        const uint64_t span = window_ms ? window_ms / 7 : W;
        for (uint64_t j = i + 1 - std::min(span, i + 1); j <= i; ++j) missed += has(b.get(), key(j)) ? 0 : 1;
        EXPECT_EQ(missed, 0u) << window_ms;
      }
    }
    EXPECT_EQ(serialize(a.get()), serialize(b.get()));
    std::remove(path.c_str());
  }
}

TEST(Window, TestAndAddBatchFindsRepeatsInsideTheBatch) {
  FilterPtr f = make_filter(window_options(10000, 0.001));
  FilterPtr g = make_filter(window_options(10000, 0.001));
  std::vector<std::string> keys;
  for (uint64_t i = 0; i < 3000; ++i) keys.push_back(key(i % 1000 == 0 ? 0 : i));
  keys.push_back(keys[5]);
  const KeyArrays a = key_arrays(keys);
  std::vector<uint8_t> out(keys.size(), 7);
  ASSERT_EQ(bloom_test_and_add_batch(f.get(), a.ptrs.data(), a.lens.data(), keys.size(), out.data()),
            BLOOM_OK);
  for (size_t i = 0; i < keys.size(); ++i) {
    const int single = bloom_test_and_add(g.get(), keys[i].data(), keys[i].size());
    ASSERT_EQ(out[i], single) << i;
  }
  EXPECT_EQ(out[0], 0);
  EXPECT_EQ(out[1000], 1);
  EXPECT_EQ(out.back(), 1);
  EXPECT_EQ(serialize(f.get()), serialize(g.get()));
  EXPECT_EQ(bloom_test_and_add_batch(f.get(), a.ptrs.data(), a.lens.data(), keys.size(), nullptr),
            BLOOM_E_INVALID_ARG);
  // Other kinds take the batch call too.
  FilterPtr c = make_filter(classic_options(10000, 0.001));
  ASSERT_EQ(bloom_test_and_add_batch(c.get(), a.ptrs.data(), a.lens.data(), keys.size(), out.data()),
            BLOOM_OK);
  EXPECT_EQ(out[0], 0);
  EXPECT_EQ(out[1000], 1);
}

TEST(Window, CloneAndClear) {
  FilterPtr f = make_filter(window_options(1000, 0.01));
  for (uint64_t i = 0; i < 1500; ++i) ASSERT_EQ(bloom_add(f.get(), key(i).data(), key(i).size()), BLOOM_OK);
  bloom_filter *raw = nullptr;
  ASSERT_EQ(bloom_clone(f.get(), &raw), BLOOM_OK);
  FilterPtr c(raw);
  EXPECT_EQ(serialize(f.get()), serialize(c.get()));
  ASSERT_EQ(bloom_clear(c.get()), BLOOM_OK);
  const bloom_info info = info_of(c.get());
  EXPECT_EQ(info.fill_ratio, 0.0);
  EXPECT_EQ(info.generation, 0u);
  EXPECT_EQ(info.keys_added, 0u);
  EXPECT_TRUE(has(f.get(), key(1499)));
  EXPECT_FALSE(has(c.get(), key(1499)));
}

TEST(Window, SliceInfo) {
  FilterPtr f = make_filter(window_options(1000, 0.01));
  for (uint64_t i = 0; i < 10; ++i) ASSERT_EQ(bloom_add(f.get(), key(i).data(), key(i).size()), BLOOM_OK);
  const bloom_info whole = info_of(f.get());
  bloom_info s{};
  s.struct_size = sizeof s;
  ASSERT_EQ(bloom_get_stage_info(f.get(), 0, &s), BLOOM_OK);
  EXPECT_EQ(s.bits, whole.slice_bits);
  EXPECT_GT(s.fill_ratio, 0.0);
  ASSERT_EQ(bloom_get_stage_info(f.get(), whole.window_k, &s), BLOOM_OK);
  EXPECT_EQ(s.fill_ratio, 0.0);  // slice k has received nothing yet
  EXPECT_EQ(bloom_get_stage_info(f.get(), whole.stages, &s), BLOOM_E_INVALID_ARG);
  EXPECT_NEAR(whole.estimated_keys, 10.0, 3.0);
}

// Concurrent: adds serialised under the lock, queries beside them. No key
// is lost, and of threads adding one new key exactly one is told "new".
TEST(Window, ConcurrentAddsLoseNothing) {
  bloom_options o = window_options(100000, 0.001);
  o.flags = BLOOM_FLAG_CONCURRENT;
  FilterPtr f = make_filter(o);
  std::vector<int> news(4, 0);
  run_threads(4, [&](int t) {
    for (uint64_t i = 0; i < 20000; ++i) {
      const std::string k = key(i);  // every thread adds the same keys
      const int r = bloom_test_and_add(f.get(), k.data(), k.size());
      if (r == 0) ++news[t];
      (void)bloom_query(f.get(), k.data(), k.size());
    }
  });
  int total = 0;
  for (int n : news) total += n;
  // Each key is new to exactly one thread, false positives aside.
  EXPECT_LE(total, 20000);
  EXPECT_GE(total, 20000 - 60);
  for (uint64_t i = 0; i < 20000; ++i) ASSERT_TRUE(has(f.get(), key(i)));
}

// Format 1.3's sliced layout still works after loading: the golden count
// window (W = 1,000, p = 0.01, one m-bit array per slice) keeps taking keys
// with no false negative for the last W, forgets older keys, and saves
// as 1.3 again. New windows are blocked (1.4); both answer alike.
TEST(Window, SlicedLayoutOfFormat13KeepsWorking) {
  bloom_filter *raw = nullptr;
  ASSERT_EQ(bloom_load(BLOOM_TEST_GOLDEN_DIR "/window_xxh3_v1_3.bloom", &raw), BLOOM_OK)
      << bloom_last_error();
  FilterPtr old_layout(raw);
  FilterPtr blocked = make_filter(window_options(1000, 0.01));
  EXPECT_EQ(info_of(old_layout.get()).format_minor, 3);
  EXPECT_EQ(info_of(blocked.get()).format_minor, 4);
  for (bloom_filter *f : {old_layout.get(), blocked.get()}) {
    const uint64_t W = 1000, total = 20 * W;
    const bloom_info info = info_of(f);
    const uint64_t forget_age = (info.window_l + info.window_k) * info.generation_capacity;
    size_t missed = 0, old_present = 0, old_checked = 0;
    for (uint64_t i = 0; i < total; ++i) {
      const std::string k = "later-" + std::to_string(i);
      ASSERT_GE(bloom_test_and_add(f, k.data(), k.size()), 0);
      if (i % 97 == 0)
        for (uint64_t j = i + 1 > W ? i + 1 - W : 0; j <= i; ++j)
          missed += has(f, "later-" + std::to_string(j)) ? 0 : 1;
      if (i >= forget_age && i % 3 == 0) {
        ++old_checked;
        old_present += has(f, "later-" + std::to_string(i - forget_age)) ? 1 : 0;
      }
    }
    EXPECT_EQ(missed, 0u) << info.format_minor;
    ASSERT_GT(old_checked, 3000u);
    EXPECT_LE(static_cast<double>(old_present), 0.01 * old_checked + 4 * sigma(old_checked, 0.01))
        << info.format_minor;
  }
  // Through a file, still 1.3 (its bits keep their meaning).
  FilterPtr again = deserialize_ok(serialize(old_layout.get()));
  EXPECT_EQ(info_of(again.get()).format_minor, 3);
  EXPECT_EQ(serialize(again.get()), serialize(old_layout.get()));
}

// A saved window whose checksums are valid but whose shape disagrees with
// its capacity and rate is refused: with g = 2^63 it would load and never
// forget; with a capacity or rate other than the slices were sized for, it
// would fill past its rate without saying so.
TEST(Window, LoadRefusesAShapeThatDisagreesWithItsCapacity) {
  for (uint64_t window_ms : {uint64_t{0}, uint64_t{60000}}) {
    FilterPtr f = make_filter(window_options(5000, 0.001, window_ms));
    const std::vector<unsigned char> image = serialize(f.get());
    const size_t g_offset = core::kHeaderSize + 8;  // the descriptor's g
    const uint64_t g = core::load_le64(&image[g_offset]);
    ASSERT_EQ(g, info_of(f.get()).generation_capacity);
    struct Damage {
      const char *what;
      size_t offset;
      uint64_t value;
    };
    const Damage damages[] = {
        {"g = 2^63", g_offset, uint64_t{1} << 63},
        {"g + 1", g_offset, g + 1},
        {"g - 1", g_offset, g - 1},
        {"capacity x 4", header_field("capacity").offset, 4 * 5000},
        {"capacity 0", header_field("capacity").offset, 0},
        {"p / 100", header_field("fp_rate").offset, std::bit_cast<uint64_t>(0.001 / 100)},
    };
    for (const Damage &d : damages) {
      std::vector<unsigned char> bad = image;
      core::store_le64(&bad[d.offset], d.value);
      fix_checksums(bad);
      bloom_filter *raw = nullptr;
      EXPECT_EQ(bloom_deserialize(bad.data(), bad.size(), &raw), BLOOM_E_FORMAT) << d.what << window_ms;
      EXPECT_EQ(raw, nullptr);
      EXPECT_NE(std::string(bloom_last_error()).find("window"), std::string::npos) << bloom_last_error();
    }
    // The intact image still loads (the checks accept what sizing made).
    bloom_filter *raw = nullptr;
    ASSERT_EQ(bloom_deserialize(image.data(), image.size(), &raw), BLOOM_OK) << bloom_last_error();
    bloom_destroy(raw);
  }
  // Every shape sizing makes passes, across windows and rates.
  for (double p : {0.1, 0.01, 0.001, 1e-5})
    for (uint64_t w : {uint64_t{1}, uint64_t{7}, uint64_t{1000}, uint64_t{123457}}) {
      const core::WindowShape s = core::window_shape(w, p);
      EXPECT_EQ(core::window_shape_error(s, w, p), "") << w << " " << p;
      const core::WindowShape b = core::window_blocked_shape(w, p);
      EXPECT_EQ(core::window_shape_error(b, w, p), "") << w << " " << p;
    }
}

}  // namespace
}  // namespace bloom::test
