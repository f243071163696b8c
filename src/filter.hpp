// SPDX-License-Identifier: Apache-2.0
// filter.hpp -- the interface every filter kind implements.
//
// One virtual call per C API call is the price of one handle type for every
// kind; the per-key work inside a kind is non-virtual. Batch calls hash keys
// in blocks of kBatchBlock and hand each block to the kind, which prefetches
// every key's memory before probing any of them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>

#include "bloom/bloom.h"
#include "filter_config.hpp"
#include "format/byte_stream.hpp"
#include "hash/hasher.hpp"
#include "info.hpp"
#include "memory.hpp"
#include "striped_counter.hpp"

namespace bloom::core {

inline constexpr size_t kBatchBlock = 32;
// Keys a kind that groups a batch's adds by region (Filter::groups_batch_adds_)
// receives per add_block call: enough that each region gets many of them.
inline constexpr size_t kGroupedAddBlock = 1024;

// Key-level query paths a kind may install in place of "hash, then virtual
// query": bloom_query and bloom_query_batch then make one indirect call into
// code specialised for the filter's kind, hasher and CPU. ctx is the kind's
// own view of its memory. The paths must answer exactly like query(hasher(key)).
struct KeyQueryPaths {
  int (*query)(const void *ctx, const void *key, size_t len);  // 1 or 0
  void (*query_batch)(const void *ctx, const void *const *keys, const size_t *lens, size_t n, uint8_t *out);
  const void *ctx;
};

// A kind's key-level add for bloom_add: hash and set the key's bits in one
// call, with no virtual call, no status plumbing and no "was it present"
// answer. Installed only where a plain add is exactly that: a writable
// filter without BLOOM_FLAG_CONCURRENT, whose add cannot fail. ctx is the
// kind's own view of its (writable) memory.
struct KeyAddPath {
  // Returns 0 (BLOOM_OK): bloom_add returns it as it is, so its call is a
  // jump (no stack frame to keep the filter across a call).
  int (*add)(const void *ctx, const void *key, size_t len);
  const void *ctx;
  // bloom_add_batch's counterpart, or null (add_keys then hashes blocks and
  // calls add_block): hash, prefetch and set n keys in one call.
  void (*add_batch)(const void *ctx, const void *const *keys, const size_t *lens, size_t n);
};

class Filter {
 public:
  explicit Filter(const FilterConfig &config);
  virtual ~Filter();
  // Filter objects of every kind come from allocate_object: the embedder's
  // allocator when one is installed (bloom_set_allocator), operator new
  // otherwise. The aligned forms serve kinds with over-aligned members.
  // Unsized deletes: GCC 12 calls no class-scope sized delete when a
  // constructor throws (the object leaked), so the size travels with the
  // block instead (allocate_object).
  static void *operator new(size_t bytes) { return allocate_object(bytes, alignof(std::max_align_t)); }
  static void *operator new(size_t bytes, std::align_val_t a) {
    return allocate_object(bytes, static_cast<size_t>(a));
  }
  static void operator delete(void *p) noexcept { free_object(p, alignof(std::max_align_t)); }
  static void operator delete(void *p, std::align_val_t a) noexcept {
    free_object(p, static_cast<size_t>(a));
  }

  const FilterConfig &config() const { return config_; }
  const Hasher &hasher() const { return hasher_; }
  uint64_t keys_added() const { return concurrent_added_ ? concurrent_keys_added() : keys_added_; }
  bool read_only() const { return backing_ != nullptr; }

  // --- keys (the C API's entry points; they hash once and dispatch) -------
  void add_key(const void *key, size_t len);
  // bloom_add's fast path: the kind's key-level add and a plain count, when
  // the filter has one (see KeyAddPath); without one, add_key.
  bool has_key_add() const { return key_add_.add != nullptr; }
  // The installed key-level add (has_key_add()), counted first: the add
  // cannot fail, and counting after it made bloom_add keep a stack frame
  // around the call (six more instructions per add). Returns BLOOM_OK (0).
  int add_key_installed(const void *key, size_t len) {
    ++keys_added_;
    return key_add_.add(key_add_.ctx, key, len);
  }
  // Whether add_keys runs the kind's KeyAddPath::add_batch (tests).
  bool has_key_add_batch() const { return key_add_.add_batch != nullptr; }
  int query_key(const void *key, size_t len) const { return key_paths_.query(key_paths_.ctx, key, len); }
  bool test_and_add_key(const void *key, size_t len);
  // bloom_test_and_add_batch: out[i] = test_and_add of key i, in order.
  void test_and_add_keys(const void *const *keys, const size_t *lens, size_t n, uint8_t *out);
  void remove_key(const void *key, size_t len);
  void add_keys(const void *const *keys, const size_t *lens, size_t n);
  void query_keys(const void *const *keys, const size_t *lens, size_t n, uint8_t *out) const;
  // Whether query_key / query_keys run a kind's own key path instead of the
  // generic one (hash with hasher_, then query / query_block); for tests,
  // which must know the path they compare is the one bloom_query takes.
  bool has_key_query() const { return key_paths_.query != &generic_query_key; }
  bool has_key_query_batch() const { return key_paths_.query_batch != &generic_query_keys; }

  // --- whole-filter operations ---------------------------------------------
  // Throws Error(INCOMPATIBLE) naming the first differing parameter.
  void check_compatible(const Filter &other) const;
  void merge(const Filter &src);
  void intersect(const Filter &src);
  void clear();
  std::unique_ptr<Filter> clone() const;
  // Fills the common fields, then lets the kind fill the rest.
  void get_info(Info &info) const;
  // Only the common fields (no pass over the bits): for a kind's
  // get_stage_info, which fills the rest from the stage.
  void get_common_info(Info &info) const;

  // --- what a kind implements ----------------------------------------------
  virtual bool query(Hash128 h) const = 0;
  // The byte size of write_payload's output, and the payload itself.
  virtual uint64_t payload_size() const = 0;
  virtual void write_payload(ByteSink &sink) const = 0;
  // Stages for scalable; 1 otherwise. Stored in the header.
  virtual uint32_t stage_count() const { return 1; }
  // bloom_get_stage_info: stage 0 is the whole filter unless a kind has
  // stages; throws Error(INVALID_ARG) for a stage that does not exist.
  virtual void get_stage_info(uint32_t stage, Info &info) const;
  // Bytes the next add of a new key allocates (bloom_growth_bytes): 0 for
  // every kind of fixed size.
  virtual uint64_t growth_bytes() const { return 0; }
  // bloom_advance: window filters with a clock; others throw
  // Error(UNSUPPORTED).
  virtual void advance(uint64_t now_ms);

  // Keeps a file mapping alive; a filter with a backing is read-only.
  void set_backing(std::shared_ptr<const void> backing) {
    backing_ = std::move(backing);
    if (backing_) key_add_ = {};  // read-only: bloom_add must refuse
  }
  void set_keys_added(uint64_t n);

 protected:
  // For clone_filter(): copies the identity and the key count.
  Filter(const Filter &other, int /*copy tag*/);

  virtual void add(Hash128 h) = 0;
  // Adds h and returns whether every probed position was already set.
  virtual bool test_and_add(Hash128 h) = 0;
  virtual void remove(Hash128 h);
  // Adds n hashed keys of a batch; add_keys counts them. An override that
  // can throw part-way must first count_added() the keys it did add, as the
  // default (add() per key) does: only scalable filters
  // throw here (a stage they cannot allocate), and they use the default.
  virtual void add_block(const Hash128 *hs, size_t n);
  // Starts fetching the memory that add_block(hs, n) will write: add_keys
  // calls it one block ahead. A hint only; the default does nothing.
  virtual void prefetch_block(const Hash128 *hs, size_t n) const {
    (void)hs;
    (void)n;
  }
  virtual void query_block(const Hash128 *hs, size_t n, uint8_t *out) const;
  virtual void merge_from(const Filter &src) = 0;
  virtual void intersect_with(const Filter &src) = 0;
  virtual void clear_all() = 0;
  virtual std::unique_ptr<Filter> clone_filter() const = 0;
  // Fills bits, bytes, fill_ratio, estimated_keys, expected_fp_rate and
  // anything kind-specific.
  virtual void fill_info(Info &info) const = 0;

  void require_writable(const char *what) const;
  // A kind whose positions need the key itself rather than its Hash128
  // (bits-and-blooms' four 64-bit hashes, kinds/classic_bits_and_blooms.cpp)
  // calls take_whole_keys() when it is made: add_key, add_keys and
  // test_and_add_key(s) then call test_and_add_whole_key, and the kind
  // installs its own key query paths and key add path. Such filters are
  // never concurrent (configure refuses it), so no key lock is taken.
  void take_whole_keys() { whole_keys_ = true; }
  // Adds the key; returns whether every position was set before.
  virtual bool test_and_add_whole_key(const void *key, size_t len);
  // Installs a kind's specialised key paths; reset_key_query_paths() goes
  // back to hashing with hasher_ and calling query() / query_block().
  void set_key_query_paths(const KeyQueryPaths &paths) { key_paths_ = paths; }
  // Installs only a single-key path, whose ctx is this Filter; batches keep
  // the generic path.
  void set_key_query(int (*query)(const void *self, const void *key, size_t len)) {
    key_paths_ = {query, &generic_query_keys, this};
  }
  void reset_key_query_paths();
  // Installs a kind's key-level add (KeyAddPath); ignored on a concurrent or
  // read-only filter, whose adds keep the checked path.
  void set_key_add_path(const KeyAddPath &path) {
    if (!concurrent_added_ && !backing_) key_add_ = path;
  }
  // Set by a kind whose add_block sorts keys by region (the concurrent
  // blocked kind, which takes one lock per region): add_keys then hands it
  // kGroupedAddBlock keys at a time, hashed, instead of pipelined blocks.
  bool groups_batch_adds_ = false;
  // Counts successful adds: a plain increment unless the filter is
  // concurrent (then a per-thread stripe; see striped_counter.hpp).
  void count_added(uint64_t n) {
    if (concurrent_added_)
      concurrent_added_->add(n);
    else
      keys_added_ += n;
  }
  // Counts a successful remove (counting filters; see filter.cpp).
  void count_removed();

  FilterConfig config_;
  Hasher hasher_;

 private:
  uint64_t concurrent_keys_added() const;
  void install_generic_add();
  // Throws unless both kinds have cap (BLOOM_CAP_MERGE or _INTERSECT); a
  // destination kind without it refuses through combine, with its reason.
  void require_combinable(const Filter &src, unsigned cap, const char *what,
                          void (Filter::*combine)(const Filter &));
  // add_keys for a kind that sorts its adds by region (groups_batch_adds_).
  void add_keys_grouped(const void *const *keys, const size_t *lens, size_t n);
  // Concurrent filters: the lock of h's stripe, held (equal keys share one;
  // unequal keys proceed in parallel unless they share one of the 256).
  // Other filters: no lock.
  std::unique_lock<std::mutex> key_lock(Hash128 h) const;
  // test_and_add_key after hashing, counted.
  bool test_and_add_hashed(Hash128 h);
  static int generic_query_key(const void *self, const void *key, size_t len);
  static void generic_query_keys(const void *self, const void *const *keys, const size_t *lens, size_t n,
                                 uint8_t *out);
  static int generic_add_key(const void *self, const void *key, size_t len);

  KeyQueryPaths key_paths_{&generic_query_key, &generic_query_keys, this};
  KeyAddPath key_add_{};                                // none: bloom_add takes add_key
  bool whole_keys_ = false;                             // see take_whole_keys
  uint64_t keys_added_ = 0;                             // when not concurrent
  std::unique_ptr<StripedCounter> concurrent_added_;    // when concurrent
  std::unique_ptr<StripedCounter> concurrent_removed_;  // when concurrent and counting
  std::shared_ptr<const void> backing_;
  // Concurrent filters only: serialises test-and-add of equal keys (see
  // test_and_add_key). Indexed by the key's hash, so different keys rarely
  // share a lock and equal keys always do.
  std::unique_ptr<std::mutex[]> stripes_;
};

}  // namespace bloom::core
