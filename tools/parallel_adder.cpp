// SPDX-License-Identifier: Apache-2.0
#include "parallel_adder.hpp"

#include <sched.h>

#include "cli_error.hpp"

namespace bloom_cli {

unsigned available_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0) {
    const int n = CPU_COUNT(&set);
    if (n > 0) return static_cast<unsigned>(n);
  }
  const unsigned hw = std::thread::hardware_concurrency();
  return hw > 0 ? hw : 1;
}

ParallelAdder::ParallelAdder(bloom_filter *target, const bloom_options &options, unsigned threads,
                             Strategy strategy)
    : target_(target), current_(std::make_unique<Chunk>()), backlog_(4 * static_cast<size_t>(threads)) {
  // The workers' filters: the target itself and clones of it (N filters in
  // all), or one concurrent filter made from the same options (the flag is
  // the only difference; the final merge into the target leaves it behind).
  const size_t extra = strategy == Strategy::kShared ? 1 : threads - 1;
  for (size_t i = 0; i < extra; ++i) {
    bloom_filter *f = nullptr;
    bloom_status s;
    if (strategy == Strategy::kShared) {
      bloom_options o = options;
      o.flags |= BLOOM_FLAG_CONCURRENT;
      s = bloom_create(&o, &f);
    } else {
      s = bloom_clone(target, &f);
    }
    if (s != BLOOM_OK) {
      for (bloom_filter *g : filters_) bloom_destroy(g);
      fail_library("cannot make the filters of " + std::to_string(threads) + " threads", s);
    }
    filters_.push_back(f);
  }
  for (unsigned i = 0; i < threads; ++i) {
    bloom_filter *into = strategy == Strategy::kShared ? filters_[0] : i == 0 ? target : filters_[i - 1];
    workers_.emplace_back(&ParallelAdder::work, this, into);
  }
}

ParallelAdder::~ParallelAdder() {
  stop_workers();
  for (bloom_filter *f : filters_) bloom_destroy(f);
}

void ParallelAdder::stop_workers() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    closing_ = true;
  }
  ready_.notify_all();
  for (auto &t : workers_)
    if (t.joinable()) t.join();
}

void ParallelAdder::add(std::string_view key) {
  current_->arena.append(key);
  current_->ends.push_back(current_->arena.size());
  ++added_;
  if (current_->ends.size() >= kChunkKeys) {
    push(std::move(current_));
    std::lock_guard<std::mutex> lock(mutex_);
    if (!spare_.empty()) {
      current_ = std::move(spare_.back());
      spare_.pop_back();
    }
  }
  if (!current_) current_ = std::make_unique<Chunk>();
}

void ParallelAdder::push(std::unique_ptr<Chunk> chunk) {
  std::unique_lock<std::mutex> lock(mutex_);
  room_.wait(lock, [this] { return queue_.size() < backlog_ || error_ != BLOOM_OK; });
  if (error_ != BLOOM_OK) {
    // The library's message is thread-local: the worker kept a copy.
    const std::string message = error_message_;
    lock.unlock();
    stop_workers();
    throw CliError(message);
  }
  queue_.push_back(std::move(chunk));
  lock.unlock();
  ready_.notify_one();
}

void ParallelAdder::work(bloom_filter *into) {
  std::vector<const void *> keys;
  std::vector<size_t> lens;
  for (;;) {
    std::unique_ptr<Chunk> chunk;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      ready_.wait(lock, [this] { return !queue_.empty() || closing_; });
      if (queue_.empty()) return;  // closing, and nothing left
      chunk = std::move(queue_.front());
      queue_.pop_front();
    }
    room_.notify_one();
    const size_t n = chunk->ends.size();
    keys.resize(n);
    lens.resize(n);
    size_t begin = 0;
    for (size_t i = 0; i < n; ++i) {
      keys[i] = chunk->arena.data() + begin;
      lens[i] = chunk->ends[i] - begin;
      begin = chunk->ends[i];
    }
    const bloom_status s = bloom_add_batch(into, keys.data(), lens.data(), n);
    chunk->arena.clear();
    chunk->ends.clear();
    std::lock_guard<std::mutex> lock(mutex_);
    if (s != BLOOM_OK && error_ == BLOOM_OK) {
      error_ = s;
      error_message_ = std::string("cannot add keys: ") + bloom_last_error();
      room_.notify_all();
    }
    spare_.push_back(std::move(chunk));
  }
}

void ParallelAdder::finish() {
  if (!current_->ends.empty()) push(std::move(current_));
  current_ = std::make_unique<Chunk>();
  stop_workers();
  if (error_ != BLOOM_OK) throw CliError(error_message_);
  for (bloom_filter *f : filters_) {
    const bloom_status s = bloom_merge(target_, f);
    if (s != BLOOM_OK) fail_library("cannot merge the threads' filters", s);
  }
}

}  // namespace bloom_cli
