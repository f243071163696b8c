// SPDX-License-Identifier: Apache-2.0
// server_allocator.hpp -- every byte a filter holds comes from Redis's
// allocator, so used_memory, maxmemory and eviction count it.
//
// The library's arrays and objects come through bloom_set_allocator (arrays
// 64-byte aligned: a block of size + 64 bytes from RedisModule_TryAlloc,
// the aligned start's distance to the block kept in the byte before it);
// the module's own values and buffers (FilterValue, the BF.SCANDUMP image,
// a BF.LOADCHUNK restore's bytes, RDB/AOF images) use RedisAllocator.
// Before this, 1 M items at 1 % raised used_memory by 7,272 bytes for a
// 1.2 MB filter (issue 28).
#pragma once

#include <cstddef>
#include <cstdint>
#include <new>
#include <vector>

#include "redis_module_api.h"

namespace bloom_redis {

// Installs the library hook. Called once, from RedisModule_OnLoad, before
// any filter exists. Returns false if the library refused it.
bool install_server_allocator();

// Bytes from Redis's allocator (RedisModule_MallocSize of each block, what
// used_memory counts): memory(p) for one block of ours, NULL gives 0.
size_t block_size(const void *p);

// Net bytes the library has taken through the hook on this thread: a
// command measures a filter's allocation as the difference across the
// calls that build or grow it (commands run on the main thread; a lazy
// free on Redis's background thread changes only that thread's count).
int64_t library_bytes_net();

// Plain blocks from Redis's allocator (TryAlloc: NULL on failure, where
// RedisModule_Alloc would abort the server).
void *server_alloc(size_t bytes) noexcept;
void server_free(void *p) noexcept;

template <typename T>
struct RedisAllocator {
  using value_type = T;
  RedisAllocator() = default;
  template <typename U>
  RedisAllocator(const RedisAllocator<U> &) noexcept {}
  T *allocate(size_t n) {
    void *p = n <= SIZE_MAX / sizeof(T) ? server_alloc(n * sizeof(T)) : nullptr;
    if (p == nullptr) throw std::bad_alloc();
    return static_cast<T *>(p);
  }
  void deallocate(T *p, size_t) noexcept { server_free(p); }
  template <typename U>
  bool operator==(const RedisAllocator<U> &) const noexcept {
    return true;
  }
};
using ServerBytes = std::vector<unsigned char, RedisAllocator<unsigned char>>;

// While a write command runs (FilterKey opened for writing), allocations
// through the hook that would take used_memory past maxmemory are refused
// when the policy is noeviction, as Redis refuses a deny-oom command once
// it is past the limit: a BF.RESERVE (or the BF.ADD that grows a scalable
// filter by a stage) that would cross it fails before it allocates.
// Commands from the master or the AOF are never refused (a replica must
// follow). Nested scopes restore the outer one; a NULL ctx (a key opened
// for reading) does nothing.
class MemoryLimitScope {
 public:
  explicit MemoryLimitScope(RedisModuleCtx *ctx);
  ~MemoryLimitScope();
  MemoryLimitScope(const MemoryLimitScope &) = delete;
  MemoryLimitScope &operator=(const MemoryLimitScope &) = delete;

 private:
  bool active_;
  RedisModuleCtx *outer_;
};

// Whether an allocation was refused by the limit since the current write
// command began: its error reply is then Redis's own OOM error.
bool refused_by_maxmemory();
// Refusals so far (commands run on the main thread): a change across one
// call says that call was refused.
uint64_t maxmemory_refusals();
inline constexpr const char *kOomError = "OOM command not allowed when used memory > 'maxmemory'.";

}  // namespace bloom_redis
