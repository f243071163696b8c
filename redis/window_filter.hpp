// SPDX-License-Identifier: Apache-2.0
// window_filter.hpp -- sliding-window filters in Redis (bloom's window kind,
// docs/kinds-window.md): BF.RESERVE key error_rate capacity WINDOW <w>.
//
// A count window (WINDOW 10000000) remembers the last W insertions; it is
// driven by the adds alone, so the commands replicate as they are and a
// replica, an AOF reload or a restart repeats them exactly.
//
// A time window (WINDOW 1h) remembers the last T milliseconds of the
// primary's clock. A clock read on a replica or during an AOF reload would
// differ, so the time is replicated: each write on a time window advances
// its clock to the primary's time (never below the clock it already has) and
// is propagated as BF.ADDAT key <time_ms> item... with that time, which
// replicas and the AOF apply exactly. Reads never move the clock: BF.EXISTS
// answers as of the last write, on the primary and on every replica alike
// (a quiet filter keeps answering "maybe" for keys a little past their window
// until the next write; never a false "no").
//
// A stop: the saved filter keeps its clock. After a restart, reads answer
// as before the stop; the first write moves the clock to the primary's time
// then, retiring every generation whose time passed while the server was
// down (all of them after a stop longer than the window plus k
// generations). A primary clock that went back counts as no time passing.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "filter_value.hpp"
#include "redis_module_api.h"

namespace bloom_redis {

struct WindowSpec {
  uint64_t count = 0;  // a count window: insertions remembered
  uint64_t ms = 0;     // a time window (count is then 0)
};

// WINDOW's value: a whole number of insertions ("10000000"), or a whole
// number and a unit, ms, s, min, h or d ("90s", "1h"). Returns false with
// *error set to the reply.
bool parse_window(const RedisModuleString *arg, WindowSpec *out, std::string *error);

// A window filter for BF.RESERVE: a count window holds w.count insertions
// (capacity is not used: the window is its capacity), a time window at
// most capacity insertions per w.ms. Checked against max_bytes
// (bf-max-filter-bytes; 0: no limit). Returns NULL with *error set to the
// reply.
bloom_filter *create_window_filter(double error_rate, uint64_t capacity, const WindowSpec &w,
                                   uint64_t max_bytes, std::string *error);

// A filter that forgets (the window kind), and one with a clock.
inline bool forgets(const FilterValue &v) { return v.forgets_keys; }
inline bool timed(const FilterValue &v) { return v.forgets_keys && v.shape.window_ms != 0; }

// Before a write on a time window: the time for it (the primary's clock,
// never below the filter's), and the filter advanced to it. False with
// *error set when the library refused.
bool advance_for_write(FilterValue *v, uint64_t *now_ms, std::string *error);

// Replicates a write on a time window as BF.ADDAT key now_ms items (the
// items argv[first..argc) not marked in skipped, as replicate_adds does).
void replicate_timed_adds(RedisModuleCtx *ctx, RedisModuleString *key, uint64_t now_ms,
                          RedisModuleString **argv, int first, int argc, const std::vector<char> &skipped);

// BF.ADDAT key time_ms [item ...] (cmd_addat, declared in commands.hpp):
// adds to an existing time window with its clock advanced to time_ms
// first; the replies of BF.MADD. The form time windows replicate in; a
// client may use it for its own times (a log replayed with its events').

// A write on any filter: for a time window, the clock advanced first (false
// with the error replied) and the adds replicated as BF.ADDAT with that
// time; for any other filter, replicate_adds(command, ...).
class WindowWrite {
 public:
  // Inline: every add asks, and only a time window has anything to do.
  bool begin(RedisModuleCtx *ctx, FilterValue *v) {
    timed_ = timed(*v);
    return !timed_ || begin_timed(ctx, v);
  }
  void replicate(RedisModuleCtx *ctx, const char *command, RedisModuleString **argv, int first, int argc,
                 const std::vector<char> &skipped) const;
  // BF.ADD's one item, argv[2] (skipped: maxmemory refused it): verbatim
  // unless either calls for the general form, with no allocation.
  void replicate_add(RedisModuleCtx *ctx, RedisModuleString **argv, bool skipped) const {
    if (!timed_ && !skipped)
      RedisModule_ReplicateVerbatim(ctx);
    else
      replicate(ctx, "BF.MADD", argv, 2, 3, std::vector<char>{skipped});
  }

 private:
  bool begin_timed(RedisModuleCtx *ctx, FilterValue *v);
  bool timed_ = false;
  uint64_t now_ms_ = 0;
};

// BF.INFO's window fields: "50000" or "3600000ms" (BF.RESERVE's WINDOW
// form), and the clock in ms (0 for a count window).
std::string window_text(const bloom_info &i);

}  // namespace bloom_redis
