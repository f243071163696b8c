// SPDX-License-Identifier: Apache-2.0
#include "filter.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <string>

#include "error.hpp"
#include "format/header.hpp"
#include "hash/xxh3_block.hpp"
#include "kind_table.hpp"
#include "memory.hpp"
#include "pipelined_blocks.hpp"

namespace bloom::core {

namespace {
constexpr size_t kStripes = 256;

// Kinds whose add only ORs bits in: adding a key that is fully present is a
// no-op for them (the kind table says which).
bool adds_only_set_bits(Kind k) { return describe(k).adds_only_set_bits; }

std::unique_ptr<std::mutex[]> make_stripes(const FilterConfig &config) {
  if (!config.concurrent()) return nullptr;
  return std::make_unique<std::mutex[]>(kStripes);
}

// Concurrent filters count adds in per-thread stripes (striped_counter.hpp).
std::unique_ptr<StripedCounter> make_counter(const FilterConfig &config) {
  return config.concurrent() ? std::make_unique<StripedCounter>() : nullptr;
}

// Concurrent counting filters count removes apart from adds (see
// count_removed).
std::unique_ptr<StripedCounter> make_remove_counter(const FilterConfig &config) {
  return config.concurrent() && describe(config.kind).can(BLOOM_CAP_REMOVE)
             ? std::make_unique<StripedCounter>()
             : nullptr;
}

// Hashes count keys into out. The hasher is a per-filter constant, so its
// switch is taken once per block of keys instead of once per key, and each
// loop below inlines one hash function. flatten: without it GCC 12 kept
// XXH3_128bits_withSeed out of line (one call per key, ~10 of the ~140
// instructions of a batch query); XXH3's long-input paths are noinline in
// xxhash.h, so only the short-key code is copied in. XXH3-64 blocks (blocked
// filters) are hashed by length class instead (xxh3_block.hpp); doing the
// same for XXH3-128 measured no change for the classic kind, whose batch
// time is its k random line reads (seed_table's batch rows), so it was not
// kept.
__attribute__((flatten)) void hash_block(const Hasher &hasher, const void *const *keys, const size_t *lens,
                                         size_t count, Hash128 *out) {
  if (hasher.hash64) {
    static_assert(kBatchBlock <= kMaxHashBlock);
    uint64_t h[kBatchBlock];
    xxh3_64_block(keys, lens, count, hasher.seed, h);  // by length class: no branch per key
    for (size_t i = 0; i < count; ++i) out[i] = {h[i], h[i]};
    return;
  }
  switch (hasher.kind) {
    case HashKind::kMurmur3:
      for (size_t i = 0; i < count; ++i) out[i] = murmur3_x64_128(keys[i], lens[i], hasher.seed);
      break;
    case HashKind::kFnv1a:
      for (size_t i = 0; i < count; ++i) out[i] = fnv1a_128(keys[i], lens[i], hasher.seed);
      break;
    case HashKind::kRedisBloom:
      for (size_t i = 0; i < count; ++i) out[i] = redisbloom_hash(keys[i], lens[i], hasher.seed);
      break;
    case HashKind::kGuava:
    case HashKind::kBitsAndBlooms:
    case HashKind::kParquet:
      for (size_t i = 0; i < count; ++i) out[i] = hasher(keys[i], lens[i]);
      break;
    case HashKind::kXxh3:
    default:
      for (size_t i = 0; i < count; ++i) out[i] = xxh3_128(keys[i], lens[i], hasher.seed);
      break;
  }
}

void check_keys(const void *const *keys, const size_t *lens, size_t n) {
  if (n == 0) return;
  if (keys == nullptr || lens == nullptr) fail(Status::kInvalidArg, "keys and lens must not be NULL");
  for (size_t i = 0; i < n; ++i)
    if (keys[i] == nullptr && lens[i] != 0)
      fail(Status::kInvalidArg, "keys[" + std::to_string(i) + "] is NULL with a non-zero length");
}

// Filter::require_combinable's refusal.
[[noreturn]] void refuse_combination(const char *what, const char *kind) {
  fail(Status::kUnsupported, std::string(what) + ": " + kind + " filters do not combine");
}

// Describes the first identity field in which a and b differ, or "".
std::string first_difference(const FilterConfig &a, const FilterConfig &b) {
  auto differ = [](const char *name, auto x, auto y) {
    return std::string(name) + " differs (" + std::to_string(x) + " vs " + std::to_string(y) + ")";
  };
  if (a.kind != b.kind) return differ("kind", static_cast<int>(a.kind), static_cast<int>(b.kind));
  if (a.hash != b.hash) return differ("hash", static_cast<int>(a.hash), static_cast<int>(b.hash));
  if (a.seed != b.seed) return differ("seed", a.seed, b.seed);
  if (a.bits != b.bits) return differ("bits (m)", a.bits, b.bits);
  if (a.hashes != b.hashes) return differ("hashes (k)", a.hashes, b.hashes);
  if (a.split_block() != b.split_block()) return "block size differs (32-byte split blocks vs 64-byte lines)";
  if (a.blocked_layout2() != b.blocked_layout2())
    return "blocked layout differs (layout 2 of format 1.1 vs layout 1 of format 1.0): rebuild the older "
           "filter with this library";
  if (a.mixed_probes() != b.mixed_probes())
    return "probe positions differ (mixed probes of format 1.2 vs unmixed of 1.0/1.1): rebuild the older "
           "filter with this library";
  if (a.enhanced_probes() != b.enhanced_probes())
    return "probe scheme differs (enhanced vs plain double hashing)";
  if (a.counter_bits != b.counter_bits) return differ("counter_bits", a.counter_bits, b.counter_bits);
  if (a.growth != b.growth) return differ("growth", a.growth, b.growth);
  if (a.tightening != b.tightening) return differ("tightening", a.tightening, b.tightening);
  return "";
}
}  // namespace

// allocation_point lets fault injection fail the filter object itself (the
// object is already allocated here; throwing from the constructor frees it).
Filter::Filter(const FilterConfig &config)
    : config_(config),
      hasher_{config.hash, config.seed, config.key_hash64()},
      concurrent_added_(make_counter(config)),
      concurrent_removed_(make_remove_counter(config)),
      stripes_(make_stripes(config)) {
  allocation_point(sizeof(Filter));
  install_generic_add();
  note_filter_created();
}

Filter::~Filter() { note_filter_destroyed(); }

Filter::Filter(const Filter &other, int)
    : config_(other.config_),
      hasher_(other.hasher_),
      concurrent_added_(make_counter(other.config_)),
      concurrent_removed_(make_remove_counter(other.config_)),
      stripes_(make_stripes(other.config_)) {
  allocation_point(sizeof(Filter));
  set_keys_added(other.keys_added());
  install_generic_add();
  note_filter_created();
}

uint64_t Filter::concurrent_keys_added() const {
  const uint64_t added = concurrent_added_->load();
  const uint64_t removed = concurrent_removed_ ? concurrent_removed_->load() : 0;
  return added > removed ? added - removed : 0;
}

void Filter::set_keys_added(uint64_t n) {
  if (concurrent_added_) {
    concurrent_added_->store(n);
    if (concurrent_removed_) concurrent_removed_->store(0);
  } else {
    keys_added_ = n;
  }
}

// keys_added counts keys in the filter: adds minus removes, never below 0.
// A filter without the flag stops at 0 when it removes. A concurrent one
// counts every remove apart and subtracts when read: an add counts itself
// after it raised the counters, so a remove of that key racing it can find
// the key while the count is still 0, and skipping the -1 then (as the
// plain filter does) would leave the count one high once the add counted.
void Filter::count_removed() {
  if (concurrent_removed_)
    concurrent_removed_->add(1);
  else if (keys_added_ != 0)
    --keys_added_;
}

std::unique_lock<std::mutex> Filter::key_lock(Hash128 h) const {
  if (!stripes_) return {};
  return std::unique_lock<std::mutex>(stripes_[h.h2 % kStripes]);
}

void Filter::require_writable(const char *what) const {
  if (read_only()) fail(Status::kUnsupported, std::string(what) + ": the filter is a read-only mapping");
}

// The kinds whose add is "hash, then set" and cannot fail get the generic
// key-level add (hash, virtual add) in bloom_add: it skips the C API's
// exception guard, the read-only check (read-only filters have none) and
// the counter's concurrency branch. Scalable adds may allocate a stage and
// window adds advance a clock, so both keep the checked path; a kind may
// install its own (the blocked kind's kernels do).
void Filter::install_generic_add() {
  const KindDescriptor &kind = describe(config_.kind);
  if (!kind.can(BLOOM_CAP_GROWS) && !kind.can(BLOOM_CAP_FORGETS))
    set_key_add_path({&generic_add_key, this, nullptr});
}

int Filter::generic_add_key(const void *self, const void *key, size_t len) {
  // The path is installed only on the filter itself (ctx = this), writable.
  auto &f = *const_cast<Filter *>(static_cast<const Filter *>(self));
  f.add(f.hasher_(key, len));
  return 0;
}

void Filter::add_key(const void *key, size_t len) {
  require_writable("add");
  if (whole_keys_)
    (void)test_and_add_whole_key(key, len);
  else
    add(hasher_(key, len));
  count_added(1);
}

bool Filter::test_and_add_key(const void *key, size_t len) {
  require_writable("test_and_add");
  if (whole_keys_) {
    // Whole-key kinds only set bits: a present key is an add that changed nothing.
    const bool present = test_and_add_whole_key(key, len);
    if (!present) count_added(1);
    return present;
  }
  return test_and_add_hashed(hasher_(key, len));
}

bool Filter::test_and_add_whole_key(const void *, size_t) {
  fail(Status::kUnsupported, "this filter takes keys through their hash");
}

void Filter::test_and_add_keys(const void *const *keys, const size_t *lens, size_t n, uint8_t *out) {
  require_writable("test_and_add_batch");
  check_keys(keys, lens, n);
  if (n != 0 && out == nullptr) fail(Status::kInvalidArg, "results must not be NULL");
  if (whole_keys_) {
    for (size_t i = 0; i < n; ++i) out[i] = test_and_add_key(keys[i], lens[i]) ? 1 : 0;
    return;
  }
  // Keys are tested and added one after another, so a key repeated inside
  // the batch is found by its second test; hashing and prefetching run a
  // block ahead as in add_keys.
  Hash128 blocks[2][kBatchBlock];
  pipelined_blocks<kBatchBlock>(
      n,
      [&](size_t start, size_t count, size_t slot) {
        hash_block(hasher_, keys + start, lens + start, count, blocks[slot]);
        prefetch_block(blocks[slot], count);
      },
      [&](size_t start, size_t count, size_t slot) {
        for (size_t i = 0; i < count; ++i) out[start + i] = test_and_add_hashed(blocks[slot][i]) ? 1 : 0;
      });
}

void Filter::advance(uint64_t) {
  fail(Status::kUnsupported, "advance: only window filters with a time window (window_ms > 0) have a clock");
}

bool Filter::test_and_add_hashed(Hash128 h) {
  // Concurrent bit kinds: a key whose bits are all set already is "maybe
  // present" and adding it would change nothing, so that answer needs no
  // lock -- the common case in a de-duplication stream, where repeats
  // dominate.
  if (stripes_ && adds_only_set_bits(config_.kind) && query(h)) return true;
  // Equal keys share a lock, so of several threads adding one new key
  // exactly one finds a probe unset (the others wait, then find every bit
  // set). Cost: one uncontended mutex lock/unlock per new key.
  bool present;
  {
    const std::unique_lock<std::mutex> lock = key_lock(h);
    present = test_and_add(h);
  }
  // A present key is an add that changed nothing only for the bit kinds;
  // counting filters did add an occurrence, and scalable counts every call
  // (docs/kinds-counting-scalable.md), as bloom_add does.
  if (!present || !adds_only_set_bits(config_.kind)) count_added(1);
  return present;
}

void Filter::remove_key(const void *key, size_t len) {
  require_writable("remove");
  const Hash128 h = hasher_(key, len);
  // A remove checks the key's counters, then lowers them. Two threads
  // removing one key (added once) at the same moment would both pass the
  // check and both lower them, taking a count from every key that shares a
  // counter -- a false negative for a key still in the filter. Under the
  // key's lock the second remove waits and then finds the key gone
  // (BLOOM_E_NOT_PRESENT), as it would one call later.
  const std::unique_lock<std::mutex> lock = key_lock(h);
  remove(h);
}

void Filter::remove(Hash128) { fail(Status::kUnsupported, "remove: only counting filters can remove keys"); }

void Filter::add_keys(const void *const *keys, const size_t *lens, size_t n) {
  require_writable("add_batch");
  check_keys(keys, lens, n);
  if (whole_keys_) {
    for (size_t i = 0; i < n; ++i) {
      (void)test_and_add_whole_key(keys[i], lens[i]);
      count_added(1);
    }
    return;
  }
  if (key_add_.add_batch != nullptr) {  // installed only where adds cannot fail
    key_add_.add_batch(key_add_.ctx, keys, lens, n);
    count_added(n);
    return;
  }
  if (groups_batch_adds_) return add_keys_grouped(keys, lens, n);
  // Block b + 1 is hashed and its memory prefetched before block b is
  // added (pipelined_blocks.hpp).
  Hash128 blocks[2][kBatchBlock];
  size_t done = 0;  // keys of the blocks added so far
  try {
    pipelined_blocks<kBatchBlock>(
        n,
        [&](size_t start, size_t count, size_t slot) {
          hash_block(hasher_, keys + start, lens + start, count, blocks[slot]);
          prefetch_block(blocks[slot], count);
        },
        [&](size_t start, size_t count, size_t slot) {
          add_block(blocks[slot], count);
          done = start + count;
        });
  } catch (...) {
    // The blocks before the one that failed are in; add_block counted its
    // own part (see its declaration). The hot path counts once, below.
    count_added(done);
    throw;
  }
  count_added(n);
}

// Kinds that sort a batch by region (groups_batch_adds_) and cannot fail
// in add_block: large hashed blocks, no pipeline (the kind prefetches).
void Filter::add_keys_grouped(const void *const *keys, const size_t *lens, size_t n) {
  Hash128 hs[kGroupedAddBlock];
  for (size_t start = 0; start < n; start += kGroupedAddBlock) {
    const size_t count = std::min(kGroupedAddBlock, n - start);
    for (size_t s = 0; s < count; s += kBatchBlock)
      hash_block(hasher_, keys + start + s, lens + start + s, std::min(kBatchBlock, count - s), hs + s);
    add_block(hs, count);
    count_added(count);
  }
}

void Filter::query_keys(const void *const *keys, const size_t *lens, size_t n, uint8_t *out) const {
  check_keys(keys, lens, n);
  if (n != 0 && out == nullptr) fail(Status::kInvalidArg, "results must not be NULL");
  key_paths_.query_batch(key_paths_.ctx, keys, lens, n, out);
}

void Filter::reset_key_query_paths() { key_paths_ = {&generic_query_key, &generic_query_keys, this}; }

int Filter::generic_query_key(const void *self, const void *key, size_t len) {
  const auto &f = *static_cast<const Filter *>(self);
  return f.query(f.hasher_(key, len)) ? 1 : 0;
}

void Filter::generic_query_keys(const void *self, const void *const *keys, const size_t *lens, size_t n,
                                uint8_t *out) {
  const auto &f = *static_cast<const Filter *>(self);
  Hash128 block[kBatchBlock];
  for (size_t start = 0; start < n; start += kBatchBlock) {
    const size_t count = std::min(kBatchBlock, n - start);
    hash_block(f.hasher_, keys + start, lens + start, count, block);
    f.query_block(block, count, out + start);
  }
}

void Filter::add_block(const Hash128 *hs, size_t n) {
  size_t i = 0;
  try {
    for (; i < n; ++i) add(hs[i]);
  } catch (...) {
    count_added(i);  // keys 0..i-1 are in the filter (see add_keys)
    throw;
  }
}

void Filter::query_block(const Hash128 *hs, size_t n, uint8_t *out) const {
  for (size_t i = 0; i < n; ++i) out[i] = query(hs[i]) ? 1 : 0;
}

void Filter::check_compatible(const Filter &other) const {
  const std::string diff = first_difference(config_, other.config_);
  if (!diff.empty()) fail(Status::kIncompatible, diff);
}

// A kind without the capability refuses in its own combine (merge_from or
// intersect_with), which knows why; a source whose kind cannot combine, or
// a destination kind that failed to refuse, is refused here, never combined
// unsoundly.
void Filter::require_combinable(const Filter &src, unsigned cap, const char *what,
                                void (Filter::*combine)(const Filter &)) {
  if (const KindDescriptor &kind = describe(config_.kind); !kind.can(cap)) {
    (this->*combine)(src);
    refuse_combination(what, kind.name);
  }
  if (const KindDescriptor &kind = describe(src.config_.kind); !kind.can(cap))
    refuse_combination(what, kind.name);
}

void Filter::merge(const Filter &src) {
  require_writable("merge");
  require_combinable(src, BLOOM_CAP_MERGE, "merge", &Filter::merge_from);
  check_compatible(src);
  const uint64_t a = keys_added();
  const uint64_t b = src.keys_added();
  merge_from(src);
  set_keys_added(a + b < a ? UINT64_MAX : a + b);
}

void Filter::intersect(const Filter &src) {
  require_writable("intersect");
  require_combinable(src, BLOOM_CAP_INTERSECT, "intersect", &Filter::intersect_with);
  check_compatible(src);
  const uint64_t n = std::min(keys_added(), src.keys_added());
  intersect_with(src);
  set_keys_added(n);
}

void Filter::clear() {
  require_writable("clear");
  clear_all();
  set_keys_added(0);
}

std::unique_ptr<Filter> Filter::clone() const { return clone_filter(); }

void Filter::get_info(Info &info) const {
  get_common_info(info);
  fill_info(info);
}

void Filter::get_common_info(Info &info) const {
  info.kind = static_cast<int32_t>(config_.kind);
  info.hash = static_cast<int32_t>(config_.hash);
  info.seed = config_.seed;
  info.flags = config_.flags & kKnownFlags;  // format-only flags stay internal
  info.hashes = config_.hashes;
  info.capacity = config_.capacity;
  info.fp_rate = config_.fp_rate;
  info.keys_added = keys_added();
  info.stages = stage_count();
  // Only kinds made of counters have counter_bits (validate refuses it
  // elsewhere); a bit is a 1-bit counter.
  info.counter_bits = config_.counter_bits != 0 ? config_.counter_bits : 1;
  info.growth = config_.growth;
  info.tightening = config_.tightening;
  info.read_only = read_only() ? 1 : 0;
  info.format_major = kFormatMajor;
  info.format_minor = format_minor_for(config_);
}

void Filter::get_stage_info(uint32_t stage, Info &info) const {
  if (stage != 0)
    fail(Status::kInvalidArg, "stage " + std::to_string(stage) + " does not exist (the filter has 1)");
  get_info(info);
}

}  // namespace bloom::core
