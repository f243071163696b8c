// SPDX-License-Identifier: Apache-2.0
// micro_bench.cpp -- Google Benchmark micro-benchmarks: every kind x hasher x
// operation over filter sizes from 64 KiB to 256 MiB (1 GiB with
// --max_bytes=1G or BLOOM_BENCH_MAX_BYTES=1G), plus the floor (one XXH3 + one
// random line read, or one read-modify-write of a word of it for adds) at
// every size, so the L1 -> L2 -> L3 -> DRAM curve shows.
//
// Names are op/kind/hasher/bytes, e.g. query_miss/classic/xxh3/1048576; pick
// with --benchmark_filter. Key operations do 1024 keys per iteration and
// report sec_per_key; whole-filter operations report bytes_per_second. A kind
// this build does not implement is reported as an error "n/a: ...", not
// skipped silently. Filters are filled to their capacity (the p = 0.01 sizing
// scaled to the target size) before any query is timed.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "bloom/bloom.h"
#include "key_pool.hpp"

namespace bb = bloom_bench;

namespace {

constexpr size_t kKeysPerIteration = 1024;
constexpr double kSizingRate = 0.01;

struct FilterSpec {
  int kind;
  int hash;
  uint64_t bytes;  // target size of the filter's serialized form
};

bool same(const FilterSpec &a, const FilterSpec &b) {
  return a.kind == b.kind && a.hash == b.hash && a.bytes == b.bytes;
}

struct FilterDeleter {
  void operator()(bloom_filter *f) const { bloom_destroy(f); }
};
using FilterPtr = std::unique_ptr<bloom_filter, FilterDeleter>;

// Creates an empty filter of about spec.bytes: sized for p = 0.01, then the
// capacity rescaled once by the ratio of target to actual size (so counting
// filters, 4 bits per counter, hold fewer keys in the same bytes).
bloom_status create_sized(const FilterSpec &spec, FilterPtr &out, uint64_t &capacity) {
  bloom_options o;
  bloom_options_init(&o);
  o.kind = spec.kind;
  o.hash = spec.hash;
  o.fp_rate = kSizingRate;
  o.capacity = static_cast<uint64_t>(static_cast<double>(spec.bytes) * 8 / 9.585);
  bloom_filter *f = nullptr;
  bloom_status s = bloom_create(&o, &f);
  if (s != BLOOM_OK) return s;
  size_t actual = 0;
  bloom_serialized_size(f, &actual);
  bloom_destroy(f);
  o.capacity = static_cast<uint64_t>(static_cast<double>(o.capacity) * static_cast<double>(spec.bytes) /
                                     static_cast<double>(actual));
  if (o.capacity == 0) o.capacity = 1;
  s = bloom_create(&o, &f);
  out.reset(f);
  capacity = o.capacity;
  return s;
}

// The filled filter of the benchmarks now running, with its key pools. Only
// one is kept: benchmarks are registered size-major, so each is built once.
struct Filled {
  FilterSpec spec{};
  bloom_status status = BLOOM_OK;
  std::string error;
  FilterPtr filter;
  uint64_t capacity = 0;
  bb::KeyPool hits, misses;
};

Filled &filled(const FilterSpec &spec) {
  static std::unique_ptr<Filled> cache;
  if (cache && same(cache->spec, spec)) return *cache;
  cache.reset();  // free the previous one first
  auto f = std::make_unique<Filled>();
  f->spec = spec;
  f->status = create_sized(spec, f->filter, f->capacity);
  if (f->status == BLOOM_OK) {
    std::vector<char> buf(16 * 4096);
    std::vector<const void *> ptrs(4096);
    std::vector<size_t> lens(4096);
    for (uint64_t start = 0; start < f->capacity && f->status == BLOOM_OK; start += 4096) {
      const size_t count = static_cast<size_t>(std::min<uint64_t>(4096, f->capacity - start));
      for (size_t j = 0; j < count; ++j) {
        lens[j] = bb::make_key(start + j, &buf[j * 16]);
        ptrs[j] = &buf[j * 16];
      }
      f->status = bloom_add_batch(f->filter.get(), ptrs.data(), lens.data(), count);
    }
    const size_t pool =
        static_cast<size_t>(std::min<uint64_t>(bb::kPoolKeys, std::max<uint64_t>(f->capacity, 4096)));
    f->hits = bb::KeyPool::random(pool, 0, f->capacity, 1);
    f->misses = bb::KeyPool::random(pool, bb::kMissBase, bb::kMissBase, 2);
  }
  if (f->status != BLOOM_OK) f->error = bloom_last_error();
  cache = std::move(f);
  return *cache;
}

bool report_unavailable(benchmark::State &state, bloom_status s, const std::string &error) {
  if (s == BLOOM_OK) return false;
  if (s == BLOOM_E_UNSUPPORTED)
    state.SkipWithError("n/a: this kind is not implemented in this build");
  else
    state.SkipWithError(("error: " + error).c_str());
  return true;
}

void set_key_counters(benchmark::State &state, uint64_t bytes) {
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * kKeysPerIteration));
  state.counters["sec_per_key"] = benchmark::Counter(
      kKeysPerIteration, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
  state.counters["filter_bytes"] = static_cast<double>(bytes);
}

enum class Op {
  kQueryHit,
  kQueryMiss,
  kQueryBatchHit,
  kQueryBatchMiss,
  kMerge,
  kSerialize,
  kDeserialize,
  kAdd,
  kAddBatch,
  kTestAndAdd
};

const char *op_name(Op op) {
  switch (op) {
    case Op::kQueryHit:
      return "query_hit";
    case Op::kQueryMiss:
      return "query_miss";
    case Op::kQueryBatchHit:
      return "query_batch_hit";
    case Op::kQueryBatchMiss:
      return "query_batch_miss";
    case Op::kMerge:
      return "merge";
    case Op::kSerialize:
      return "serialize";
    case Op::kDeserialize:
      return "deserialize";
    case Op::kAdd:
      return "add";
    case Op::kAddBatch:
      return "add_batch";
    case Op::kTestAndAdd:
      return "test_and_add";
  }
  return "?";
}

void bench_query(benchmark::State &state, FilterSpec spec, bool hit, bool batch) {
  Filled &f = filled(spec);
  if (report_unavailable(state, f.status, f.error)) return;
  const bb::KeyPool &pool = hit ? f.hits : f.misses;
  const size_t mask_keys = pool.size() - pool.size() % kKeysPerIteration;
  std::vector<uint8_t> results(kKeysPerIteration);
  size_t start = 0;
  for (auto _ : state) {
    if (batch) {
      bloom_query_batch(f.filter.get(), &pool.ptrs[start], &pool.lens[start], kKeysPerIteration,
                        results.data());
      benchmark::DoNotOptimize(results.data());
    } else {
      int acc = 0;
      for (size_t i = start; i < start + kKeysPerIteration; ++i)
        acc += bloom_query(f.filter.get(), pool.ptrs[i], pool.lens[i]);
      benchmark::DoNotOptimize(acc);
    }
    start += kKeysPerIteration;
    if (start >= mask_keys) start = 0;
  }
  set_key_counters(state, spec.bytes);
}

// Adds into an empty filter of the spec's size, clearing it (untimed) each
// time it has taken its capacity, so the fill stays between 0 and 100%.
void bench_add(benchmark::State &state, FilterSpec spec, Op op) {
  FilterPtr f;
  uint64_t capacity = 0;
  const bloom_status s = create_sized(spec, f, capacity);
  if (report_unavailable(state, s, bloom_last_error())) return;
  // Touch every page before timing: large arrays are mapped lazily, and a
  // short run at 256 MiB otherwise timed page faults, not adds (16 us per
  // key for the blocked add in the recorded sweep, 64 ns at 64 MiB).
  bloom_clear(f.get());
  Filled &source = filled(spec);  // for its miss pool: keys never added
  if (report_unavailable(state, source.status, source.error)) return;
  const bb::KeyPool &pool = source.misses;
  const size_t mask_keys = pool.size() - pool.size() % kKeysPerIteration;
  size_t start = 0;
  uint64_t added = 0;
  for (auto _ : state) {
    if (op == Op::kAddBatch) {
      bloom_add_batch(f.get(), &pool.ptrs[start], &pool.lens[start], kKeysPerIteration);
    } else if (op == Op::kAdd) {
      for (size_t i = start; i < start + kKeysPerIteration; ++i)
        bloom_add(f.get(), pool.ptrs[i], pool.lens[i]);
    } else {
      int acc = 0;
      for (size_t i = start; i < start + kKeysPerIteration; ++i)
        acc += bloom_test_and_add(f.get(), pool.ptrs[i], pool.lens[i]);
      benchmark::DoNotOptimize(acc);
    }
    start += kKeysPerIteration;
    if (start >= mask_keys) start = 0;
    added += kKeysPerIteration;
    if (added >= capacity) {
      state.PauseTiming();
      bloom_clear(f.get());
      added = 0;
      state.ResumeTiming();
    }
  }
  set_key_counters(state, spec.bytes);
}

void bench_whole(benchmark::State &state, FilterSpec spec, Op op) {
  Filled &f = filled(spec);
  if (report_unavailable(state, f.status, f.error)) return;
  size_t size = 0;
  bloom_serialized_size(f.filter.get(), &size);
  std::vector<char> image(size);
  size_t written = 0;
  bloom_serialize(f.filter.get(), image.data(), image.size(), &written);
  bloom_filter *copy = nullptr;
  if (op == Op::kMerge && report_unavailable(state, bloom_clone(f.filter.get(), &copy), bloom_last_error()))
    return;
  FilterPtr dst(copy);
  for (auto _ : state) {
    bloom_status s = BLOOM_OK;
    if (op == Op::kMerge) {
      s = bloom_merge(dst.get(), f.filter.get());
    } else if (op == Op::kSerialize) {
      s = bloom_serialize(f.filter.get(), image.data(), image.size(), &written);
    } else {
      bloom_filter *g = nullptr;
      s = bloom_deserialize(image.data(), image.size(), &g);
      bloom_destroy(g);
    }
    if (s != BLOOM_OK) {
      const std::string why =
          (s == BLOOM_E_UNSUPPORTED ? "n/a: " : "error: ") + std::string(bloom_last_error());
      state.SkipWithError(why.c_str());
      break;
    }
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * size));
  state.counters["filter_bytes"] = static_cast<double>(size);
}

void bench_op(benchmark::State &state, FilterSpec spec, Op op) {
  switch (op) {
    case Op::kQueryHit:
      return bench_query(state, spec, true, false);
    case Op::kQueryMiss:
      return bench_query(state, spec, false, false);
    case Op::kQueryBatchHit:
      return bench_query(state, spec, true, true);
    case Op::kQueryBatchMiss:
      return bench_query(state, spec, false, true);
    case Op::kAdd:
    case Op::kAddBatch:
    case Op::kTestAndAdd:
      return bench_add(state, spec, op);
    default:
      return bench_whole(state, spec, op);
  }
}

// The floor at this size: one XXH3-64 plus one random line read per key, one
// at a time or in prefetched blocks of 32 (as measure_floor.cpp in seed_table).
// wide = true hashes with XXH3-128 (what the library hashes with, for its two
// 64-bit halves) instead of XXH3-64: the difference is the hash's share of
// any gap between the library and the floor. rmw = true ORs one bit into the
// word instead of reading it: the floor of an add (seed_table's rmw1).
void bench_floor(benchmark::State &state, uint64_t bytes, bool prefetch, bool wide, bool rmw) {
  const uint64_t lines = bytes / 64;
  std::vector<uint64_t> words(bytes / 8);
  for (size_t i = 0; i < words.size(); ++i) words[i] = i;
  const bb::KeyPool pool = bb::KeyPool::random(bb::kPoolKeys, bb::kMissBase, bb::kMissBase, 2);
  auto line = [&](size_t i) {
    const uint64_t h =
        wide ? XXH3_128bits(pool.ptrs[i], pool.lens[i]).low64 : XXH3_64bits(pool.ptrs[i], pool.lens[i]);
    return static_cast<uint64_t>((static_cast<unsigned __int128>(h) * lines) >> 64) * 8;
  };
  size_t start = 0;
  for (auto _ : state) {
    uint64_t acc = 0;
    if (prefetch) {
      for (size_t b = start; b < start + kKeysPerIteration; b += 32) {
        uint64_t idx[32];
        for (size_t i = 0; i < 32; ++i) {
          idx[i] = line(b + i);
          __builtin_prefetch(&words[idx[i]]);
        }
        for (size_t i = 0; i < 32; ++i) {
          if (rmw)
            words[idx[i]] |= uint64_t{1} << (i & 63);
          else
            acc += words[idx[i]];
        }
      }
    } else {
      for (size_t i = start; i < start + kKeysPerIteration; ++i) {
        if (rmw)
          words[line(i)] |= uint64_t{1} << (i & 63);
        else
          acc += words[line(i)];
      }
    }
    if (rmw) benchmark::ClobberMemory();
    benchmark::DoNotOptimize(acc);
    start += kKeysPerIteration;
    if (start + kKeysPerIteration > pool.size()) start = 0;
  }
  set_key_counters(state, bytes);
}

uint64_t parse_bytes(const std::string &s) {
  char *end = nullptr;
  double v = std::strtod(s.c_str(), &end);
  switch (end && *end ? *end : ' ') {
    case 'G':
    case 'g':
      v *= 1 << 30;
      break;
    case 'M':
    case 'm':
      v *= 1 << 20;
      break;
    case 'K':
    case 'k':
      v *= 1 << 10;
      break;
    default:
      break;
  }
  return static_cast<uint64_t>(v);
}

}  // namespace

int main(int argc, char **argv) {
  uint64_t max_bytes = uint64_t{256} << 20;
  if (const char *env = std::getenv("BLOOM_BENCH_MAX_BYTES")) max_bytes = parse_bytes(env);
  // Our own flag, removed before Google Benchmark sees the arguments.
  std::vector<char *> args;
  for (int i = 0; i < argc; ++i) {
    if (std::strncmp(argv[i], "--max_bytes=", 12) == 0)
      max_bytes = parse_bytes(argv[i] + 12);
    else
      args.push_back(argv[i]);
  }
  int nargs = static_cast<int>(args.size());

  const Op ops[] = {Op::kQueryHit, Op::kQueryMiss, Op::kQueryBatchHit, Op::kQueryBatchMiss,
                    Op::kMerge,    Op::kSerialize, Op::kDeserialize,   Op::kAdd,
                    Op::kAddBatch, Op::kTestAndAdd};
  for (uint64_t bytes = 64 << 10; bytes <= max_bytes; bytes *= 4) {
    // Appended, not "/" + to_string(): GCC 12 at -O3 warns (-Wrestrict) on
    // the inlined operator+ (a false positive, GCC bug 105329).
    std::string size = "/";
    size += std::to_string(bytes);
    benchmark::RegisterBenchmark(("floor/single" + size).c_str(), bench_floor, bytes, false, false, false);
    benchmark::RegisterBenchmark(("floor/prefetch32" + size).c_str(), bench_floor, bytes, true, false, false);
    benchmark::RegisterBenchmark(("floor/prefetch32_xxh3_128" + size).c_str(), bench_floor, bytes, true, true,
                                 false);
    benchmark::RegisterBenchmark(("floor/rmw_single" + size).c_str(), bench_floor, bytes, false, false, true);
    benchmark::RegisterBenchmark(("floor/rmw_prefetch32" + size).c_str(), bench_floor, bytes, true, false,
                                 true);
    for (int kind = BLOOM_KIND_CLASSIC; kind <= BLOOM_KIND_SCALABLE; ++kind) {
      for (int hash = BLOOM_HASH_XXH3; hash <= BLOOM_HASH_FNV1A; ++hash) {
        for (Op op : ops) {
          const std::string name =
              std::string(op_name(op)) + "/" + bloom_kind_name(kind) + "/" + bloom_hash_name(hash) + size;
          benchmark::RegisterBenchmark(name.c_str(), bench_op, FilterSpec{kind, hash, bytes}, op);
        }
      }
    }
  }
  benchmark::Initialize(&nargs, args.data());
  if (benchmark::ReportUnrecognizedArguments(nargs, args.data())) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
