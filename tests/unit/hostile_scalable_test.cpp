// SPDX-License-Identifier: Apache-2.0
// hostile_scalable_test.cpp -- a scalable file's header fields that size
// the next stage (capacity, fp_rate, growth, tightening) must reproduce
// every stored stage, or the file is refused: held-out testing made a
// 264-byte file reserve 14.9 GB on its second add (capacity 2^32 - 1), a
// 1 KB file a 223 MB stage (fp_rate 1.6e-298) and 115 MB (growth 131072).
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include "byte_order.hpp"
#include "image_tools.hpp"
#include "memory.hpp"
#include "test_util.hpp"

namespace bloom::test {
namespace {

std::vector<unsigned char> scalable_image(uint64_t capacity, size_t keys) {
  bloom_options o;
  bloom_options_init(&o);
  o.kind = BLOOM_KIND_SCALABLE;
  o.capacity = capacity;
  FilterPtr f = make_filter(o);
  add_all(f.get(), make_keys("k", keys));
  return serialize(f.get());
}

void set_double(std::vector<unsigned char> &image, const char *field, double v) {
  store_field(image, header_field(field), core::double_bits(v));
}

bloom_status load_status(std::vector<unsigned char> image) {
  fix_checksums(image);
  bloom_filter *f = nullptr;
  const bloom_status s = bloom_deserialize(image.data(), image.size(), &f);
  bloom_destroy(f);
  return s;
}

TEST(HostileScalable, TheIssuesThreeImagesAreRefused) {
  const std::vector<unsigned char> good = scalable_image(1, 0);
  ASSERT_EQ(load_status(good), BLOOM_OK);
  std::vector<unsigned char> capacity = good;
  store_field(capacity, header_field("capacity"), 4294967295u);
  EXPECT_EQ(load_status(capacity), BLOOM_E_FORMAT);
  std::vector<unsigned char> rate = good;
  set_double(rate, "fp_rate", 1.6e-298);
  EXPECT_EQ(load_status(rate), BLOOM_E_FORMAT);
  std::vector<unsigned char> growth = good;
  set_double(growth, "growth", 131072);
  EXPECT_EQ(load_status(growth), BLOOM_E_FORMAT);
  EXPECT_NE(std::string(bloom_last_error()).find("growth"), std::string::npos) << bloom_last_error();
}

// Every field that sizes later stages, moved a little or a lot, on a chain
// of three stages: refused, whichever stage it would disagree with.
TEST(HostileScalable, EveryStageMustMatchTheHeadersParameters) {
  const std::vector<unsigned char> good = scalable_image(100, 500);  // 100 + 200 + 400: three stages
  ASSERT_EQ(core::load_le32(&good[header_field("stages").offset]), 3u);
  ASSERT_EQ(load_status(good), BLOOM_OK);
  for (double factor : {0.5, 0.99, 1.01, 2.0, 1e6}) {
    std::vector<unsigned char> cap = good;
    store_field(cap, header_field("capacity"), static_cast<uint64_t>(100 * factor));
    if (static_cast<uint64_t>(100 * factor) != 100) {
      EXPECT_EQ(load_status(cap), BLOOM_E_FORMAT) << factor;
    }
    for (const char *field : {"fp_rate", "growth", "tightening"}) {
      std::vector<unsigned char> image = good;
      const double v = core::bits_double(core::load_le64(&image[header_field(field).offset]));
      set_double(image, field, v * factor);
      EXPECT_EQ(load_status(image), BLOOM_E_FORMAT) << field << " x " << factor;
    }
  }
}

// One hostile image per header field that sizes later stages, checksums
// fixed so only the field is wrong: the issue's three on an empty filter,
// and each field moved by 1% on a three-stage chain.
std::vector<std::pair<std::string, std::vector<unsigned char>>> hostile_images() {
  std::vector<std::pair<std::string, std::vector<unsigned char>>> out;
  const std::vector<unsigned char> empty = scalable_image(1, 0);
  const std::vector<unsigned char> chain = scalable_image(100, 500);
  auto with = [&](const std::string &name, std::vector<unsigned char> image, const char *field, double v,
                  bool integer) {
    if (integer)
      store_field(image, header_field(field), static_cast<uint64_t>(v));
    else
      set_double(image, field, v);
    fix_checksums(image);
    out.emplace_back(name, std::move(image));
  };
  auto field_double = [&](const char *field) {
    return core::bits_double(core::load_le64(&chain[header_field(field).offset]));
  };
  with("scalable_capacity_2e32", empty, "capacity", 4294967295.0, true);
  with("scalable_fp_rate_1e-298", empty, "fp_rate", 1.6e-298, false);
  with("scalable_growth_131072", empty, "growth", 131072, false);
  with("scalable_chain_capacity", chain, "capacity", 101, true);
  with("scalable_chain_fp_rate", chain, "fp_rate", field_double("fp_rate") * 1.01, false);
  with("scalable_chain_growth", chain, "growth", field_double("growth") * 1.01, false);
  with("scalable_chain_tightening", chain, "tightening", field_double("tightening") * 0.99, false);
  return out;
}

// The same images as files in tests/golden/hostile/, so every later loader
// is held to these exact bytes (and the fuzz corpora can take them). They
// are written by hand when a case is added:
//   BLOOM_WRITE_HOSTILE_DIR=tests/golden/hostile bloom_unit_tests --gtest_filter=HostileScalable.*
TEST(HostileScalable, TheCommittedHostileFilesAreRefused) {
  const std::string dir = std::string(BLOOM_TEST_GOLDEN_DIR) + "/hostile/";
  for (const auto &[name, image] : hostile_images()) {
    if (const char *write = std::getenv("BLOOM_WRITE_HOSTILE_DIR"))
      std::ofstream(std::string(write) + "/" + name + ".bloom", std::ios::binary)
          .write(reinterpret_cast<const char *>(image.data()), static_cast<std::streamsize>(image.size()));
    std::ifstream in(dir + name + ".bloom", std::ios::binary);
    ASSERT_TRUE(in.good()) << "missing " << dir << name << ".bloom";
    const std::vector<unsigned char> file{std::istreambuf_iterator<char>(in),
                                          std::istreambuf_iterator<char>()};
    bloom_filter *f = nullptr;
    EXPECT_EQ(bloom_deserialize(file.data(), file.size(), &f), BLOOM_E_FORMAT) << name;
    EXPECT_EQ(f, nullptr);
    const std::string path = dir + name + ".bloom";
    EXPECT_EQ(bloom_load(path.c_str(), &f), BLOOM_E_FORMAT) << name;
    EXPECT_EQ(bloom_map(path.c_str(), &f), BLOOM_E_FORMAT) << name;  // before any array is read
  }
}

// What loading accepts grows by the documented step only: each add
// allocates at most what bloom_growth_bytes announced before it, and that
// is the next stage's array (growth x the newest stage's keys).
TEST(HostileScalable, GrowthIsAnnouncedBeforeItIsAllocated) {
  std::vector<unsigned char> image = scalable_image(100, 100);  // stage 0 exactly full
  bloom_filter *f = nullptr;
  ASSERT_EQ(bloom_deserialize(image.data(), image.size(), &f), BLOOM_OK);
  uint64_t announced = 0;
  ASSERT_EQ(bloom_growth_bytes(f, &announced), BLOOM_OK);
  bloom_info s1;
  s1.struct_size = sizeof s1;
  EXPECT_GT(announced, 0u);
  core::reset_allocation_stats();
  ASSERT_EQ(bloom_add(f, "new key", 7), BLOOM_OK);
  EXPECT_EQ(core::allocation_stats().array_bytes, announced);
  ASSERT_EQ(bloom_get_stage_info(f, 1, &s1), BLOOM_OK);
  EXPECT_EQ(s1.capacity, 200u);
  EXPECT_EQ(s1.bytes, announced);
  // Stage 1 has room: the next add allocates nothing.
  ASSERT_EQ(bloom_growth_bytes(f, &announced), BLOOM_OK);
  EXPECT_EQ(announced, 0u);
  bloom_destroy(f);

  FilterPtr classic = make_filter(classic_options(100, 0.01));
  ASSERT_EQ(bloom_growth_bytes(classic.get(), &announced), BLOOM_OK);
  EXPECT_EQ(announced, 0u);
  EXPECT_EQ(bloom_growth_bytes(nullptr, &announced), BLOOM_E_INVALID_ARG);
  EXPECT_EQ(bloom_growth_bytes(classic.get(), nullptr), BLOOM_E_INVALID_ARG);
}

TEST(HostileScalable, GrowthAboveRedisBloomsLimitIsRefusedAtCreate) {
  bloom_options o;
  bloom_options_init(&o);
  o.kind = BLOOM_KIND_SCALABLE;
  o.growth = 32768;
  bloom_filter *f = nullptr;
  EXPECT_EQ(bloom_create(&o, &f), BLOOM_OK) << bloom_last_error();
  bloom_destroy(f);
  o.growth = 32769;
  EXPECT_EQ(bloom_create(&o, &f), BLOOM_E_INVALID_ARG);
}

}  // namespace
}  // namespace bloom::test
