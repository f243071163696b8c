// SPDX-License-Identifier: Apache-2.0
// Format v1: round trips, atomic save, and refusal of damaged input.
#include <dirent.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>
#include <fstream>
#include <iterator>

#include "byte_order.hpp"
#include "format/header.hpp"
#include "test_util.hpp"

namespace bloom::test {
namespace {

FilterPtr small_filled_filter() {
  FilterPtr f = make_filter(classic_options(300, 0.01));
  add_all(f.get(), make_keys("f", 300));
  return f;
}

FilterPtr deserialize(const std::vector<unsigned char> &buf, bloom_status *status) {
  bloom_filter *g = reinterpret_cast<bloom_filter *>(0x1);
  *status = bloom_deserialize(buf.data(), buf.size(), &g);
  if (*status != BLOOM_OK) {
    EXPECT_EQ(g, nullptr);
  }
  return FilterPtr(*status == BLOOM_OK ? g : nullptr);
}

TEST(Format, SerializeRoundTripAnswersIdenticallyAndReserializesIdentically) {
  FilterPtr f = small_filled_filter();
  const auto image = serialize(f.get());
  EXPECT_EQ(image.size() % 8, 0u);
  bloom_status s;
  FilterPtr g = deserialize(image, &s);
  ASSERT_EQ(s, BLOOM_OK) << bloom_last_error();
  const auto probes = make_keys("f", 5000);
  for (const auto &k : probes)
    EXPECT_EQ(bloom_query(f.get(), k.data(), k.size()), bloom_query(g.get(), k.data(), k.size()));
  EXPECT_EQ(serialize(g.get()), image);
}

TEST(Format, HeaderLayoutIsPinned) {
  FilterPtr f = small_filled_filter();
  const auto image = serialize(f.get());
  const unsigned char magic[8] = {0x89, 'B', 'L', 'O', 'O', 'M', '\r', '\n'};
  EXPECT_EQ(std::memcmp(image.data(), magic, 8), 0);
  EXPECT_EQ(core::load_le16(&image[8]), 1u);     // format major
  EXPECT_EQ(core::load_le16(&image[12]), 128u);  // header size
  EXPECT_EQ(core::load_le16(&image[14]), BLOOM_KIND_CLASSIC);
  EXPECT_EQ(core::load_le32(&image[24]), 7u);  // k
  // m for 300 keys at 1%: the formula's 2876 grown until the exact rate is
  // 1% (small_filter_sizing.hpp; at 2876 it was 1.005%).
  EXPECT_EQ(core::load_le64(&image[40]), 2880u);
  EXPECT_EQ(core::load_le64(&image[64]), 300u);  // keys added
  EXPECT_EQ(core::load_le64(&image[72]), image.size() - 136);
}

TEST(Format, SerializeReportsTheSizeNeeded) {
  FilterPtr f = small_filled_filter();
  size_t need = 0, written = 1;
  ASSERT_EQ(bloom_serialized_size(f.get(), &need), BLOOM_OK);
  std::vector<unsigned char> small(need - 1);
  EXPECT_EQ(bloom_serialize(f.get(), small.data(), small.size(), &written), BLOOM_E_BUFFER_TOO_SMALL);
  EXPECT_EQ(written, need);
  EXPECT_EQ(bloom_serialize(f.get(), nullptr, 0, &written), BLOOM_E_BUFFER_TOO_SMALL);
  EXPECT_EQ(bloom_serialize(f.get(), nullptr, 10, &written), BLOOM_E_INVALID_ARG);
  EXPECT_EQ(bloom_serialize(f.get(), small.data(), small.size(), nullptr), BLOOM_E_INVALID_ARG);
}

TEST(Format, EveryTruncationIsRefused) {
  FilterPtr f = small_filled_filter();
  const auto image = serialize(f.get());
  for (size_t len = 0; len < image.size(); ++len) {
    std::vector<unsigned char> cut(image.begin(), image.begin() + static_cast<long>(len));
    bloom_status s;
    FilterPtr g = deserialize(cut, &s);
    EXPECT_EQ(s, BLOOM_E_FORMAT) << "length " << len << ": " << bloom_last_error();
  }
}

TEST(Format, TrailingGarbageIsRefused) {
  FilterPtr f = small_filled_filter();
  auto image = serialize(f.get());
  image.push_back(0);
  bloom_status s;
  deserialize(image, &s);
  EXPECT_EQ(s, BLOOM_E_FORMAT);
}

TEST(Format, EverySingleBitFlipIsRefused) {
  FilterPtr f = small_filled_filter();
  const auto image = serialize(f.get());
  for (size_t byte = 0; byte < image.size(); ++byte) {
    for (int bit = 0; bit < 8; ++bit) {
      auto damaged = image;
      damaged[byte] ^= static_cast<unsigned char>(1u << bit);
      bloom_status s;
      FilterPtr g = deserialize(damaged, &s);
      ASSERT_NE(s, BLOOM_OK) << "byte " << byte << " bit " << bit;
      if (byte >= 128 && byte < image.size() - 8) {
        EXPECT_TRUE(s == BLOOM_E_CHECKSUM || s == BLOOM_E_FORMAT) << byte;
      }
    }
  }
}

// Rewrites a header field and fixes the header checksum, so the check that
// refuses the field is reached (not the checksum).
std::vector<unsigned char> with_field(std::vector<unsigned char> image, size_t offset, uint64_t value,
                                      size_t width) {
  if (width == 8) core::store_le64(&image[offset], value);
  if (width == 4) core::store_le32(&image[offset], static_cast<uint32_t>(value));
  if (width == 2) core::store_le16(&image[offset], static_cast<uint16_t>(value));
  core::store_le64(&image[120], core::checksum64(image.data(), 120));
  return image;
}

TEST(Format, HostileHeaderFieldsAreRefusedWithSpecificStatuses) {
  FilterPtr f = small_filled_filter();
  const auto image = serialize(f.get());
  struct Case {
    size_t offset, width;
    uint64_t value;
    bloom_status expected;
  } cases[] = {
      {8, 2, 2, BLOOM_E_VERSION},                       // format major 2
      {12, 2, 64, BLOOM_E_FORMAT},                      // header size
      {14, 2, 0, BLOOM_E_FORMAT},                       // kind 0
      {14, 2, 99, BLOOM_E_FORMAT},                      // unknown kind
      {16, 2, 0, BLOOM_E_FORMAT},                       // hash 0
      {20, 4, 0x80, BLOOM_E_FORMAT},                    // unknown flag
      {24, 4, 0, BLOOM_E_FORMAT},                       // k = 0
      {24, 4, 65, BLOOM_E_FORMAT},                      // k too large
      {40, 8, 0, BLOOM_E_FORMAT},                       // m = 0
      {40, 8, UINT64_MAX, BLOOM_E_OVERFLOW},            // m absurd
      {40, 8, uint64_t{1} << 40, BLOOM_E_FORMAT},       // m allowed but payload disagrees
      {40, 8, 2876 + 64, BLOOM_E_FORMAT},               // m one word larger than the payload
      {56, 8, core::double_bits(1.5), BLOOM_E_FORMAT},  // fp_rate
      {72, 8, UINT64_MAX, BLOOM_E_FORMAT},              // payload size
      {72, 8, 0, BLOOM_E_FORMAT},
      {96, 4, 0, BLOOM_E_FORMAT},  // stages
      {96, 4, 2, BLOOM_E_FORMAT},
  };
  for (const Case &c : cases) {
    bloom_status s;
    FilterPtr g = deserialize(with_field(image, c.offset, c.value, c.width), &s);
    EXPECT_EQ(s, c.expected) << "offset " << c.offset << " value " << c.value << ": " << bloom_last_error();
  }
}

TEST(Format, PaddingBitsBeyondMAreRefused) {
  bloom_options o = classic_options(300, 0.01);
  o.bits = 2876;  // the last word uses 60 bits
  o.hashes = 7;
  FilterPtr f = make_filter(o);
  add_all(f.get(), make_keys("f", 300));
  auto image = serialize(f.get());
  const size_t last_byte = image.size() - 9;
  image[last_byte] |= 0x80;
  core::store_le64(&image[image.size() - 8], core::checksum64(&image[128], image.size() - 136));
  bloom_status s;
  deserialize(image, &s);
  EXPECT_EQ(s, BLOOM_E_FORMAT) << bloom_last_error();
}

TEST(Format, TinyAndForeignBuffersAreRefused) {
  bloom_filter *g = nullptr;
  EXPECT_EQ(bloom_deserialize("hello", 5, &g), BLOOM_E_FORMAT);
  EXPECT_EQ(g, nullptr);
  EXPECT_EQ(bloom_deserialize(nullptr, 0, &g), BLOOM_E_FORMAT);
  EXPECT_EQ(bloom_deserialize(nullptr, 5, &g), BLOOM_E_INVALID_ARG);
  std::vector<unsigned char> zeros(4096, 0);
  EXPECT_EQ(bloom_deserialize(zeros.data(), zeros.size(), &g), BLOOM_E_FORMAT);
  EXPECT_NE(std::strstr(bloom_last_error(), "magic"), nullptr);
}

size_t count_dir_entries(const std::string &dir) {
  size_t n = 0;
  DIR *d = opendir(dir.c_str());
  while (dirent *e = readdir(d)) n += std::strcmp(e->d_name, ".") && std::strcmp(e->d_name, "..");
  closedir(d);
  return n;
}

TEST(Format, SaveLoadRoundTripLeavesNoStrayFiles) {
  const std::string dir = temp_path("savedir");
  ASSERT_EQ(::mkdir(dir.c_str(), 0755), 0);
  const std::string path = dir + "/f.bloom";
  FilterPtr f = small_filled_filter();
  ASSERT_EQ(bloom_save(f.get(), path.c_str()), BLOOM_OK) << bloom_last_error();
  ASSERT_EQ(bloom_save(f.get(), path.c_str()), BLOOM_OK);  // replace
  EXPECT_EQ(count_dir_entries(dir), 1u);
  bloom_filter *g = nullptr;
  ASSERT_EQ(bloom_load(path.c_str(), &g), BLOOM_OK) << bloom_last_error();
  FilterPtr loaded(g);
  EXPECT_EQ(serialize(loaded.get()), serialize(f.get()));
  // The file is exactly the serialized image.
  std::ifstream in(path, std::ios::binary);
  std::vector<unsigned char> bytes((std::istreambuf_iterator<char>(in)), {});
  EXPECT_EQ(bytes, serialize(f.get()));
  ::unlink(path.c_str());
  ::rmdir(dir.c_str());
}

TEST(Format, FailedSaveLeavesTheOldFileIntact) {
  const std::string path = temp_path("missing_dir") + "/sub/f.bloom";
  FilterPtr f = small_filled_filter();
  EXPECT_EQ(bloom_save(f.get(), path.c_str()), BLOOM_E_IO);
  EXPECT_NE(std::strstr(bloom_last_error(), "sub"), nullptr) << bloom_last_error();
}

TEST(Format, LoadRefusesMissingFilesDirectoriesAndFifos) {
  bloom_filter *g = nullptr;
  EXPECT_EQ(bloom_load(temp_path("does_not_exist").c_str(), &g), BLOOM_E_IO);
  EXPECT_EQ(g, nullptr);
  EXPECT_EQ(bloom_load(::testing::TempDir().c_str(), &g), BLOOM_E_IO);
  const std::string fifo = temp_path("fifo");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_EQ(bloom_load(fifo.c_str(), &g), BLOOM_E_IO);  // must not block
  ::unlink(fifo.c_str());
  const std::string empty = temp_path("empty");
  { std::ofstream(empty).flush(); }
  EXPECT_EQ(bloom_load(empty.c_str(), &g), BLOOM_E_FORMAT);
  EXPECT_EQ(bloom_map(empty.c_str(), &g), BLOOM_E_FORMAT);
  ::unlink(empty.c_str());
}

TEST(Format, MappedFilterAnswersLikeTheOriginalAndRefusesWrites) {
  const std::string path = temp_path("mapped.bloom");
  FilterPtr f = small_filled_filter();
  ASSERT_EQ(bloom_save(f.get(), path.c_str()), BLOOM_OK);
  bloom_filter *g = nullptr;
  BLOOM_MAP_OR_SKIP(path.c_str(), &g);
  FilterPtr mapped(g);
  for (const auto &k : make_keys("f", 2000))
    EXPECT_EQ(bloom_query(mapped.get(), k.data(), k.size()), bloom_query(f.get(), k.data(), k.size()));
  EXPECT_EQ(bloom_add(mapped.get(), "x", 1), BLOOM_E_UNSUPPORTED);
  EXPECT_EQ(bloom_clear(mapped.get()), BLOOM_E_UNSUPPORTED);
  EXPECT_EQ(bloom_merge(mapped.get(), f.get()), BLOOM_E_UNSUPPORTED);
  bloom_info info;
  info.struct_size = sizeof info;
  ASSERT_EQ(bloom_get_info(mapped.get(), &info), BLOOM_OK);
  EXPECT_EQ(info.read_only, 1);
  EXPECT_EQ(serialize(mapped.get()), serialize(f.get()));
  bloom_filter *c = nullptr;
  ASSERT_EQ(bloom_clone(mapped.get(), &c), BLOOM_OK);
  FilterPtr copy(c);
  EXPECT_EQ(bloom_add(copy.get(), "x", 1), BLOOM_OK);
  ::unlink(path.c_str());
}

}  // namespace
}  // namespace bloom::test
