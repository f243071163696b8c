// SPDX-License-Identifier: Apache-2.0
// parallel_adder.hpp -- `bloom build --threads N`: the reading thread cuts
// keys into chunks and N worker threads hash them into filters of the
// target's shape, merged into the target at the end. Merge is a bitwise OR
// (a saturating add for counting filters) and keys_added a sum, so the file
// is byte for byte the one a single thread writes.
//
// Two ways to share the work, both merged into the target once:
//  - kPerThread: worker 0 adds to the target, the others to clones of the
//    empty target (N filters in memory).
//  - kShared: one extra filter with BLOOM_FLAG_CONCURRENT that every worker
//    adds to with atomic ORs (2 filters whatever N).
// docs/PERFORMANCE.md has the measurements that chose the default.
#pragma once

#include <bloom/bloom.h>

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace bloom_cli {

// The CPUs this process may run on (sched_getaffinity), at least 1.
unsigned available_cpus();

class ParallelAdder {
 public:
  enum class Strategy { kPerThread, kShared };

  // target: an empty filter, untouched by the caller until finish() returns.
  // Throws CliError when the workers' filters cannot be made.
  ParallelAdder(bloom_filter *target, const bloom_options &options, unsigned threads, Strategy strategy);
  ~ParallelAdder();
  ParallelAdder(const ParallelAdder &) = delete;
  ParallelAdder &operator=(const ParallelAdder &) = delete;

  // Copies the key into the current chunk; hands the chunk to the workers
  // when full (waits while 4 chunks per thread are queued).
  void add(std::string_view key);
  // Hands over the last chunk, waits for the workers and merges their
  // filters into the target. Throws CliError on a library error.
  void finish();
  uint64_t added() const { return added_; }

 private:
  struct Chunk {
    std::string arena;
    std::vector<size_t> ends;  // key i is arena[ends[i-1], ends[i])
  };
  static constexpr size_t kChunkKeys = 8192;

  void push(std::unique_ptr<Chunk> chunk);
  void work(bloom_filter *into);
  void stop_workers();

  bloom_filter *target_;
  std::vector<bloom_filter *> filters_;  // the workers' filters but the target (owned)
  std::vector<std::thread> workers_;
  std::unique_ptr<Chunk> current_;
  uint64_t added_ = 0;

  std::mutex mutex_;
  std::condition_variable ready_;  // a chunk is queued, or closing
  std::condition_variable room_;   // the queue has room again
  std::deque<std::unique_ptr<Chunk>> queue_;
  std::vector<std::unique_ptr<Chunk>> spare_;  // emptied chunks, reused
  size_t backlog_;
  bool closing_ = false;
  int error_ = BLOOM_OK;
  std::string error_message_;
};

}  // namespace bloom_cli
