// SPDX-License-Identifier: Apache-2.0
// fuzz_util.hpp -- what every fuzz target shares: reading structured values
// from the fuzzer's bytes, an always-on check that aborts (so libFuzzer and
// the replay driver both report it), and the properties every load must have.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "bloom/bloom.h"
#include "image_tools.hpp"
#include "memory.hpp"

// Not assert(): it must hold in release builds too.
#define FUZZ_CHECK(cond, ...)                                                              \
  do {                                                                                     \
    if (!(cond)) {                                                                         \
      std::fprintf(stderr, "FUZZ_CHECK failed at %s:%d: %s: ", __FILE__, __LINE__, #cond); \
      std::fprintf(stderr, __VA_ARGS__);                                                   \
      std::fprintf(stderr, " (last error: %s)\n", bloom_last_error());                     \
      std::abort();                                                                        \
    }                                                                                      \
  } while (0)

namespace bloom::fuzz {

// Consumes the input front to back; past the end every read yields zeros.
class Reader {
 public:
  Reader(const uint8_t *data, size_t size) : p_(data), left_(size) {}
  size_t remaining() const { return left_; }
  uint8_t u8() {
    if (left_ == 0) return 0;
    --left_;
    return *p_++;
  }
  uint16_t u16() { return static_cast<uint16_t>(u8() | (u8() << 8)); }
  uint32_t u32() { return u16() | (static_cast<uint32_t>(u16()) << 16); }
  uint64_t u64() { return u32() | (static_cast<uint64_t>(u32()) << 32); }
  // Up to max bytes, length taken from the input.
  std::string bytes(size_t max) {
    size_t n = u8() % (max + 1);
    if (n > left_) n = left_;
    std::string out(reinterpret_cast<const char *>(p_), n);
    p_ += n;
    left_ -= n;
    return out;
  }

 private:
  const uint8_t *p_;
  size_t left_;
};

inline std::vector<unsigned char> serialize(const bloom_filter *f) {
  size_t size = 0;
  FUZZ_CHECK(bloom_serialized_size(f, &size) == BLOOM_OK, "serialized_size");
  std::vector<unsigned char> buf(size);
  size_t written = 0;
  FUZZ_CHECK(bloom_serialize(f, buf.data(), buf.size(), &written) == BLOOM_OK, "serialize");
  FUZZ_CHECK(written == size, "wrote %zu of %zu", written, size);
  return buf;
}

// Probe keys derived from an index, the same for every filter.
inline std::string probe(size_t i) { return "fuzz-probe-" + std::to_string(i); }

inline std::vector<int> answers(const bloom_filter *f, size_t probes) {
  std::vector<int> out;
  for (size_t i = 0; i < probes; ++i) {
    const std::string k = probe(i);
    const int r = bloom_query(f, k.data(), k.size());
    FUZZ_CHECK(r == 0 || r == 1, "query returned %d", r);
    out.push_back(r);
  }
  return out;
}

// An add may fail only where a scalable filter cannot grow: its next stage
// would exceed the limits (OVERFLOW; e.g. growth = 1e300 makes stage 1's
// capacity overflow) or cannot be allocated (NOMEM). Every other kind must
// accept every add. The fuzz targets then stop trusting the failed keys.
inline bool is_growth_refusal(const bloom_filter *f, int status) {
  bloom_info info;
  info.struct_size = sizeof info;
  if (bloom_get_info(f, &info) != BLOOM_OK || info.kind != BLOOM_KIND_SCALABLE) return false;
  return status == BLOOM_E_OVERFLOW || status == BLOOM_E_NOMEM;
}

// A loaded scalable filter grows only as its parameters say, and loading
// checked those against every stored stage (a 264-byte file whose header
// capacity was 2^32 - 1 made the next add reserve 14.9 GB). So: adds to a
// copy allocate exactly what bloom_growth_bytes announced before each one,
// and that is a classic array for growth x the newest stage's keys at
// tightening x its rate (bloom_optimal_params' m, or the few bits more an
// exact small-filter fit or k <= 64 need).
inline void check_bounded_growth(const bloom_filter *loaded) {
  bloom_filter *f = nullptr;
  if (bloom_clone(loaded, &f) != BLOOM_OK) return;  // NOMEM: nothing to check
  bloom_info info;
  info.struct_size = sizeof info;
  for (int i = 0; i < 24; ++i) {
    FUZZ_CHECK(bloom_get_info(f, &info) == BLOOM_OK, "get_info");
    bloom_info last;
    last.struct_size = sizeof last;
    FUZZ_CHECK(bloom_get_stage_info(f, info.stages - 1, &last) == BLOOM_OK, "stage_info");
    uint64_t announced = 0;
    const bloom_status gs = bloom_growth_bytes(f, &announced);
    if (gs != BLOOM_OK) {
      FUZZ_CHECK(gs == BLOOM_E_OVERFLOW, "growth_bytes returned %d", gs);
      break;
    }
    if (announced > 0) {
      const double n = std::ceil(static_cast<double>(last.capacity) * info.growth);
      uint64_t bits = 0;
      uint32_t k = 0;
      if (n < 1e15 && bloom_optimal_params(static_cast<uint64_t>(n), last.fp_rate * info.tightening, &bits,
                                           &k) == BLOOM_OK) {
        // k capped at 64 below p ~ 2^-64 needs more bits than the formula:
        // m ~ k n / p^(1/k); 8x covers p down to the 1e-300 floor.
        const double formula_bytes = static_cast<double>(bits) / 8.0;
        const double limit = 8.0 * formula_bytes + 4096;
        FUZZ_CHECK(static_cast<double>(announced) <= limit, "next stage of %llu bytes for %.0f keys at %g",
                   static_cast<unsigned long long>(announced), n, last.fp_rate * info.tightening);
      }
    }
    const std::string k = "growth-" + std::to_string(i);
    core::reset_allocation_stats();
    const bloom_status s = bloom_add(f, k.data(), k.size());
    const uint64_t allocated = core::allocation_stats().array_bytes;
    if (s != BLOOM_OK) {
      FUZZ_CHECK(is_growth_refusal(f, s), "add returned %d", s);
      break;
    }
    FUZZ_CHECK(allocated <= announced, "an add allocated %llu bytes, %llu announced",
               static_cast<unsigned long long>(allocated), static_cast<unsigned long long>(announced));
  }
  bloom_destroy(f);
}

// What holds for any load of untrusted bytes (deserialize or import),
// checked right after the call: no array larger than the input, and a
// refusal has a refusal status, no handle and a message. Returns whether
// the load succeeded.
inline bool loaded_within_bounds(bloom_status s, const bloom_filter *f, size_t input_size) {
  const core::AllocationStats st = core::allocation_stats();
  FUZZ_CHECK(st.array_bytes <= input_size, "allocated %llu bytes for a %zu-byte input",
             static_cast<unsigned long long>(st.array_bytes), input_size);
  if (s == BLOOM_OK) return true;
  FUZZ_CHECK(f == nullptr, "failed load left a handle");
  FUZZ_CHECK(test::is_refusal_status(s), "unexpected status %d", s);
  FUZZ_CHECK(bloom_last_error()[0] != '\0', "no message");
  return false;
}

// Deserializes input and checks what holds for any input: a refusal has a
// refusal status, no handle and a message; no load allocates arrays larger
// than the input; an accepted image re-serializes to the input less the
// fields v1.0 ignores, and its copy answers like it. Returns the filter or
// nullptr.
inline bloom_filter *load_checked(const std::vector<unsigned char> &input) {
  core::reset_allocation_stats();
  bloom_filter *f = nullptr;
  const bloom_status s = bloom_deserialize(input.data(), input.size(), &f);
  if (!loaded_within_bounds(s, f, input.size())) return nullptr;
  const std::vector<unsigned char> again = serialize(f);
  FUZZ_CHECK(again == test::normalized(input), "accepted image re-serializes differently");
  bloom_filter *copy = nullptr;
  FUZZ_CHECK(bloom_deserialize(again.data(), again.size(), &copy) == BLOOM_OK, "reload");
  FUZZ_CHECK(answers(copy, 64) == answers(f, 64), "reloaded copy answers differently");
  bloom_destroy(copy);
  bloom_info info;
  info.struct_size = sizeof info;
  FUZZ_CHECK(bloom_get_info(f, &info) == BLOOM_OK, "get_info");
  if (info.kind == BLOOM_KIND_SCALABLE) check_bounded_growth(f);
  return f;
}

// Filter parameters from the input, kept small so each run is fast; some
// values are deliberately invalid (k = 0 or 65, odd counter widths) so the
// create-time validation is fuzzed too.
inline bloom_options options_from(Reader &in) {
  static constexpr double kFpRates[] = {0.5, 0.1, 0.01, 0.001, 1e-6, 0.0, 1.0, -1.0};
  static constexpr double kGrowth[] = {2.0, 4.0, 1.5, 1.0, 0.5, 1e300};
  static constexpr double kTightening[] = {0.85, 0.5, 0.9, 1.0, 0.0, -0.5};
  bloom_options o;
  bloom_options_init(&o);
  const uint8_t shape = in.u8();
  o.kind = 1 + in.u8() % 7;  // 7 is unknown
  o.hash = 1 + in.u8() % 4;  // 4 is unknown
  o.flags = in.u8() & 0x7;   // 0x4 is unknown
  o.seed = (shape & 1) ? in.u64() : in.u8();
  o.capacity = in.u16() % 5000;
  o.fp_rate = kFpRates[in.u8() % 8];
  if (shape & 2) {
    // Explicit m (at most 2^20 bits) and k. Never k with m sized from
    // (n, p): a kind that sizes m to reach p with the given k (blocked) may
    // legitimately need gigabytes for k = 1 at p = 1e-6 (found by roundtrip:
    // 2.5 GB for n = 4151), which only makes the fuzzer run out of memory.
    o.bits = 1 + in.u32() % (uint32_t{1} << 20);
    o.hashes = in.u8() % 66;
  }
  o.counter_bits = (shape & 4) ? in.u8() % 10 : 4;
  o.growth = kGrowth[in.u8() % 6];
  o.tightening = kTightening[in.u8() % 6];
  return o;
}

}  // namespace bloom::fuzz
