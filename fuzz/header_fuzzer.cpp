// SPDX-License-Identifier: Apache-2.0
// header_fuzzer.cpp -- structure-aware: mutations of valid images with both
// checksums recomputed, so they reach the field validators and the kinds'
// loaders instead of stopping at a checksum.
//
// An input that starts with the magic is taken as an image (the seeds are
// the golden files, and libFuzzer mutates their fields in place); its
// checksums are fixed before loading. Any other input builds a valid image
// from parameters it encodes, then applies edits it encodes: a header field
// set to 0, max, max-1, 2^40 +- 1, a small delta or a value from the input;
// a payload byte changed; the image cut or extended.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "fuzz_util.hpp"

namespace {

using bloom::fuzz::Reader;

std::vector<unsigned char> built_image(Reader &in) {
  bloom_options o = bloom::fuzz::options_from(in);
  bloom_filter *f = nullptr;
  if (bloom_create(&o, &f) != BLOOM_OK) return {};
  const unsigned keys = in.u8();
  for (unsigned i = 0; i < keys * 4; ++i) {
    const std::string k = "key-" + std::to_string(i);
    const bloom_status s = bloom_add(f, k.data(), k.size());
    if (s != BLOOM_OK) {
      FUZZ_CHECK(bloom::fuzz::is_growth_refusal(f, s), "add returned %d", s);
      break;
    }
  }
  std::vector<unsigned char> image = bloom::fuzz::serialize(f);
  bloom_destroy(f);
  return image;
}

uint64_t edge_value(Reader &in, size_t width, uint64_t current) {
  const uint64_t max = width == 8 ? UINT64_MAX : (uint64_t{1} << (8 * width)) - 1;
  switch (in.u8() % 8) {
    case 0:
      return 0;
    case 1:
      return max;
    case 2:
      return max - 1;
    case 3:
      return BLOOM_MAX_BITS + (in.u8() % 3) - 1;
    case 4:
      return current + static_cast<int8_t>(in.u8());
    case 5:
      return current * 2;
    case 6:
      return current / 2;
    default:
      return in.u64();
  }
}

void apply_edits(Reader &in, std::vector<unsigned char> &image) {
  for (int edits = 0; edits < 8 && in.remaining() > 0; ++edits) {
    const uint8_t op = in.u8();
    if (op < 200) {
      const bloom::test::HeaderField &field = bloom::test::kHeaderFields[op % bloom::test::kHeaderFieldCount];
      uint64_t current = 0;
      std::memcpy(&current, &image[field.offset], field.width);  // little-endian hosts only; fine for fuzzing
      bloom::test::store_field(image, field, edge_value(in, field.width, current));
    } else if (op < 240) {
      if (image.size() > bloom::core::kHeaderSize)
        image[bloom::core::kHeaderSize + in.u16() % (image.size() - bloom::core::kHeaderSize)] ^= in.u8();
    } else if (op < 248) {
      image.resize(image.size() - std::min<size_t>(image.size() - 1, in.u8()));
    } else {
      image.resize(image.size() + in.u8(), in.u8());
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::vector<unsigned char> image;
  if (size >= sizeof bloom::core::kMagic &&
      std::memcmp(data, bloom::core::kMagic, sizeof bloom::core::kMagic) == 0) {
    image.assign(data, data + size);
  } else {
    Reader in(data, size);
    image = built_image(in);
    if (image.empty()) return 0;
    apply_edits(in, image);
  }
  bloom::test::fix_checksums(image);
  bloom_filter *f = bloom::fuzz::load_checked(image);
  bloom_destroy(f);
  return 0;
}
