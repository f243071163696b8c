// SPDX-License-Identifier: Apache-2.0
#include "server_allocator.hpp"

#include <bloom/bloom.h>

#include <atomic>

namespace bloom_redis {

namespace {

thread_local int64_t t_library_net = 0;
thread_local RedisModuleCtx *t_limit_ctx = nullptr;
thread_local bool t_refused = false;
thread_local uint64_t t_refusals = 0;

// Whether `bytes` more would take the server past maxmemory under the
// noeviction policy, measured as Redis measures it before a deny-oom
// command (used_memory minus what it does not count for eviction). Asked
// only when the library allocates (creating a filter, growing a stage),
// never per key, so the INFO lookup costs nothing on the add path.
bool would_exceed_maxmemory(RedisModuleCtx *ctx, size_t bytes) {
  const int flags = RedisModule_GetContextFlags(ctx);
  if ((flags & (REDISMODULE_CTX_FLAGS_REPLICATED | REDISMODULE_CTX_FLAGS_LOADING)) != 0) return false;
  if ((flags & REDISMODULE_CTX_FLAGS_MAXMEMORY) == 0 || (flags & REDISMODULE_CTX_FLAGS_EVICT) != 0)
    return false;
  RedisModuleServerInfoData *info = RedisModule_GetServerInfo(ctx, "memory");
  if (info == nullptr) return false;
  int e1 = 0, e2 = 0, e3 = 0;
  const unsigned long long used = RedisModule_ServerInfoGetFieldUnsigned(info, "used_memory", &e1);
  const unsigned long long max = RedisModule_ServerInfoGetFieldUnsigned(info, "maxmemory", &e2);
  const unsigned long long not_counted =
      RedisModule_ServerInfoGetFieldUnsigned(info, "mem_not_counted_for_evict", &e3);
  RedisModule_FreeServerInfo(ctx, info);
  if (e1 != REDISMODULE_OK || e2 != REDISMODULE_OK || max == 0) return false;
  const unsigned long long counted = used - (e3 == REDISMODULE_OK && not_counted < used ? not_counted : 0);
  return counted + bytes > max;
}

// The library's hook. alignment <= 64 (bloom.h); the block is size +
// alignment bytes so an aligned start always fits, and the byte before the
// start says how far back the block begins (1..64).
void *hook_alloc(void *, size_t size, size_t alignment) {
  if (size > SIZE_MAX - alignment || alignment > 255) return nullptr;
  if (t_limit_ctx != nullptr && would_exceed_maxmemory(t_limit_ctx, size + alignment)) {
    t_refused = true;
    ++t_refusals;
    return nullptr;
  }
  auto *block = static_cast<unsigned char *>(server_alloc(size + alignment));
  if (block == nullptr) return nullptr;
  const auto addr = reinterpret_cast<uintptr_t>(block);
  const size_t shift = alignment - addr % alignment;  // 1..alignment
  unsigned char *p = block + shift;
  p[-1] = static_cast<unsigned char>(shift - 1);
  t_library_net += static_cast<int64_t>(block_size(block));
  return p;
}

void hook_free(void *, void *ptr, size_t, size_t) {
  auto *p = static_cast<unsigned char *>(ptr);
  unsigned char *block = p - (size_t{p[-1]} + 1);
  t_library_net -= static_cast<int64_t>(block_size(block));
  server_free(block);
}

}  // namespace

bool install_server_allocator() {
  bloom_allocator a{};
  a.struct_size = sizeof a;
  a.alloc = hook_alloc;
  a.free = hook_free;
  return bloom_set_allocator(&a) == BLOOM_OK;
}

size_t block_size(const void *p) { return p == nullptr ? 0 : RedisModule_MallocSize(const_cast<void *>(p)); }

int64_t library_bytes_net() { return t_library_net; }

void *server_alloc(size_t bytes) noexcept {
  return RedisModule_TryAlloc != nullptr ? RedisModule_TryAlloc(bytes) : RedisModule_Alloc(bytes);
}

void server_free(void *p) noexcept {
  if (p != nullptr) RedisModule_Free(p);
}

MemoryLimitScope::MemoryLimitScope(RedisModuleCtx *ctx) : active_(ctx != nullptr), outer_(t_limit_ctx) {
  if (!active_) return;
  if (outer_ == nullptr) t_refused = false;  // a new command begins
  t_limit_ctx = ctx;
}

MemoryLimitScope::~MemoryLimitScope() {
  if (active_) t_limit_ctx = outer_;
}

bool refused_by_maxmemory() { return t_refused; }

uint64_t maxmemory_refusals() { return t_refusals; }

}  // namespace bloom_redis
