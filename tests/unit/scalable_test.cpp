// SPDX-License-Identifier: Apache-2.0
// The scalable kind: stage sizing and the compound bound, growth far past
// the initial capacity, persistence of stage chains, hostile stage tables,
// set operations and bloom_get_stage_info.
#include <gtest/gtest.h>

#include <cstdio>

#include "error.hpp"
#include "kind_test_util.hpp"
#include "kinds/scalable_sizing.hpp"
#include "memory.hpp"
#include "sizing.hpp"

namespace bloom::test {
namespace {

bloom_options scalable_options(uint64_t n, double p) {
  bloom_options o = classic_options(n, p);
  o.kind = BLOOM_KIND_SCALABLE;
  return o;
}

bloom_info stage_info(const bloom_filter *f, uint32_t stage) {
  bloom_info info{};
  info.struct_size = sizeof info;
  EXPECT_EQ(bloom_get_stage_info(f, stage, &info), BLOOM_OK) << bloom_last_error();
  return info;
}

bloom_status create_status(const bloom_options &o) {
  bloom_filter *f = reinterpret_cast<bloom_filter *>(0x1);
  const bloom_status s = bloom_create(&o, &f);
  if (s != BLOOM_OK) {
    EXPECT_EQ(f, nullptr);
  }
  bloom_destroy(f);
  return s;
}

TEST(ScalableSizing, EveryStageMeetsItsRateAndTheRatesSumBelowP) {
  for (double r : {0.5, 0.85, 0.9}) {
    for (double growth : {1.0, 2.0, 4.0}) {
      const double p = 0.01;
      double sum = 0;
      for (uint32_t i = 0; i < 24 && 1000 * std::pow(growth, i) < 1e9; ++i) {
        const core::StageShape s = core::scalable_stage_shape(1000, p, growth, r, i);
        EXPECT_NEAR(s.fp_rate, p * (1 - r) * std::pow(r, i), 1e-15);
        EXPECT_EQ(s.capacity, static_cast<uint64_t>(std::ceil(1000 * std::pow(growth, i))));
        EXPECT_LE(core::classic_fp_rate(static_cast<double>(s.capacity), s.bits, s.hashes), s.fp_rate)
            << "stage " << i << " r " << r;
        EXPECT_GE(s.hashes, 1u);
        EXPECT_LE(s.hashes, BLOOM_MAX_HASHES);
        sum += s.fp_rate;
      }
      EXPECT_LT(sum, p);
    }
  }
  // Stages past 2^40 bits are refused, not wrapped.
  EXPECT_THROW(core::scalable_stage_shape(1000, 0.01, 4.0, 0.85, 30), core::Error);
  // Deep stages clamp k at 64 and raise m instead of missing the rate.
  const core::StageShape deep = core::scalable_stage_shape(10, 0.01, 1.0, 0.5, 60);
  EXPECT_EQ(deep.hashes, BLOOM_MAX_HASHES);
  EXPECT_LE(core::classic_fp_rate(10, deep.bits, deep.hashes), deep.fp_rate);
}

TEST(Scalable, DefaultsAndFirstStage) {
  FilterPtr f = make_filter(scalable_options(1000, 0.01));
  const bloom_info info = info_of(f.get());
  EXPECT_EQ(info.kind, BLOOM_KIND_SCALABLE);
  EXPECT_EQ(info.stages, 1u);
  EXPECT_EQ(info.growth, 2.0);
  EXPECT_EQ(info.tightening, 0.85);
  EXPECT_EQ(info.capacity, 1000u);
  EXPECT_EQ(info.fp_rate, 0.01);
  const core::StageShape s0 = core::scalable_stage_shape(1000, 0.01, 2.0, 0.85, 0);
  EXPECT_EQ(info.bits, s0.bits);
  EXPECT_EQ(info.hashes, s0.hashes);
  EXPECT_NEAR(stage_info(f.get(), 0).fp_rate, 0.01 * 0.15, 1e-15);
}

TEST(Scalable, ParametersAreValidated) {
  bloom_options o = scalable_options(1000, 0.01);
  for (double g : {0.0, 0.5, 0.999, -2.0, std::nan(""), HUGE_VAL}) {
    o.growth = g;
    EXPECT_EQ(create_status(o), BLOOM_E_INVALID_ARG) << g;
  }
  o.growth = 1.0;
  EXPECT_EQ(create_status(o), BLOOM_OK);
  for (double r : {0.0, 1.0, 1.5, -0.1, std::nan("")}) {
    o.tightening = r;
    EXPECT_EQ(create_status(o), BLOOM_E_INVALID_ARG) << r;
    EXPECT_NE(std::string(bloom_last_error()).find("tightening"), std::string::npos);
  }
  o = scalable_options(1000, 0.01);
  o.bits = 10000;
  EXPECT_EQ(create_status(o), BLOOM_E_INVALID_ARG);
  o = scalable_options(1000, 0.01);
  o.flags = BLOOM_FLAG_CONCURRENT;
  EXPECT_EQ(create_status(o), BLOOM_E_UNSUPPORTED);
  EXPECT_NE(std::string(bloom_last_error()).find("CONCURRENT"), std::string::npos);
}

TEST(Scalable, AppendsAStageWhenTheNewestIsFull) {
  FilterPtr f = make_filter(scalable_options(100, 0.01));
  const auto keys = make_keys("g", 100);
  add_all(f.get(), keys);
  EXPECT_EQ(info_of(f.get()).stages, 1u);
  ASSERT_EQ(bloom_add(f.get(), "one-more", 8), BLOOM_OK);
  EXPECT_EQ(info_of(f.get()).stages, 2u);
  const bloom_info s1 = stage_info(f.get(), 1);
  EXPECT_EQ(s1.capacity, 200u);
  EXPECT_EQ(s1.keys_added, 1u);
  EXPECT_NEAR(s1.fp_rate, 0.01 * 0.15 * 0.85, 1e-15);
  // Stage 0 took its 100 keys minus any skipped as already present.
  EXPECT_LE(stage_info(f.get(), 0).keys_added, 100u);
  EXPECT_GE(stage_info(f.get(), 0).keys_added, 99u);
  EXPECT_EQ(info_of(f.get()).capacity, 300u);
}

TEST(Scalable, DuplicatesDoNotUseCapacity) {
  FilterPtr f = make_filter(scalable_options(100, 0.01));
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(bloom_add(f.get(), "same", 4), BLOOM_OK);
  EXPECT_EQ(info_of(f.get()).stages, 1u);
  EXPECT_EQ(stage_info(f.get(), 0).keys_added, 1u);
  EXPECT_EQ(info_of(f.get()).keys_added, 1000u);
  EXPECT_EQ(bloom_test_and_add(f.get(), "new", 3), 0);
  EXPECT_EQ(bloom_test_and_add(f.get(), "new", 3), 1);
  EXPECT_EQ(bloom_remove(f.get(), "new", 3), BLOOM_E_UNSUPPORTED);
}

// Adds n keys to a fresh filter of initial capacity n0, then measures.
struct Grown {
  FilterPtr f;
  bloom_info info;
  double measured;
  double expected;
};

Grown grow(uint64_t n0, uint64_t n, double p, size_t absent) {
  Grown g{make_filter(scalable_options(n0, p)), {}, 0, 0};
  const auto keys = make_keys("present-", n);
  add_all(g.f.get(), keys);
  EXPECT_EQ(count_positive(g.f.get(), keys), keys.size()) << "false negative";
  g.info = info_of(g.f.get());
  g.expected = g.info.expected_fp_rate;
  g.measured = static_cast<double>(count_positive(g.f.get(), make_keys("absent-", absent))) / absent;
  std::printf(
      "scalable n0=%llu n=%llu p=%.3g: stages=%u bits=%llu bytes=%llu measured FPR %.5f expected %.5f\n",
      static_cast<unsigned long long>(n0), static_cast<unsigned long long>(n), p, g.info.stages,
      static_cast<unsigned long long>(g.info.bits), static_cast<unsigned long long>(g.info.bytes), g.measured,
      g.expected);
  return g;
}

// Acceptance: capacity 100,000, p = 0.01, 400,000 absent keys.
TEST(Scalable, FprAtCapacityInsideTheBand) {
  const double p = 0.01;
  const size_t q = 400000;
  Grown g = grow(100000, 100000, p, q);
  EXPECT_EQ(g.info.stages, 1u);
  EXPECT_NEAR(g.measured * q, g.expected * q, 4 * sigma(q, g.expected));
  EXPECT_LE(g.measured * q, p * q + 4 * sigma(q, p));
  // One stage runs at p (1 - r) = 0.0015.
  EXPECT_LE(g.expected, p * 0.15 * 1.01);
}

TEST(Scalable, GrowsToAHundredTimesItsCapacityWithinP) {
  const double p = 0.01;
  const size_t q = 400000;
  Grown g = grow(1000, 100000, p, q);
  EXPECT_EQ(g.info.stages, 7u);  // 1 + 2 + ... + 64 = 127 thousand >= 100 thousand
  EXPECT_LE(g.expected, p);
  EXPECT_NEAR(g.measured * q, g.expected * q, 4 * sigma(q, g.expected));
  EXPECT_LE(g.measured * q, p * q + 4 * sigma(q, p));
  double capacity = 0;
  for (uint32_t i = 0; i < g.info.stages; ++i) {
    const bloom_info s = stage_info(g.f.get(), i);
    EXPECT_EQ(s.capacity, 1000u << i);
    EXPECT_LE(s.keys_added, s.capacity);
    capacity += static_cast<double>(s.capacity);
  }
  EXPECT_EQ(g.info.capacity, capacity);
}

TEST(Scalable, HoldsTwentyTimesItsCapacity) {
  // The acceptance: capacity 100,000, 2,000,000 keys.
  const double p = 0.01;
  const size_t q = 400000;
  Grown g = grow(100000, 2000000, p, q);
  EXPECT_EQ(g.info.stages, 5u);
  EXPECT_LE(g.expected, p);
  EXPECT_LE(g.measured * q, 1.1 * p * q + 4 * sigma(q, 1.1 * p));
}

TEST(Scalable, RoundTripsAMultiStageChain) {
  FilterPtr f = make_filter(scalable_options(300, 0.01));
  add_all(f.get(), make_keys("r", 3000));  // 300 + 600 + 1200 + 2400: four stages
  ASSERT_EQ(info_of(f.get()).stages, 4u);
  const auto image = serialize(f.get());
  FilterPtr g = deserialize_ok(image);
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(serialize(g.get()), image);
  const auto probes = make_keys("r", 20000);
  expect_same_answers(f.get(), g.get(), probes);
  EXPECT_EQ(info_of(g.get()).stages, 4u);
  EXPECT_EQ(info_of(g.get()).keys_added, 3000u);
  for (uint32_t i = 0; i < 4; ++i)
    EXPECT_EQ(stage_info(g.get(), i).keys_added, stage_info(f.get(), i).keys_added);

  const std::string path = temp_path("scalable.bloom");
  ASSERT_EQ(bloom_save(f.get(), path.c_str()), BLOOM_OK) << bloom_last_error();
  bloom_filter *raw = nullptr;
  BLOOM_MAP_OR_SKIP(path.c_str(), &raw);
  FilterPtr mapped(raw);
  expect_same_answers(f.get(), mapped.get(), probes);
  EXPECT_EQ(bloom_add(mapped.get(), "x", 1), BLOOM_E_UNSUPPORTED);
  EXPECT_EQ(serialize(mapped.get()), image);
  raw = nullptr;
  ASSERT_EQ(bloom_load(path.c_str(), &raw), BLOOM_OK) << bloom_last_error();
  FilterPtr loaded(raw);
  // A loaded chain keeps growing exactly as the original does.
  add_all(loaded.get(), make_keys("more", 5000));
  add_all(f.get(), make_keys("more", 5000));
  EXPECT_EQ(serialize(loaded.get()), serialize(f.get()));
  std::remove(path.c_str());
}

TEST(Scalable, StagesAreSixtyFourByteAlignedInTheFile) {
  FilterPtr f = make_filter(scalable_options(100, 0.01));
  add_all(f.get(), make_keys("a", 1000));
  const auto image = serialize(f.get());
  const uint32_t stages = core::load_le32(&image[96]);
  ASSERT_EQ(stages, info_of(f.get()).stages);
  uint64_t offset = 128 + (40 * stages + 63) / 64 * 64;
  for (uint32_t i = 0; i < stages; ++i) {
    EXPECT_EQ(offset % 64, 0u);
    const uint64_t bits = core::load_le64(&image[128 + 40 * i]);
    offset += ((bits + 63) / 64 * 8 + 63) / 64 * 64;
  }
  EXPECT_EQ(offset + 8, image.size());
}

// A valid four-stage image to damage.
std::vector<unsigned char> chain_image() {
  FilterPtr f = make_filter(scalable_options(100, 0.01));
  add_all(f.get(), make_keys("h", 1200));
  EXPECT_EQ(info_of(f.get()).stages, 4u);
  return serialize(f.get());
}

// No cap on the number of stages (there was one at 1024): with equal
// stages (growth 1) and a slow tightening, 1,200 keys in stages of one key
// make over 1,024 stages, each key stays present, and the chain survives
// serialization. What bounds growth is memory (2^40 bits, and the caller's
// check of bloom_growth_bytes) and the stage rate's 1e-300 floor.
TEST(Scalable, GrowsPastAThousandStages) {
  bloom_options o = scalable_options(1, 0.01);
  o.growth = 1.0;
  o.tightening = 0.99;
  FilterPtr f = make_filter(o);
  const auto keys = make_keys("many", 1200);
  add_all(f.get(), keys);
  const uint32_t stages = info_of(f.get()).stages;
  EXPECT_GT(stages, 1024u);
  for (const auto &k : keys) ASSERT_EQ(bloom_query(f.get(), k.data(), k.size()), 1) << k;
  uint64_t next = 0;
  EXPECT_EQ(bloom_growth_bytes(f.get(), &next), BLOOM_OK);
  EXPECT_GT(next, 0u);  // the last stage is full: the next add grows it
  FilterPtr g = deserialize_ok(serialize(f.get()));
  EXPECT_EQ(info_of(g.get()).stages, stages);
  for (const auto &k : keys) ASSERT_EQ(bloom_query(g.get(), k.data(), k.size()), 1) << k;
}

TEST(Scalable, HostileStageTablesAreRefused) {
  const auto good = chain_image();
  ASSERT_EQ(deserialize_status(good), BLOOM_OK);
  auto edit = [&](auto change) {
    auto image = good;
    change(image);
    reseal(image);
    return deserialize_status(image);
  };
  // Stage counts far beyond the limit, or beyond what the payload can hold.
  EXPECT_EQ(edit([](auto &im) { core::store_le32(&im[96], 0xFFFFFFFFu); }), BLOOM_E_FORMAT);
  EXPECT_EQ(edit([](auto &im) { core::store_le32(&im[96], 1024); }), BLOOM_E_FORMAT);
  EXPECT_EQ(edit([](auto &im) { core::store_le32(&im[96], 5); }), BLOOM_E_FORMAT);
  EXPECT_EQ(edit([](auto &im) { core::store_le32(&im[96], 3); }), BLOOM_E_FORMAT);
  // A stage claiming 2^40 bits (128 GiB) in a file of a few KiB: refused
  // from the sizes alone, never allocated.
  EXPECT_EQ(edit([](auto &im) { core::store_le64(&im[128 + 40 * 3], uint64_t{1} << 40); }), BLOOM_E_FORMAT);
  EXPECT_EQ(edit([](auto &im) { core::store_le64(&im[128 + 40 * 2], (uint64_t{1} << 40) + 1); }),
            BLOOM_E_FORMAT);
  // Stage sizes that disagree with the payload by one word.
  EXPECT_EQ(edit([](auto &im) { core::store_le64(&im[128 + 40], core::load_le64(&im[128 + 40]) + 64 * 8); }),
            BLOOM_E_FORMAT);
  // Stage 0 disagreeing with the header's m.
  EXPECT_EQ(edit([](auto &im) { core::store_le64(&im[128], core::load_le64(&im[128]) - 1); }),
            BLOOM_E_FORMAT);
  // Other descriptor fields out of range.
  EXPECT_EQ(edit([](auto &im) { core::store_le32(&im[128 + 40 + 32], 0); }), BLOOM_E_FORMAT);   // k = 0
  EXPECT_EQ(edit([](auto &im) { core::store_le32(&im[128 + 40 + 32], 65); }), BLOOM_E_FORMAT);  // k = 65
  EXPECT_EQ(edit([](auto &im) { core::store_le64(&im[128 + 40 + 8], 0); }), BLOOM_E_FORMAT);    // capacity
  EXPECT_EQ(edit([](auto &im) { core::store_le64(&im[128 + 40 + 24], core::double_bits(1.5)); }),
            BLOOM_E_FORMAT);                                                 // fp_rate
  EXPECT_EQ(edit([](auto &im) { im[128 + 40 + 36] = 1; }), BLOOM_E_FORMAT);  // reserved
  EXPECT_EQ(edit([](auto &im) { im[128 + 40 * 4] = 1; }), BLOOM_E_FORMAT);   // table padding
  // Parameters no create would accept.
  EXPECT_EQ(edit([](auto &im) { core::store_le64(&im[88], core::double_bits(1.0)); }), BLOOM_E_FORMAT);
  EXPECT_EQ(edit([](auto &im) { core::store_le64(&im[80], core::double_bits(0.5)); }), BLOOM_E_FORMAT);
  EXPECT_EQ(edit([](auto &im) { core::store_le32(&im[20], BLOOM_FLAG_CONCURRENT); }), BLOOM_E_UNSUPPORTED);
  // Truncated by one 64-byte line (header fixed to agree): sizes disagree.
  auto cut = good;
  cut.erase(cut.end() - 72, cut.end() - 8);
  core::store_le64(&cut[72], cut.size() - 136);
  reseal(cut);
  EXPECT_EQ(deserialize_status(cut), BLOOM_E_FORMAT);
}

TEST(Scalable, FailedStageAllocationLeavesTheFilterUnchanged) {
  FilterPtr f = make_filter(scalable_options(100, 0.01));
  add_all(f.get(), make_keys("n", 100));
  const auto before = serialize(f.get());
  core::set_allocation_failure_countdown(1);
  EXPECT_EQ(bloom_add(f.get(), "next", 4), BLOOM_E_NOMEM);
  core::set_allocation_failure_countdown(0);
  EXPECT_EQ(serialize(f.get()), before);
  EXPECT_EQ(bloom_query(f.get(), "next", 4), bloom_query(f.get(), "next", 4));
  ASSERT_EQ(bloom_add(f.get(), "next", 4), BLOOM_OK);
  EXPECT_EQ(info_of(f.get()).stages, 2u);
  EXPECT_EQ(bloom_query(f.get(), "next", 4), 1);
}

// A batch that fails to grow the chain part-way keeps the keys it added and
// counts exactly those: the ones before the failing key, across blocks.
TEST(Scalable, BatchThatFailsToGrowCountsTheKeysItAdded) {
  FilterPtr f = make_filter(scalable_options(100, 0.01));
  add_all(f.get(), make_keys("n", 60));
  const auto batch = make_keys("b", 120);  // 40 fit in stage 0, the 41st needs stage 1
  const KeyArrays a = key_arrays(batch);
  core::set_allocation_failure_countdown(1);
  EXPECT_EQ(bloom_add_batch(f.get(), a.ptrs.data(), a.lens.data(), a.ptrs.size()), BLOOM_E_NOMEM);
  core::set_allocation_failure_countdown(0);
  const bloom_info info = info_of(f.get());
  EXPECT_EQ(info.stages, 1u);
  EXPECT_EQ(stage_info(f.get(), 0).keys_added, 100u);
  EXPECT_EQ(info.keys_added, 100u);  // 60 + the 40 of the batch that went in
  for (size_t i = 0; i < 40; ++i) EXPECT_EQ(bloom_query(f.get(), batch[i].data(), batch[i].size()), 1) << i;
  // The rest goes in once memory is back.
  ASSERT_EQ(bloom_add_batch(f.get(), a.ptrs.data() + 40, a.lens.data() + 40, 80), BLOOM_OK);
  EXPECT_EQ(info_of(f.get()).keys_added, 180u);
}

TEST(Scalable, AChainThatCannotGrowFurtherSaysSoAndKeepsWorking) {
  // r = 1e-10 drives p_i below 1e-300 after about 30 one-key stages; the
  // add that would need one more stage fails with OVERFLOW, changing nothing.
  bloom_options o = scalable_options(1, 0.01);
  o.growth = 1;
  o.tightening = 1e-10;
  FilterPtr f = make_filter(o);
  bloom_status s = BLOOM_OK;
  int added = 0;
  for (; added < 100 && s == BLOOM_OK; ++added) {
    const std::string k = "deep" + std::to_string(added);
    s = bloom_add(f.get(), k.data(), k.size());
  }
  ASSERT_EQ(s, BLOOM_E_OVERFLOW) << "stages " << info_of(f.get()).stages;
  EXPECT_NE(std::string(bloom_last_error()).find("underflows"), std::string::npos);
  // One stage per key, except keys skipped as already present.
  const uint32_t stages = info_of(f.get()).stages;
  EXPECT_LE(stages, static_cast<uint32_t>(added - 1));
  EXPECT_GE(stages, 20u);
  const auto before = serialize(f.get());
  const std::string failed = "deep" + std::to_string(added - 1);
  EXPECT_EQ(bloom_add(f.get(), failed.data(), failed.size()), BLOOM_E_OVERFLOW);
  EXPECT_EQ(serialize(f.get()), before);
  for (int i = 0; i < added - 1; ++i) {
    const std::string k = "deep" + std::to_string(i);
    EXPECT_EQ(bloom_query(f.get(), k.data(), k.size()), 1);
  }
  EXPECT_EQ(bloom_add(f.get(), "deep0", 5), BLOOM_OK);  // present keys need no stage
}

TEST(Scalable, UnionOfHalvesAnswersLikeTheWhole) {
  // Halves that each fit the first stage: the union is one stage holding
  // what the whole holds, and answers like it.
  const uint64_t n = 100000;
  const auto keys = make_keys("u", n);
  const auto absent = make_keys("not-", 400000);
  FilterPtr whole = make_filter(scalable_options(n, 0.01));
  FilterPtr a = make_filter(scalable_options(n, 0.01));
  FilterPtr b = make_filter(scalable_options(n, 0.01));
  add_all(whole.get(), keys);
  for (size_t i = 0; i < keys.size(); ++i)
    ASSERT_EQ(bloom_add(i % 2 == 0 ? a.get() : b.get(), keys[i].data(), keys[i].size()), BLOOM_OK);
  ASSERT_EQ(bloom_merge(a.get(), b.get()), BLOOM_OK) << bloom_last_error();
  EXPECT_EQ(info_of(a.get()).stages, 1u);
  EXPECT_EQ(count_positive(a.get(), keys), keys.size()) << "the union lost a key";
  const double q = static_cast<double>(absent.size());
  const double expected = info_of(whole.get()).expected_fp_rate;
  const double fp = static_cast<double>(count_positive(a.get(), absent));
  EXPECT_NEAR(fp, q * expected, 4 * sigma(q, expected));
  EXPECT_NEAR(info_of(a.get()).fill_ratio, info_of(whole.get()).fill_ratio, 0.001);

  // Union with itself keeps every answer.
  bloom_filter *raw = nullptr;
  ASSERT_EQ(bloom_clone(whole.get(), &raw), BLOOM_OK);
  FilterPtr before(raw);
  ASSERT_EQ(bloom_merge(whole.get(), whole.get()), BLOOM_OK);
  expect_same_answers(whole.get(), before.get(), absent);
  EXPECT_EQ(count_positive(whole.get(), keys), keys.size());
}

TEST(Scalable, UnionOfMultiStageChainsLosesNoKeyAndReportsItsRate) {
  // Both chains put keys into stages 0 and 1, so the union's stages hold
  // more than their capacity: no key is lost, and the rate info reports is
  // the rate measured (it is above p here, as documented).
  const uint64_t n0 = 2000;
  const auto keys = make_keys("u", 16000);
  const auto absent = make_keys("not-", 200000);
  FilterPtr a = make_filter(scalable_options(n0, 0.01));
  FilterPtr b = make_filter(scalable_options(n0, 0.01));
  for (size_t i = 0; i < keys.size(); ++i)
    ASSERT_EQ(bloom_add(i % 3 == 0 ? a.get() : b.get(), keys[i].data(), keys[i].size()), BLOOM_OK);
  ASSERT_LT(info_of(a.get()).stages, info_of(b.get()).stages);  // a shorter chain gets b's extra stages
  ASSERT_EQ(bloom_merge(a.get(), b.get()), BLOOM_OK) << bloom_last_error();
  const bloom_info u = info_of(a.get());
  EXPECT_EQ(u.stages, info_of(b.get()).stages);
  EXPECT_EQ(u.keys_added, keys.size());
  EXPECT_EQ(stage_info(a.get(), 0).keys_added, 4000u);  // 2000 from each, capacity 2000
  EXPECT_EQ(count_positive(a.get(), keys), keys.size()) << "the union lost a key";
  const double q = static_cast<double>(absent.size());
  const double fp = static_cast<double>(count_positive(a.get(), absent));
  EXPECT_NEAR(fp, q * u.expected_fp_rate, 4 * sigma(q, u.expected_fp_rate));
  // New keys go to the newest stage (b's third), never into the overfull ones.
  const uint64_t first = stage_info(a.get(), 0).keys_added;
  const uint64_t newest = stage_info(a.get(), 2).keys_added;
  add_all(a.get(), make_keys("after", 10));
  EXPECT_EQ(stage_info(a.get(), 0).keys_added, first);
  EXPECT_GT(stage_info(a.get(), 2).keys_added, newest);  // some of the 10 may be false positives, skipped
  EXPECT_LE(stage_info(a.get(), 2).keys_added, newest + 10);
}

TEST(Scalable, UnionRefusesDifferentChains) {
  FilterPtr a = make_filter(scalable_options(1000, 0.01));
  bloom_options o = scalable_options(1000, 0.01);
  o.tightening = 0.9;
  FilterPtr b = make_filter(o);
  EXPECT_EQ(bloom_merge(a.get(), b.get()), BLOOM_E_INCOMPATIBLE);  // stage 0's m differs first
  EXPECT_NE(std::string(bloom_last_error()).find("differs"), std::string::npos);
  o = scalable_options(1000, 0.01);
  o.growth = 4;
  FilterPtr c = make_filter(o);
  EXPECT_EQ(bloom_merge(a.get(), c.get()), BLOOM_E_INCOMPATIBLE);
  EXPECT_NE(std::string(bloom_last_error()).find("growth"), std::string::npos);
  FilterPtr d = make_filter(scalable_options(1001, 0.01));
  EXPECT_EQ(bloom_merge(a.get(), d.get()), BLOOM_E_INCOMPATIBLE);
  FilterPtr classic = make_filter(classic_options(1000, 0.01));
  EXPECT_EQ(bloom_merge(a.get(), classic.get()), BLOOM_E_INCOMPATIBLE);
  EXPECT_NE(std::string(bloom_last_error()).find("kind"), std::string::npos);
}

TEST(Scalable, IntersectionOnlyOfSingleStageChains) {
  const auto keys = make_keys("i", 3000);
  FilterPtr a = make_filter(scalable_options(5000, 0.01));
  FilterPtr b = make_filter(scalable_options(5000, 0.01));
  add_all(a.get(), std::vector<std::string>(keys.begin(), keys.begin() + 2000));
  add_all(b.get(), std::vector<std::string>(keys.begin() + 1000, keys.end()));
  ASSERT_EQ(bloom_intersect(a.get(), b.get()), BLOOM_OK) << bloom_last_error();
  EXPECT_EQ(count_positive(a.get(), std::vector<std::string>(keys.begin() + 1000, keys.begin() + 2000)),
            1000u);

  FilterPtr grown = make_filter(scalable_options(100, 0.01));
  add_all(grown.get(), make_keys("g", 500));
  EXPECT_EQ(bloom_intersect(grown.get(), grown.get()), BLOOM_E_INCOMPATIBLE);
  EXPECT_NE(std::string(bloom_last_error()).find("one stage"), std::string::npos);
}

TEST(Scalable, ClearAndCloneAndStageInfoBounds) {
  FilterPtr f = make_filter(scalable_options(100, 0.01));
  add_all(f.get(), make_keys("c", 700));
  ASSERT_EQ(info_of(f.get()).stages, 3u);
  bloom_filter *raw = nullptr;
  ASSERT_EQ(bloom_clone(f.get(), &raw), BLOOM_OK);
  FilterPtr copy(raw);
  EXPECT_EQ(serialize(copy.get()), serialize(f.get()));
  bloom_info info{};
  info.struct_size = sizeof info;
  EXPECT_EQ(bloom_get_stage_info(f.get(), 3, &info), BLOOM_E_INVALID_ARG);
  EXPECT_EQ(bloom_get_stage_info(nullptr, 0, &info), BLOOM_E_INVALID_ARG);
  EXPECT_EQ(bloom_get_stage_info(f.get(), 0, nullptr), BLOOM_E_INVALID_ARG);
  ASSERT_EQ(bloom_clear(f.get()), BLOOM_OK);
  EXPECT_EQ(info_of(f.get()).stages, 1u);
  EXPECT_EQ(info_of(f.get()).fill_ratio, 0.0);
  EXPECT_EQ(bloom_query(f.get(), "c1", 2), 0);
  EXPECT_EQ(bloom_query(copy.get(), "c1", 2), 1);
  // Other kinds: stage 0 is the filter.
  FilterPtr classic = make_filter(classic_options(1000, 0.01));
  add_all(classic.get(), make_keys("z", 10));
  const bloom_info whole = info_of(classic.get());
  const bloom_info s0 = stage_info(classic.get(), 0);
  EXPECT_EQ(s0.bits, whole.bits);
  EXPECT_EQ(s0.keys_added, whole.keys_added);
  EXPECT_EQ(bloom_get_stage_info(classic.get(), 1, &info), BLOOM_E_INVALID_ARG);
}

// The compound expected rate keeps tiny stage rates: with one stage it is
// the stage's own (it was 1 - (1 - 2e-20) = 0 in double).
TEST(Scalable, ExpectedRateOfOneStageIsThatStagesEvenWhenTiny) {
  FilterPtr f = make_filter(scalable_options(1000, 0.01));
  add_all(f.get(), make_keys("few-", 10));
  const double stage = stage_info(f.get(), 0).expected_fp_rate;
  ASSERT_GT(stage, 0.0);
  ASSERT_LT(stage, 1e-16);
  EXPECT_DOUBLE_EQ(info_of(f.get()).expected_fp_rate, stage);
}

}  // namespace
}  // namespace bloom::test
