// SPDX-License-Identifier: Apache-2.0
// Error paths of the C API: NULLs, bad options, status strings.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <thread>

#include "test_util.hpp"

namespace bloom::test {
namespace {

TEST(Errors, NullHandlesGiveErrorsNotCrashes) {
  uint8_t r;
  size_t size;
  const void *keys[] = {"a"};
  const size_t lens[] = {1};
  bloom_info info;
  info.struct_size = sizeof info;
  bloom_filter *out = reinterpret_cast<bloom_filter *>(0x1);
  EXPECT_EQ(bloom_add(nullptr, "a", 1), BLOOM_E_INVALID_ARG);
  EXPECT_NE(std::strstr(bloom_last_error(), "bloom_add"), nullptr);
  EXPECT_EQ(bloom_query(nullptr, "a", 1), BLOOM_E_INVALID_ARG);
  EXPECT_EQ(bloom_test_and_add(nullptr, "a", 1), BLOOM_E_INVALID_ARG);
  EXPECT_EQ(bloom_remove(nullptr, "a", 1), BLOOM_E_INVALID_ARG);
  EXPECT_EQ(bloom_add_batch(nullptr, keys, lens, 1), BLOOM_E_INVALID_ARG);
  EXPECT_EQ(bloom_query_batch(nullptr, keys, lens, 1, &r), BLOOM_E_INVALID_ARG);
  EXPECT_EQ(bloom_merge(nullptr, nullptr), BLOOM_E_INVALID_ARG);
  EXPECT_EQ(bloom_intersect(nullptr, nullptr), BLOOM_E_INVALID_ARG);
  EXPECT_EQ(bloom_clone(nullptr, &out), BLOOM_E_INVALID_ARG);
  EXPECT_EQ(out, nullptr);
  EXPECT_EQ(bloom_clear(nullptr), BLOOM_E_INVALID_ARG);
  EXPECT_EQ(bloom_save(nullptr, "/tmp/x"), BLOOM_E_INVALID_ARG);
  EXPECT_EQ(bloom_load(nullptr, &out), BLOOM_E_INVALID_ARG);
  EXPECT_EQ(bloom_load("/tmp/x", nullptr), BLOOM_E_INVALID_ARG);
  EXPECT_EQ(bloom_map(nullptr, &out), BLOOM_E_INVALID_ARG);
  EXPECT_EQ(bloom_serialized_size(nullptr, &size), BLOOM_E_INVALID_ARG);
  EXPECT_EQ(bloom_serialize(nullptr, nullptr, 0, &size), BLOOM_E_INVALID_ARG);
  EXPECT_EQ(bloom_deserialize(nullptr, 0, nullptr), BLOOM_E_INVALID_ARG);
  EXPECT_EQ(bloom_get_info(nullptr, &info), BLOOM_E_INVALID_ARG);
  EXPECT_EQ(bloom_create(nullptr, &out), BLOOM_E_INVALID_ARG);
  bloom_destroy(nullptr);
  bloom_options_init(nullptr);

  FilterPtr f = make_filter(classic_options(10, 0.1));
  EXPECT_EQ(bloom_add(f.get(), nullptr, 3), BLOOM_E_INVALID_ARG);
  EXPECT_EQ(bloom_query(f.get(), nullptr, 3), BLOOM_E_INVALID_ARG);
  EXPECT_EQ(bloom_get_info(f.get(), nullptr), BLOOM_E_INVALID_ARG);
  EXPECT_EQ(bloom_save(f.get(), nullptr), BLOOM_E_INVALID_ARG);
  EXPECT_EQ(bloom_save(f.get(), ""), BLOOM_E_INVALID_ARG);
  EXPECT_EQ(bloom_merge(f.get(), nullptr), BLOOM_E_INVALID_ARG);
  info.struct_size = 0;
  EXPECT_EQ(bloom_get_info(f.get(), &info), BLOOM_E_INVALID_ARG);
}

bloom_status create_with(void (*edit)(bloom_options &)) {
  bloom_options o;
  bloom_options_init(&o);
  edit(o);
  bloom_filter *f = reinterpret_cast<bloom_filter *>(0x1);
  const bloom_status s = bloom_create(&o, &f);
  if (s != BLOOM_OK) {
    EXPECT_EQ(f, nullptr);
  }
  bloom_destroy(f);
  return s;
}

TEST(Errors, BadOptionsAreRefused) {
  EXPECT_EQ(create_with([](bloom_options &o) { o.fp_rate = 0; }), BLOOM_E_INVALID_ARG);
  EXPECT_EQ(create_with([](bloom_options &o) { o.fp_rate = 1; }), BLOOM_E_INVALID_ARG);
  EXPECT_EQ(create_with([](bloom_options &o) { o.fp_rate = -0.1; }), BLOOM_E_INVALID_ARG);
  EXPECT_EQ(create_with([](bloom_options &o) { o.capacity = 0; }), BLOOM_E_INVALID_ARG);
  EXPECT_EQ(create_with([](bloom_options &o) { o.kind = 0; }), BLOOM_E_INVALID_ARG);
  EXPECT_EQ(create_with([](bloom_options &o) { o.kind = 42; }), BLOOM_E_INVALID_ARG);
  EXPECT_EQ(create_with([](bloom_options &o) { o.hash = 9; }), BLOOM_E_INVALID_ARG);
  EXPECT_EQ(create_with([](bloom_options &o) { o.flags = 0x100; }), BLOOM_E_INVALID_ARG);
  EXPECT_EQ(create_with([](bloom_options &o) { o.hashes = 65; }), BLOOM_E_INVALID_ARG);
  EXPECT_EQ(create_with([](bloom_options &o) { o.struct_size = 4; }), BLOOM_E_INVALID_ARG);
  EXPECT_EQ(create_with([](bloom_options &o) {
              o.bits = 100;
              o.capacity = 0;
            }),
            BLOOM_E_INVALID_ARG);  // k = 0 and nothing to derive it from
  EXPECT_EQ(create_with([](bloom_options &o) { o.bits = UINT64_MAX; }), BLOOM_E_OVERFLOW);
  EXPECT_EQ(create_with([](bloom_options &o) {
              o.capacity = UINT64_MAX;
              o.fp_rate = 1e-9;
            }),
            BLOOM_E_OVERFLOW);
  EXPECT_NE(std::strlen(bloom_last_error()), 0u);
}

TEST(Errors, OlderCallersOptionsStructIsDefaultedPastItsSize) {
  bloom_options o;
  bloom_options_init(&o);
  o.capacity = 1000;
  o.fp_rate = 0.05;
  o.hash = 99;  // beyond the struct_size below: must be ignored
  o.struct_size = offsetof(bloom_options, hash);
  bloom_filter *f = nullptr;
  ASSERT_EQ(bloom_create(&o, &f), BLOOM_OK) << bloom_last_error();
  bloom_info info;
  info.struct_size = sizeof info;
  ASSERT_EQ(bloom_get_info(f, &info), BLOOM_OK);
  EXPECT_EQ(info.hash, BLOOM_HASH_XXH3);
  EXPECT_EQ(info.capacity, 1000u);
  bloom_destroy(f);
}

TEST(Errors, StatusStringsAreStableAndDistinct) {
  EXPECT_STREQ(bloom_strerror(BLOOM_OK), "success");
  EXPECT_STREQ(bloom_strerror(12345), "unknown status");
  for (int s = -11; s <= 0; ++s) {
    EXPECT_STRNE(bloom_strerror(s), "unknown status") << s;
    for (int t = s + 1; t <= 0; ++t) EXPECT_STRNE(bloom_strerror(s), bloom_strerror(t));
  }
}

TEST(Errors, PinnedValues) {
  EXPECT_EQ(BLOOM_E_INVALID_ARG, -1);
  EXPECT_EQ(BLOOM_E_NOMEM, -2);
  EXPECT_EQ(BLOOM_E_IO, -3);
  EXPECT_EQ(BLOOM_E_FORMAT, -4);
  EXPECT_EQ(BLOOM_E_CHECKSUM, -5);
  EXPECT_EQ(BLOOM_E_VERSION, -6);
  EXPECT_EQ(BLOOM_E_UNSUPPORTED, -7);
  EXPECT_EQ(BLOOM_E_INCOMPATIBLE, -8);
  EXPECT_EQ(BLOOM_E_OVERFLOW, -9);
  EXPECT_EQ(BLOOM_E_BUFFER_TOO_SMALL, -10);
  EXPECT_EQ(BLOOM_E_NOT_PRESENT, -11);
  EXPECT_EQ(BLOOM_KIND_CLASSIC, 1);
  EXPECT_EQ(BLOOM_KIND_SCALABLE, 5);
  EXPECT_EQ(BLOOM_HASH_XXH3, 1);
  EXPECT_EQ(BLOOM_HASH_FNV1A, 3);
}

TEST(Errors, LastErrorIsPerThread) {
  EXPECT_EQ(bloom_add(nullptr, "a", 1), BLOOM_E_INVALID_ARG);
  std::string other;
  std::thread([&] { other = bloom_last_error(); }).join();
  EXPECT_EQ(other, "");
  EXPECT_NE(std::string(bloom_last_error()), "");
}

TEST(Errors, NamesAndVersions) {
  EXPECT_STREQ(bloom_kind_name(BLOOM_KIND_BLOCKED), "blocked");
  EXPECT_EQ(bloom_kind_name(0), nullptr);
  EXPECT_EQ(bloom_kind_from_name("scalable"), BLOOM_KIND_SCALABLE);
  EXPECT_EQ(bloom_kind_from_name("nope"), 0);
  EXPECT_EQ(bloom_kind_from_name(nullptr), 0);
  EXPECT_STREQ(bloom_hash_name(BLOOM_HASH_MURMUR3), "murmur3");
  EXPECT_EQ(bloom_hash_from_name("fnv1a"), BLOOM_HASH_FNV1A);
  EXPECT_EQ(bloom_version_number(), static_cast<unsigned>(BLOOM_VERSION_NUMBER));
  const std::string v = std::to_string(BLOOM_VERSION_MAJOR) + "." + std::to_string(BLOOM_VERSION_MINOR) +
                        "." + std::to_string(BLOOM_VERSION_PATCH);
  EXPECT_EQ(v, bloom_version_string());
  EXPECT_EQ(bloom_options_size(), sizeof(bloom_options));
  EXPECT_EQ(bloom_info_size(), sizeof(bloom_info));
}

}  // namespace
}  // namespace bloom::test
