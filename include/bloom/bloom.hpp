// SPDX-License-Identifier: Apache-2.0
/*
 * bloom.hpp -- an optional header-only C++20 wrapper over the C API.
 *
 * Everything here is inline code calling the functions of <bloom/bloom.h>;
 * no C++ type ever crosses the library's ABI, so this header works with any
 * libbloomfilter.so.1 whatever compiler or standard library built it.
 *
 *   bloom::filter f(bloom::options().capacity(1'000'000).fp_rate(0.001));
 *   f.add("alice");
 *   if (f.contains("alice")) { ... }          // maybe present
 *   f.save("users.bloom");
 *   auto g = bloom::filter::load("users.bloom");
 *
 * Errors: exceptions. Every failed call throws bloom::error, which carries
 * the bloom_status and the library's detail message (bloom_last_error()).
 * Chosen over std::expected-style results because (1) the library's failures
 * are rare and not part of normal control flow (bad options, I/O, corrupt
 * files, incompatible filters), (2) std::expected is C++23 and this header
 * targets C++20, and (3) a constructor cannot return an expected. The answers
 * that ARE normal control flow are plain values: contains() and test_and_add()
 * return bool, try_remove() returns false for a key that was never added.
 *
 * Ownership: bloom::filter owns one bloom_filter handle (RAII) and is
 * move-only; clone() makes a deep copy. Thread safety is the C API's: const
 * member functions may run concurrently with each other; others need
 * exclusive access, except add/add_batch/test_and_add (and remove/try_remove
 * on a counting filter) on a filter made with .concurrent(), which may run
 * alongside each other and queries -- but not alongside info(),
 * stage_info(), serialize(), save() or clone(), nor as the right-hand side
 * of |=, &=, | or & (or either side of | and &, which clone the left), all
 * of which read the whole filter (bloom.h, top comment).
 *
 * Keys are std::string_view (its bytes, not a C string: embedded NULs count
 * when the view has them, e.g. "a\0b"sv; a plain "a\0b" literal converts
 * to the view "a") or std::span<const std::byte>.
 */
#ifndef BLOOM_BLOOM_HPP
#define BLOOM_BLOOM_HPP

// C++17 and older (GCC 8-10 report 201709 for -std=c++20, which is enough).
#if (defined(_MSVC_LANG) ? _MSVC_LANG : __cplusplus) <= 201703L
#error "bloom.hpp needs C++20 (std::span); any C or C++ version can use bloom.h"
#endif

#include <bloom/bloom.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace bloom {

/* ------------------------------------------------------------------------ */
/* Errors                                                                    */
/* ------------------------------------------------------------------------ */

/* A failed bloom_* call: status() is the bloom_status, detail() the library's
 * message for it, what() both with the description from bloom_strerror. */
class error : public std::runtime_error {
 public:
  error(bloom_status status, std::string detail)
      : std::runtime_error(detail.empty() ? std::string(bloom_strerror(status))
                                          : detail + " (" + bloom_strerror(status) + ")"),
        status_(status),
        detail_(std::move(detail)) {}

  bloom_status status() const noexcept { return status_; }
  const std::string &detail() const noexcept { return detail_; }

 private:
  bloom_status status_;
  std::string detail_;
};

namespace detail {

/* A path as the C API takes it (narrow; on POSIX exactly the bytes). A NUL
 * inside it would end the C string early and name another file, so it is
 * refused, as open() and Python's os functions refuse it. */
inline std::string path_arg(const std::filesystem::path &p) {
  std::string s = p.string();
  if (s.find('\0') != std::string::npos)
    throw error(BLOOM_E_INVALID_ARG, "path contains a NUL byte: '" + s.substr(0, s.find('\0')) + "\\0...'");
  return s;
}

/* Throws bloom::error for a negative status; passes other values through. */
inline int check(int status) {
  if (status < 0) throw error(static_cast<bloom_status>(status), bloom_last_error());
  return status;
}

}  // namespace detail

/* ------------------------------------------------------------------------ */
/* Parameters                                                                */
/* ------------------------------------------------------------------------ */

enum class kind : int32_t {
  classic = BLOOM_KIND_CLASSIC,
  partitioned = BLOOM_KIND_PARTITIONED,
  blocked = BLOOM_KIND_BLOCKED,
  counting = BLOOM_KIND_COUNTING,
  scalable = BLOOM_KIND_SCALABLE,
  window = BLOOM_KIND_WINDOW,
};

enum class hash : int32_t {
  xxh3 = BLOOM_HASH_XXH3,
  murmur3 = BLOOM_HASH_MURMUR3,
  fnv1a = BLOOM_HASH_FNV1A,
  redisbloom = BLOOM_HASH_REDISBLOOM,
};

/* A builder over bloom_options, starting from bloom_options_init's defaults:
 *   bloom::options().kind(bloom::kind::counting).capacity(10'000).fp_rate(1e-3) */
class options {
 public:
  options() noexcept { bloom_options_init(&o_); }

  options &kind(bloom::kind k) noexcept { return o_.kind = static_cast<int32_t>(k), *this; }
  options &capacity(uint64_t n) noexcept { return o_.capacity = n, *this; }
  options &fp_rate(double p) noexcept { return o_.fp_rate = p, *this; }
  options &hash(bloom::hash h) noexcept { return o_.hash = static_cast<int32_t>(h), *this; }
  options &seed(uint64_t s) noexcept { return o_.seed = s, *this; }
  options &bits(uint64_t m) noexcept { return o_.bits = m, *this; }
  options &hashes(uint32_t k) noexcept { return o_.hashes = k, *this; }
  options &growth(double g) noexcept { return o_.growth = g, *this; }
  options &tightening(double r) noexcept { return o_.tightening = r, *this; }
  options &counter_bits(uint32_t b) noexcept { return o_.counter_bits = b, *this; }
  /* kind::window: 0 = a count window of capacity insertions; > 0 = a time
   * window of that many milliseconds (advance() sets the clock). */
  options &window_ms(uint64_t ms) noexcept { return o_.window_ms = ms, *this; }
  options &window(std::chrono::milliseconds t) noexcept {
    return o_.window_ms = t.count() > 0 ? static_cast<uint64_t>(t.count()) : 0, *this;
  }
  options &concurrent(bool on = true) noexcept { return flag(BLOOM_FLAG_CONCURRENT, on); }
  options &plain_double_hashing(bool on = true) noexcept { return flag(BLOOM_FLAG_PLAIN_DOUBLE_HASHING, on); }

  const bloom_options &c_options() const noexcept { return o_; }

 private:
  options &flag(uint32_t f, bool on) noexcept {
    o_.flags = on ? (o_.flags | f) : (o_.flags & ~f);
    return *this;
  }
  bloom_options o_;
};

/* bloom_info with names resolved. */
struct info : bloom_info {
  std::string_view kind_name() const noexcept { return name(bloom_kind_name(kind)); }
  std::string_view hash_name() const noexcept { return name(bloom_hash_name(hash)); }
  bool concurrent() const noexcept { return (flags & BLOOM_FLAG_CONCURRENT) != 0; }

 private:
  static std::string_view name(const char *s) noexcept { return s != nullptr ? s : ""; }
};

struct params {
  uint64_t bits;
  uint32_t hashes;
};

/* m and k for n keys at false-positive rate p (bloom_optimal_params). */
inline params optimal_params(uint64_t n, double p) {
  params out{0, 0};
  detail::check(bloom_optimal_params(n, p, &out.bits, &out.hashes));
  return out;
}

/* (1 - e^(-kn/m))^k: the classic filter's false-positive rate. */
inline double expected_fp_rate(uint64_t n, uint64_t bits, uint32_t hashes) noexcept {
  return bloom_expected_fp_rate(n, bits, hashes);
}

inline std::string_view version() noexcept { return bloom_version_string(); }

/* ------------------------------------------------------------------------ */
/* The filter                                                                */
/* ------------------------------------------------------------------------ */

using bytes_view = std::span<const std::byte>;

class filter {
 public:
  /* An empty filter; throws bloom::error (e.g. BLOOM_E_UNSUPPORTED for a kind
   * this build lacks, BLOOM_E_INVALID_ARG for p outside (0, 1)). */
  explicit filter(const options &o = options()) { detail::check(bloom_create(&o.c_options(), &f_)); }

  /* Takes ownership of a handle from the C API (NULL is refused). */
  static filter adopt(bloom_filter *handle) {
    if (handle == nullptr) throw error(BLOOM_E_INVALID_ARG, "bloom::filter::adopt: NULL handle");
    return filter(handle);
  }
  static filter load(const std::filesystem::path &path) {
    bloom_filter *f = nullptr;
    detail::check(bloom_load(detail::path_arg(path).c_str(), &f));
    return filter(f);
  }
  /* Read-only, zero-copy view of a saved file; adds throw BLOOM_E_UNSUPPORTED. */
  static filter map(const std::filesystem::path &path) {
    bloom_filter *f = nullptr;
    detail::check(bloom_map(detail::path_arg(path).c_str(), &f));
    return filter(f);
  }
  static filter deserialize(bytes_view image) {
    bloom_filter *f = nullptr;
    detail::check(bloom_deserialize(image.data(), image.size(), &f));
    return filter(f);
  }

  filter(const filter &) = delete;
  filter &operator=(const filter &) = delete;
  filter(filter &&other) noexcept : f_(std::exchange(other.f_, nullptr)) {}
  filter &operator=(filter &&other) noexcept {
    if (this != &other) {
      bloom_destroy(f_);
      f_ = std::exchange(other.f_, nullptr);
    }
    return *this;
  }
  ~filter() { bloom_destroy(f_); }

  /* A deep copy (of a mapped filter: a writable in-memory one). */
  filter clone() const {
    bloom_filter *f = nullptr;
    detail::check(bloom_clone(f_, &f));
    return filter(f);
  }

  void add(std::string_view key) { detail::check(bloom_add(f_, key.data(), key.size())); }
  void add(bytes_view key) { detail::check(bloom_add(f_, key.data(), key.size())); }

  /* true: maybe present; false: certainly absent. */
  bool contains(std::string_view key) const { return detail::check(bloom_query(f_, key.data(), key.size())); }
  bool contains(bytes_view key) const { return detail::check(bloom_query(f_, key.data(), key.size())); }

  /* Adds the key; true if it may have been present before. */
  bool test_and_add(std::string_view key) {
    return detail::check(bloom_test_and_add(f_, key.data(), key.size())) == 1;
  }
  bool test_and_add(bytes_view key) {
    return detail::check(bloom_test_and_add(f_, key.data(), key.size())) == 1;
  }

  /* Counting filters: remove one occurrence; throws BLOOM_E_NOT_PRESENT for a
   * key the filter shows was never added. */
  void remove(std::string_view key) { detail::check(bloom_remove(f_, key.data(), key.size())); }
  void remove(bytes_view key) { detail::check(bloom_remove(f_, key.data(), key.size())); }
  /* As remove(), but false instead of throwing for a key never added. */
  bool try_remove(std::string_view key) { return try_remove_bytes(key.data(), key.size()); }
  bool try_remove(bytes_view key) { return try_remove_bytes(key.data(), key.size()); }

  /* bloom_test_and_add_batch: results[i] = 1 when key i may have been
   * present before it was added (a repeat inside the batch counts), in order. */
  std::vector<uint8_t> test_and_add_batch(std::span<const std::string_view> keys) {
    return test_and_add_batch_of(keys);
  }
  std::vector<uint8_t> test_and_add_batch(std::span<const bytes_view> keys) {
    return test_and_add_batch_of(keys);
  }

  /* Window filters with a time window: set the clock (bloom_advance); throws
   * BLOOM_E_UNSUPPORTED for a count window, other kinds, mapped filters. */
  void advance(uint64_t now_ms) { detail::check(bloom_advance(f_, now_ms)); }
  void advance(std::chrono::milliseconds now) {
    detail::check(bloom_advance(f_, now.count() > 0 ? static_cast<uint64_t>(now.count()) : 0));
  }

  /* Batches (bloom_add_batch / bloom_query_batch): one library call for all
   * keys, which hashes them in blocks and prefetches their memory. */
  void add_batch(std::span<const std::string_view> keys) { add_batch_of(keys); }
  void add_batch(std::span<const bytes_view> keys) { add_batch_of(keys); }
  /* results[i] = 1 (maybe present) or 0 (absent), in order. */
  std::vector<uint8_t> contains_batch(std::span<const std::string_view> keys) const {
    return contains_batch_of(keys);
  }
  std::vector<uint8_t> contains_batch(std::span<const bytes_view> keys) const {
    return contains_batch_of(keys);
  }

  /* Union / intersection with a filter of identical parameters; throws
   * BLOOM_E_INCOMPATIBLE naming the first difference. */
  filter &operator|=(const filter &other) {
    detail::check(bloom_merge(f_, other.f_));
    return *this;
  }
  filter &operator&=(const filter &other) {
    detail::check(bloom_intersect(f_, other.f_));
    return *this;
  }
  friend filter operator|(const filter &a, const filter &b) {
    filter r = a.clone();
    r |= b;
    return r;
  }
  friend filter operator&(const filter &a, const filter &b) {
    filter r = a.clone();
    r &= b;
    return r;
  }

  void clear() { detail::check(bloom_clear(f_)); }

  /* Atomic replace: temporary file, fsync, rename. */
  void save(const std::filesystem::path &path) const {
    detail::check(bloom_save(f_, detail::path_arg(path).c_str()));
  }

  /* The file image (what save writes). */
  std::vector<std::byte> serialize() const {
    size_t size = 0, written = 0;
    detail::check(bloom_serialized_size(f_, &size));
    std::vector<std::byte> out(size);
    detail::check(bloom_serialize(f_, out.data(), out.size(), &written));
    out.resize(written);
    return out;
  }

  bloom::info info() const {
    bloom::info i{};
    i.struct_size = sizeof(bloom_info);
    detail::check(bloom_get_info(f_, &i));
    return i;
  }

  /* Scalable filters: stage i's parameters and state (0 = the oldest);
   * throws BLOOM_E_INVALID_ARG past the last stage. Other kinds have one
   * stage, 0, the whole filter. */
  bloom::info stage_info(uint32_t stage) const {
    bloom::info i{};
    i.struct_size = sizeof(bloom_info);
    detail::check(bloom_get_stage_info(f_, stage, &i));
    return i;
  }

  /* The C handle, still owned by this object (NULL after a move); through a
   * const filter only a const handle, so C calls cannot change it. */
  bloom_filter *c_handle() noexcept { return f_; }
  const bloom_filter *c_handle() const noexcept { return f_; }
  /* Gives up ownership: the caller must bloom_destroy() the result. */
  bloom_filter *release() noexcept { return std::exchange(f_, nullptr); }

 private:
  explicit filter(bloom_filter *f) noexcept : f_(f) {}

  bool try_remove_bytes(const void *key, size_t len) {
    const bloom_status s = bloom_remove(f_, key, len);
    if (s == BLOOM_E_NOT_PRESENT) return false;
    detail::check(s);
    return true;
  }

  // Pointer and length arrays for a batch call over string_views or byte spans.
  struct batch {
    template <typename View>
    explicit batch(std::span<const View> keys) : ptrs(keys.size()), lens(keys.size()) {
      for (size_t i = 0; i < keys.size(); i++) {
        ptrs[i] = keys[i].data();
        lens[i] = keys[i].size();
      }
    }
    std::vector<const void *> ptrs;
    std::vector<size_t> lens;
  };

  template <typename View>
  void add_batch_of(std::span<const View> keys) {
    const batch b(keys);
    detail::check(bloom_add_batch(f_, b.ptrs.data(), b.lens.data(), keys.size()));
  }
  template <typename View>
  std::vector<uint8_t> contains_batch_of(std::span<const View> keys) const {
    const batch b(keys);
    std::vector<uint8_t> results(keys.size());
    detail::check(bloom_query_batch(f_, b.ptrs.data(), b.lens.data(), keys.size(), results.data()));
    return results;
  }

  template <typename View>
  std::vector<uint8_t> test_and_add_batch_of(std::span<const View> keys) {
    const batch b(keys);
    std::vector<uint8_t> results(keys.size());
    detail::check(bloom_test_and_add_batch(f_, b.ptrs.data(), b.lens.data(), keys.size(), results.data()));
    return results;
  }

  bloom_filter *f_ = nullptr;
};

}  // namespace bloom

#endif /* BLOOM_BLOOM_HPP */
