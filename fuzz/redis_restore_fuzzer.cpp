// SPDX-License-Identifier: Apache-2.0
// redis_restore_fuzzer.cpp -- the Redis module's ways in for stored data,
// run outside Redis on the module's own code: RedisBloom's RDB encoding
// (RESTORE / RDB load of "MBbloom--": read_rb_encoding, admit_rb_chain) and
// BF.LOADCHUNK sequences (apply_chunk: bloom's image, RedisBloom's stream,
// the older iterators). The property is round-trip: whatever is accepted
// saves (in the encoding its data type writes) and loads back to a filter
// with the same answers, the same item count and the same shape (a value
// marked for RedisBloom's type also as RedisBloom's chain), also after
// more adds grow it; a first chunk never replaces a live filter; a restore
// never completes past its byte limit; a small filter's compact form
// (compact_filter.hpp) saves, answers and takes adds as the filter does.
//
// Input: byte 0 even = an RDB value (byte 1 picks encoding 2..4; then each
// unsigned or double field is 8 bytes little-endian, a string a 4-byte
// length and its bytes; then a byte of keys to add); odd = chunks (byte 1
// picks the byte limit; then per chunk a byte choosing its iterator, 2
// bytes of length and the data).
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "admit_filter.hpp"
#include "chunk_restore.hpp"
#include "compact_filter.hpp"
#include "fuzz_util.hpp"
#include "redisbloom_encoding.hpp"

namespace {

using bloom_redis::CompactFilter;
using bloom_redis::FilterValue;
using bloom_redis::ServerBytes;

constexpr size_t kProbes = 64;

struct BufferIn {
  const unsigned char *p;
  size_t left;
  bool bad = false;
  uint64_t take(size_t n) {
    if (left < n) {
      bad = true;
      left = 0;
      return 0;
    }
    uint64_t v = 0;
    for (size_t i = 0; i < n; ++i) v |= uint64_t{p[i]} << (8 * i);
    p += n;
    left -= n;
    return v;
  }
  uint64_t load_unsigned() { return take(8); }
  double load_double() {
    const uint64_t b = take(8);
    double d;
    std::memcpy(&d, &b, sizeof d);
    return d;
  }
  bool load_bytes(ServerBytes *to, uint64_t expected) {
    const uint64_t n = take(4);
    if (bad || n > left) {
      bad = true;
      return false;
    }
    if (n == expected) to->insert(to->end(), p, p + n);
    p += n;
    left -= n;
    return n == expected;
  }
  bool failed() const { return bad; }
};

struct BufferOut {
  std::vector<unsigned char> bytes;
  void put(uint64_t v, size_t n) {
    for (size_t i = 0; i < n; ++i) bytes.push_back(static_cast<unsigned char>(v >> (8 * i)));
  }
  void save_unsigned(uint64_t v) { put(v, 8); }
  void save_double(double d) {
    uint64_t b;
    std::memcpy(&b, &d, sizeof b);
    put(b, 8);
  }
  void save_bytes(const unsigned char *p, uint64_t n) {
    put(n, 4);
    bytes.insert(bytes.end(), p, p + n);
  }
};

struct Answers {
  std::vector<int> probes;
  uint64_t items, capacity;
  uint32_t stages;
};

Answers answers_of(const FilterValue &v, const std::vector<std::string> &added) {
  Answers a{bloom::fuzz::answers(v.filter, kProbes), v.items, v.shape.capacity, v.shape.stages};
  for (const std::string &k : added) a.probes.push_back(bloom_query(v.filter, k.data(), k.size()));
  return a;
}

void check_same(const FilterValue &a, const FilterValue &b, const std::vector<std::string> &added,
                const char *path) {
  const Answers x = answers_of(a, added), y = answers_of(b, added);
  FUZZ_CHECK(x.probes == y.probes, "%s: answers differ after the round trip", path);
  FUZZ_CHECK(x.items == y.items, "%s: items %llu became %llu", path, static_cast<unsigned long long>(x.items),
             static_cast<unsigned long long>(y.items));
  FUZZ_CHECK(x.capacity == y.capacity && x.stages == y.stages, "%s: shape differs", path);
}

// Adds keys as BF.ADD does (bloom_test_and_add; a scalable filter may
// refuse to grow), counting new ones into v->items. Returns the keys taken.
std::vector<std::string> add_keys(FilterValue *v, unsigned count) {
  std::vector<std::string> taken;
  for (unsigned i = 0; i < count; ++i) {
    const std::string k = "fuzz-add-" + std::to_string(i);
    const int r = bloom_test_and_add(v->filter, k.data(), k.size());
    if (r < 0) {
      FUZZ_CHECK(bloom::fuzz::is_growth_refusal(v->filter, r), "add returned %d", r);
      break;
    }
    if (r == 0) ++v->items;
    taken.push_back(k);
  }
  FUZZ_CHECK(bloom_redis::refresh_shape(v), "refresh_shape");
  for (const std::string &k : taken)
    FUZZ_CHECK(bloom_query(v->filter, k.data(), k.size()) == 1, "lost a key");
  return taken;
}

// The compact form a key keeps of a small filter (compact_filter.hpp), when
// v has one: its image is v's, it answers and counts as v, it expands back
// to v, and adds taken through it leave the image the library's adds of
// the same keys leave.
void check_compact_form(const FilterValue &v, const std::vector<std::string> &added) {
  CompactFilter *c = bloom_redis::compact_form(v);
  if (c == nullptr) return;
  ServerBytes image, compact;
  std::string why;
  FUZZ_CHECK(bloom_redis::serialize_filter(v.filter, &image, &why), "serialize: %s", why.c_str());
  FUZZ_CHECK(bloom_redis::compact_image(*c, &compact, &why) && compact == image, "compact image differs: %s",
             why.c_str());
  FUZZ_CHECK(c->items == v.items, "compact items differ");
  std::vector<std::string> keys = added;
  for (size_t i = 0; i < kProbes; ++i) keys.push_back("fuzz-probe-" + std::to_string(i));
  for (const std::string &k : keys)
    FUZZ_CHECK(bloom_redis::compact_query(*c, k.data(), k.size()) ==
                   (bloom_query(v.filter, k.data(), k.size()) == 1),
               "the compact form answers otherwise");
  FilterValue *back = bloom_redis::expand_compact(*c, &why);
  FUZZ_CHECK(back != nullptr, "the compact form does not expand: %s", why.c_str());
  check_same(v, *back, added, "compact form");
  // The same adds through both (repeats too), but those the compact form
  // leaves to the live filter (a new stage) or refuses (a full non-scaling
  // filter), which change nothing.
  for (unsigned i = 0; i < 64; ++i) {
    const std::string k = "fuzz-compact-" + std::to_string(i % 48);
    const int r = bloom_redis::compact_add(*c, k.data(), k.size(), &why);
    if (r < 0 || r == bloom_redis::kNeedsLiveFilter) continue;
    const int lib = bloom_test_and_add(back->filter, k.data(), k.size());
    FUZZ_CHECK(lib >= 0 && r == (lib == 0 ? 1 : 0), "compact add answered %d, the library %d", r, lib);
  }
  FUZZ_CHECK(bloom_redis::compact_image(*c, &compact, &why) &&
                 bloom_redis::serialize_filter(back->filter, &image, &why) && compact == image,
             "compact adds left another image");
  delete back;
  delete c;
}

// "bloomfltr": the RDB value is bloom's image; the AOF rewrite is
// BF.LOADCHUNK commands with the older iterators (the end offset).
void check_bloom_type_round_trip(const FilterValue &v, const std::vector<std::string> &added) {
  ServerBytes image;
  std::string why;
  FUZZ_CHECK(bloom_redis::serialize_filter(v.filter, &image, &why), "serialize: %s", why.c_str());
  FilterValue *back = bloom_redis::admit_image(image.data(), image.size(), &why);
  FUZZ_CHECK(back != nullptr, "its own image is refused: %s", why.c_str());
  check_same(v, *back, added, "bloomfltr RDB");
  delete back;
  check_compact_form(v, added);
  FilterValue *slot = nullptr;
  const size_t chunk = 200;
  for (size_t off = 0; off < image.size(); off += chunk) {
    const size_t len = std::min(chunk, image.size() - off);
    bloom_redis::ChunkOutcome out = bloom_redis::apply_chunk(slot, off + len, image.data() + off, len, 0);
    FUZZ_CHECK(out.error.empty(), "AOF chunk refused: %s", out.error.c_str());
    if (out.store != nullptr && out.store != slot) {
      delete slot;
      slot = out.store;
    }
  }
  FUZZ_CHECK(slot != nullptr && !slot->loading(), "the AOF chunks made no filter");
  check_same(v, *slot, added, "AOF rewrite");
  delete slot;
}

// "MBbloom--": the save writes RedisBloom's chain (rb_rdb_save).
void check_rb_type_round_trip(const FilterValue &v, const std::vector<std::string> &added) {
  ServerBytes image;
  std::string why;
  bloom_redis::RbChain chain;
  std::vector<const unsigned char *> link_bits;
  FUZZ_CHECK(bloom_redis::serialize_filter(v.filter, &image, &why), "serialize: %s", why.c_str());
  FUZZ_CHECK(bloom_redis::image_to_rb_chain(image.data(), image.size(), &chain, &link_bits, &why),
             "an accepted chain cannot be saved: %s", why.c_str());
  BufferOut out;
  bloom_redis::write_rb_encoding(out, chain, link_bits);
  BufferIn in{out.bytes.data(), out.bytes.size()};
  ServerBytes bits;
  bloom_redis::RbChain again;
  FUZZ_CHECK(bloom_redis::read_rb_encoding(in, bloom_redis::kRbEncoding, &again, &bits, &why) && in.left == 0,
             "the saved chain does not read back: %s", why.c_str());
  FilterValue *back = bloom_redis::admit_rb_chain(again, bits.data(), &why);
  FUZZ_CHECK(back != nullptr, "the saved chain is refused: %s", why.c_str());
  check_same(v, *back, added, "MBbloom-- RDB");
  delete back;
}

void fuzz_rdb_value(bloom::fuzz::Reader &r, const uint8_t *rest, size_t len) {
  const int encver = 2 + r.u8() % 3;
  BufferIn in{rest + 2, len - 2};
  bloom_redis::RbChain chain;
  ServerBytes bits;
  std::string why;
  if (!bloom_redis::read_rb_encoding(in, encver, &chain, &bits, &why)) return;
  FilterValue *v = bloom_redis::admit_rb_chain(chain, bits.data(), &why);
  if (v == nullptr) return;
  FUZZ_CHECK(v->shape.capacity < (uint64_t{1} << 63), "capacity 2^63 or more accepted");
  check_rb_type_round_trip(*v, {});
  const unsigned more = in.left > 0 ? in.p[0] % 128 : 0;
  const std::vector<std::string> added = add_keys(v, more);
  check_rb_type_round_trip(*v, added);
  check_bloom_type_round_trip(*v, added);
  delete v;
}

void fuzz_chunks(bloom::fuzz::Reader &r) {
  const uint64_t limits[4] = {0, 1 << 12, 1 << 16, 1 << 20};
  const uint64_t limit = limits[r.u8() % 4];
  FilterValue *slot = nullptr;
  while (r.remaining() > 0) {
    const uint8_t how = r.u8();
    std::string data = r.bytes(255);
    if (how & 0x80) data += r.bytes(255) + r.bytes(255) + r.bytes(255);
    const bool restoring = slot != nullptr && slot->loading();
    const uint64_t have = restoring ? slot->transfer->pending.size() : 0;
    const bool rb = restoring && !slot->transfer->rb_header.empty();
    uint64_t iter = 0;
    switch (how % 5) {
      case 0:
        iter = 1;
        break;  // a header
      case 1:
        iter = data.size();
        break;  // an older first chunk
      case 2:
        iter = 1 + (rb ? have : have - 128) + data.size();
        break;  // the next chunk
      case 3:
        iter = have + data.size();
        break;  // an older next chunk
      default:
        iter = r.u64();
        break;
    }
    const bool was_live = slot != nullptr && !slot->loading();
    const auto *bytes = reinterpret_cast<const unsigned char *>(data.data());
    bloom_redis::ChunkOutcome out = bloom_redis::apply_chunk(slot, iter, bytes, data.size(), limit);
    if (was_live) FUZZ_CHECK(out.store == nullptr && !out.remove, "a chunk replaced a live filter");
    if (out.store != nullptr && out.store != slot) {
      delete slot;
      slot = out.store;
    }
    if (out.remove) {
      delete slot;
      slot = nullptr;
    }
    if (slot != nullptr && !slot->loading() && !was_live) {
      size_t size = 0;
      FUZZ_CHECK(bloom_serialized_size(slot->filter, &size) == BLOOM_OK, "serialized_size");
      FUZZ_CHECK(limit == 0 || size <= limit, "a restore of %zu bytes passed a limit of %llu", size,
                 static_cast<unsigned long long>(limit));
      check_bloom_type_round_trip(*slot, {});
      // In bf-encoding redisbloom such a value is stored as RedisBloom's
      // type, whose save writes the chain.
      if (slot->redisbloom_form) check_rb_type_round_trip(*slot, {});
    }
  }
  delete slot;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 2) return 0;
  bloom::fuzz::Reader r(data, size);
  const uint8_t mode = r.u8();
  if (mode % 2 == 0)
    fuzz_rdb_value(r, data, size);
  else
    fuzz_chunks(r);
  return 0;
}
