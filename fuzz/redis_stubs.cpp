// SPDX-License-Identifier: Apache-2.0
// redis_stubs.cpp -- the Redis module's allocator functions
// (redis/server_allocator.hpp) outside Redis, for the fuzz target that runs
// the module's restore and save code: plain malloc, and no library
// allocations counted (the library keeps its default allocator here).
#include <cstdlib>

#include "server_allocator.hpp"

namespace bloom_redis {

void *server_alloc(size_t bytes) noexcept { return std::malloc(bytes != 0 ? bytes : 1); }
void server_free(void *p) noexcept { std::free(p); }
size_t block_size(const void *) { return 0; }
int64_t library_bytes_net() { return 0; }

}  // namespace bloom_redis
