// SPDX-License-Identifier: Apache-2.0
// api_sequence_fuzzer.cpp -- the input is a program of API calls over four
// filter slots: create, add, query, test_and_add, remove, merge, intersect,
// clear, clone, serialize/deserialize, batch calls, get_info (with the
// count of adds made through the blocked view), destroy. A
// shadow model (a multiset of keys per slot) checks the one answer that is
// always certain: a key that is in the filter answers "maybe" (no false
// negatives), and a failed merge/intersect leaves its destination unchanged.
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "fuzz_util.hpp"

namespace {

using bloom::fuzz::Reader;
// Occurrence counts; capped (kCap) so repeated self-merges cannot overflow.
using Shadow = std::map<std::string, int64_t>;
constexpr int64_t kCap = int64_t{1} << 40;

struct Slot {
  bloom_filter *f = nullptr;
  Shadow keys;
  int kind = 0;
  void reset(bloom_filter *g, int k) {
    bloom_destroy(f);
    f = g;
    kind = k;
    keys.clear();
  }
};

int kind_of(const bloom_filter *f) {
  bloom_info info;
  info.struct_size = sizeof info;
  FUZZ_CHECK(bloom_get_info(f, &info) == BLOOM_OK, "get_info");
  return info.kind;
}

// A window forgets what is older than its capacity in insertions: once it
// may have begun to, the shadow is dropped (an under-estimate stays sound).
void forget_if_window(Slot &s) {
  if (s.f == nullptr || s.kind != BLOOM_KIND_WINDOW) return;
  bloom_info info;
  info.struct_size = sizeof info;
  FUZZ_CHECK(bloom_get_info(s.f, &info) == BLOOM_OK, "get_info");
  if (info.keys_added >= info.capacity) s.keys.clear();
}

// Drops what a window may have forgotten first: one batch may hold more
// keys than the window's capacity, so the check before the op is not enough.
void check_no_false_negatives(Slot &s) {
  forget_if_window(s);
  for (const auto &[k, n] : s.keys)
    if (n > 0) FUZZ_CHECK(bloom_query(s.f, k.data(), k.size()) == 1, "false negative");
}

std::string key_from(Reader &in) {
  const uint8_t b = in.u8();
  if (b < 240) return "k" + std::to_string(b % 64);  // a small key space, so keys repeat
  return in.bytes(16);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  Reader in(data, size);
  std::array<Slot, 4> slots;
  for (int step = 0; step < 256 && in.remaining() > 0; ++step) {
    const uint8_t op = in.u8() % 15;
    Slot &s = slots[in.u8() % 4];
    Slot &other = slots[in.u8() % 4];
    if (op == 0) {
      const bloom_options o = bloom::fuzz::options_from(in);
      bloom_filter *g = nullptr;
      if (bloom_create(&o, &g) == BLOOM_OK)
        s.reset(g, o.kind);
      else
        FUZZ_CHECK(g == nullptr, "failed create left a handle");
      continue;
    }
    if (s.f == nullptr) continue;
    forget_if_window(s);
    forget_if_window(other);
    switch (op) {
      case 1: {
        const std::string k = key_from(in);
        const bloom_status r = bloom_add(s.f, k.data(), k.size());
        if (r == BLOOM_OK)
          ++s.keys[k];
        else
          FUZZ_CHECK(bloom::fuzz::is_growth_refusal(s.f, r), "add returned %d", r);
        break;
      }
      case 2: {
        const std::string k = key_from(in);
        const int r = bloom_query(s.f, k.data(), k.size());
        FUZZ_CHECK(r == 0 || r == 1, "query %d", r);
        if (s.keys[k] > 0) FUZZ_CHECK(r == 1, "false negative");
        break;
      }
      case 3: {
        const std::string k = key_from(in);
        const int r = bloom_test_and_add(s.f, k.data(), k.size());
        if (r < 0) {
          FUZZ_CHECK(bloom::fuzz::is_growth_refusal(s.f, r), "test_and_add returned %d", r);
          break;
        }
        FUZZ_CHECK(r == 0 || r == 1, "test_and_add %d", r);
        if (s.keys[k] > 0) FUZZ_CHECK(r == 1, "test_and_add: present key reported new");
        // test_and_add adds only when it reports the key new (bloom.h).
        if (r == 0 || s.kind != BLOOM_KIND_COUNTING) ++s.keys[k];
        break;
      }
      case 4: {
        const std::string k = key_from(in);
        const bloom_status r = bloom_remove(s.f, k.data(), k.size());
        if (s.kind != BLOOM_KIND_COUNTING) {
          FUZZ_CHECK(r == BLOOM_E_UNSUPPORTED, "remove on a non-counting filter: %d", r);
        } else if (s.keys[k] > 0) {
          FUZZ_CHECK(r == BLOOM_OK, "remove of an added key: %d", r);
          --s.keys[k];
        } else {
          // Removing a key never added is the caller's error (bloom.h); the
          // shadow can no longer vouch for this filter.
          if (r == BLOOM_OK)
            s.keys.clear();
          else
            FUZZ_CHECK(r == BLOOM_E_NOT_PRESENT, "remove of an absent key: %d", r);
        }
        break;
      }
      case 5:
      case 6: {
        if (other.f == nullptr) break;
        const std::vector<unsigned char> before = bloom::fuzz::serialize(s.f);
        const bloom_status r = op == 5 ? bloom_merge(s.f, other.f) : bloom_intersect(s.f, other.f);
        if (r != BLOOM_OK) {
          FUZZ_CHECK(r == BLOOM_E_INCOMPATIBLE || r == BLOOM_E_UNSUPPORTED || r == BLOOM_E_OVERFLOW,
                     "merge/intersect returned %d", r);
          FUZZ_CHECK(bloom::fuzz::serialize(s.f) == before, "failed merge/intersect changed dst");
        } else if (&s != &other) {
          if (op == 5) {
            for (const auto &[k, n] : other.keys) s.keys[k] = std::min(kCap, s.keys[k] + n);
          } else {
            Shadow both;
            for (const auto &[k, n] : s.keys) {
              const auto it = other.keys.find(k);
              if (it != other.keys.end() && n > 0 && it->second > 0) both[k] = std::min(n, it->second);
            }
            s.keys = both;
          }
        } else if (op == 5) {
          for (auto &[k, n] : s.keys) n = std::min(kCap, n * 2);
        }
        break;
      }
      case 7:
        FUZZ_CHECK(bloom_clear(s.f) == BLOOM_OK, "clear");
        s.keys.clear();
        for (int i = 0; i < 64; ++i) {
          const std::string k = "k" + std::to_string(i);
          FUZZ_CHECK(bloom_query(s.f, k.data(), k.size()) == 0, "key present after clear");
        }
        break;
      case 8: {
        if (&s == &other) break;
        bloom_filter *g = nullptr;
        FUZZ_CHECK(bloom_clone(s.f, &g) == BLOOM_OK, "clone");
        FUZZ_CHECK(bloom::fuzz::serialize(g) == bloom::fuzz::serialize(s.f), "clone differs");
        const Shadow keys = s.keys;
        other.reset(g, s.kind);
        other.keys = keys;
        break;
      }
      case 9: {
        if (&s == &other) break;
        const std::vector<unsigned char> image = bloom::fuzz::serialize(s.f);
        bloom_filter *g = nullptr;
        FUZZ_CHECK(bloom_deserialize(image.data(), image.size(), &g) == BLOOM_OK, "deserialize");
        FUZZ_CHECK(bloom::fuzz::serialize(g) == image, "round trip differs");
        FUZZ_CHECK(kind_of(g) == s.kind, "kind changed");
        const Shadow keys = s.keys;
        other.reset(g, s.kind);
        other.keys = keys;
        break;
      }
      case 10:
      case 11: {
        std::vector<std::string> keys(in.u8() % 40);
        for (auto &k : keys) k = key_from(in);
        std::vector<const void *> ptrs;
        std::vector<size_t> lens;
        for (const auto &k : keys) {
          ptrs.push_back(k.data());
          lens.push_back(k.size());
        }
        if (op == 10) {
          const bloom_status r = bloom_add_batch(s.f, ptrs.data(), lens.data(), keys.size());
          // After a partial batch the shadow stays an under-estimate: safe.
          if (r == BLOOM_OK)
            for (const auto &k : keys) ++s.keys[k];
          else
            FUZZ_CHECK(bloom::fuzz::is_growth_refusal(s.f, r), "add_batch returned %d", r);
        } else {
          std::vector<uint8_t> out(keys.size() + 1);
          FUZZ_CHECK(bloom_query_batch(s.f, ptrs.data(), lens.data(), keys.size(), out.data()) == BLOOM_OK,
                     "query_batch");
          for (size_t i = 0; i < keys.size(); ++i) {
            FUZZ_CHECK(out[i] == bloom_query(s.f, keys[i].data(), keys[i].size()), "batch disagrees");
            if (s.keys.count(keys[i]) && s.keys[keys[i]] > 0) FUZZ_CHECK(out[i] == 1, "false negative");
          }
        }
        break;
      }
      case 12: {
        bloom_info info;
        info.struct_size = sizeof info;
        FUZZ_CHECK(bloom_get_info(s.f, &info) == BLOOM_OK, "get_info");
        FUZZ_CHECK(info.fill_ratio >= 0.0 && info.fill_ratio <= 1.0, "fill ratio %f", info.fill_ratio);
        // Counting adds made through the blocked or the classic view (none
        // made here: the count alone must move, and only on filters that
        // take such adds through their view).
        const uint64_t n = in.u8() % 4;
        const std::vector<unsigned char> before = bloom::fuzz::serialize(s.f);
        const bloom_status r = bloom_view_added(s.f, n);
        if (r == BLOOM_OK) {
          FUZZ_CHECK((info.kind == BLOOM_KIND_CLASSIC || info.kind == BLOOM_KIND_BLOCKED) &&
                         info.hash == BLOOM_HASH_XXH3 && (info.flags & BLOOM_FLAG_CONCURRENT) == 0,
                     "view adds taken by kind %d, hash %d, flags %u", info.kind, info.hash, info.flags);
          bloom_info after;
          after.struct_size = sizeof after;
          FUZZ_CHECK(bloom_get_info(s.f, &after) == BLOOM_OK, "get_info");
          FUZZ_CHECK(after.keys_added == info.keys_added + n, "view adds counted %llu, expected %llu",
                     static_cast<unsigned long long>(after.keys_added),
                     static_cast<unsigned long long>(info.keys_added + n));
        } else {
          FUZZ_CHECK(r == BLOOM_E_UNSUPPORTED, "view adds returned %d", r);
          FUZZ_CHECK(bloom::fuzz::serialize(s.f) == before, "refused view adds changed the filter");
        }
        break;
      }
      case 13:
        s.reset(nullptr, 0);
        break;
      default:
        check_no_false_negatives(s);
    }
  }
  for (Slot &s : slots) {
    if (s.f != nullptr) check_no_false_negatives(s);
    s.reset(nullptr, 0);
  }
  return 0;
}
