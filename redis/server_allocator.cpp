// SPDX-License-Identifier: Apache-2.0
#include "server_allocator.hpp"

#include <bloom/bloom.h>

#include <atomic>

namespace bloom_redis {

namespace {

// Per thread: Redis's lazy-free thread frees filters too (hook_free), so
// the main thread's count must not see its frees. In a shared object a
// thread_local is reached through a __tls_get_addr call.
thread_local int64_t t_library_net = 0;

// The maxmemory limit's state is the main thread's alone: only commands
// (and loading, which never sets a limit) allocate filters, and Redis runs
// them on its main thread; the lazy-free thread only frees. Plain globals,
// so the scope that every write command opens costs no __tls_get_addr.
struct LimitState {
  RedisModuleCtx *ctx = nullptr;
  bool refused = false;
  uint64_t refusals = 0;
};
LimitState g_limit;

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

// jemalloc (Redis's and Valkey's allocator) places a block at a multiple
// of its size class's largest power-of-two divisor: every block is
// 16-aligned, and every class from 256 bytes up is a multiple of 64. So a
// request of 16 alignment needs nothing added, and one of 64 rounded up to
// a multiple of 64 (at least 256) comes aligned as it is. The general way
// (below) adds `alignment` bytes to every block, and at the edge of a size
// class takes the next one: a small filter's 1,024-byte array took a
// 1,280-byte block. install_server_allocator probes the server's allocator
// for this; the library itself hands back (as NOMEM) any block that comes
// less aligned than asked, so a wrong guess can fail an allocation but
// never misplace one.
bool g_direct_alignment = false;

// The size to ask for directly, or 0 when the block must be over-allocated.
size_t direct_request(size_t size, size_t alignment) {
  if (!g_direct_alignment) return 0;
  if (alignment <= 16) return size < 16 ? 16 : size;
  if (alignment > 64 || size > SIZE_MAX - 63) return 0;
  const size_t rounded = (size + 63) / 64 * 64;
  return rounded >= 256 ? rounded : 0;
}

// The library's hook. alignment <= 64 (bloom.h). Either a direct block
// (above), or a block of size + alignment bytes so an aligned start always
// fits, the byte before the start saying how far back the block begins
// (1..64). hook_free gets the same size and alignment, so it tells which.
void *hook_alloc(void *, size_t size, size_t alignment) {
  if (size > SIZE_MAX - alignment || alignment > 255) return nullptr;
  const size_t direct = direct_request(size, alignment);
  if (g_limit.ctx != nullptr &&
      would_exceed_maxmemory(g_limit.ctx, direct != 0 ? direct : size + alignment)) {
    g_limit.refused = true;
    ++g_limit.refusals;
    return nullptr;
  }
  if (direct != 0) {
    void *p = server_alloc(direct);
    if (p != nullptr) t_library_net += static_cast<int64_t>(block_size(p));
    return p;
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

void hook_free(void *, void *ptr, size_t size, size_t alignment) {
  auto *p = static_cast<unsigned char *>(ptr);
  unsigned char *block = direct_request(size, alignment) != 0 ? p : p - (size_t{p[-1]} + 1);
  t_library_net -= static_cast<int64_t>(block_size(block));
  server_free(block);
}

// Whether the server's allocator aligns blocks as direct_request assumes,
// tried on sizes around the classes small filters use and a large one.
bool allocator_aligns_directly() {
  const size_t sizes[] = {16, 24, 40, 264, 280, 256, 320, 960, 1024, 1088, 4096, 65536, size_t{1} << 20};
  for (size_t size : sizes) {
    const size_t align = size >= 256 ? 64 : 16;
    void *p = server_alloc(size);
    if (p == nullptr) return false;
    const bool aligned = reinterpret_cast<uintptr_t>(p) % align == 0;
    server_free(p);
    if (!aligned) return false;
  }
  return true;
}

}  // namespace

bool install_server_allocator() {
  g_direct_alignment = allocator_aligns_directly();
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

MemoryLimitScope::MemoryLimitScope(RedisModuleCtx *ctx) : active_(ctx != nullptr), outer_(nullptr) {
  if (!active_) return;
  outer_ = g_limit.ctx;
  if (outer_ == nullptr) g_limit.refused = false;  // a new command begins
  g_limit.ctx = ctx;
}

MemoryLimitScope::~MemoryLimitScope() {
  if (active_) g_limit.ctx = outer_;
}

bool refused_by_maxmemory() { return g_limit.refused; }

uint64_t maxmemory_refusals() { return g_limit.refusals; }

}  // namespace bloom_redis
