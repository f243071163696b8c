// SPDX-License-Identifier: Apache-2.0
#include "window_filter.hpp"

#include <algorithm>
#include <string>

#include "add_items.hpp"
#include "filter_key.hpp"
#include "filter_params.hpp"

namespace bloom_redis {

namespace {

struct Unit {
  const char *suffix;
  uint64_t ms;
};
// Longest first, so "ms" is not read as "s" and "min" not as a count.
constexpr Unit kUnits[] = {{"min", 60000}, {"ms", 1}, {"s", 1000}, {"h", 3600000}, {"d", 86400000}};

const char kWindowUsage[] =
    "ERR WINDOW takes a count of insertions (10000000) or a duration (90s, 30min, 1h, 1d)";

bool all_digits(const char *s, size_t n) {
  if (n == 0 || n > 18) return false;  // 18 digits: no overflow before the unit
  for (size_t i = 0; i < n; ++i)
    if (s[i] < '0' || s[i] > '9') return false;
  return true;
}

uint64_t digits_value(const char *s, size_t n) {
  uint64_t v = 0;
  for (size_t i = 0; i < n; ++i) v = v * 10 + static_cast<uint64_t>(s[i] - '0');
  return v;
}

}  // namespace

bool parse_window(const RedisModuleString *arg, WindowSpec *out, std::string *error) {
  size_t len = 0;
  const char *s = RedisModule_StringPtrLen(arg, &len);
  *out = WindowSpec{};
  if (len > 0 && (s[len - 1] == 'm' || s[len - 1] == 'M') && !(len > 1 && (s[len - 2] | 0x20) == 'm')) {
    // "10m": minutes or millions? "min" and "ms" are the units.
    *error = "ERR WINDOW '" + std::string(s, len) + "' is ambiguous: write min for minutes";
    return false;
  }
  uint64_t value = 0, factor = 0;
  for (const Unit &u : kUnits) {
    const size_t n = std::char_traits<char>::length(u.suffix);
    if (len <= n) continue;
    bool match = true;
    for (size_t i = 0; i < n; ++i) match = match && (s[len - n + i] | 0x20) == u.suffix[i];
    if (!match) continue;
    if (!all_digits(s, len - n)) break;
    value = digits_value(s, len - n);
    factor = u.ms;
    break;
  }
  if (factor == 0 && all_digits(s, len)) value = digits_value(s, len);
  if (value == 0) {
    *error = kWindowUsage;
    return false;
  }
  if (factor == 0) {
    if (value > static_cast<uint64_t>(kMaxCapacity)) {
      *error = "ERR WINDOW count must be in the range [1, 1073741824]";
      return false;
    }
    out->count = value;
    return true;
  }
  if (value > UINT64_MAX / factor / 2) {
    *error = "ERR WINDOW duration is too long";
    return false;
  }
  out->ms = value * factor;
  return true;
}

bloom_filter *create_window_filter(double error_rate, uint64_t capacity, const WindowSpec &w,
                                   uint64_t max_bytes, std::string *error) {
  const uint64_t n = w.count != 0 ? w.count : capacity;
  // max_bytes 0: no byte limit (bf-max-filter-bytes is off by default;
  // maxmemory decides), so only the library's own limits refuse.
  const uint64_t limit = max_bytes != 0 ? max_bytes : UINT64_MAX;
  // A window needs more memory than a classic filter of its keys, so the
  // classic size refuses a clearly oversized request before any work.
  uint64_t bits = 0;
  uint32_t hashes = 0;
  bloom_status st = bloom_optimal_params(n, error_rate, &bits, &hashes);
  const std::string too_large =
      "ERR filter too large: a window of " + std::to_string(n) + " keys needs more than " +
      (max_bytes != 0 ? "the " + std::to_string(max_bytes) +
                            "-byte limit (config bf-max-filter-bytes, module argument "
                            "MAX_FILTER_BYTES)"
                      : std::string("the largest filter the library makes"));
  if (st == BLOOM_E_OVERFLOW || (st == BLOOM_OK && bits / 8 > limit)) {
    *error = too_large;
    return nullptr;
  }
  bloom_options o;
  bloom_options_init(&o);
  o.kind = BLOOM_KIND_WINDOW;
  o.capacity = n;
  o.fp_rate = error_rate;
  o.window_ms = w.ms;
  bloom_filter *f = nullptr;
  st = bloom_create(&o, &f);
  if (st != BLOOM_OK) {
    *error = st == BLOOM_E_OVERFLOW ? too_large : "ERR " + bloom_error("cannot create the window", st);
    return nullptr;
  }
  size_t size = 0;
  if (bloom_serialized_size(f, &size) != BLOOM_OK || size > limit) {
    bloom_destroy(f);
    *error = too_large;
    return nullptr;
  }
  return f;
}

namespace {
// Advances the clock to now_ms. Every advance goes through here, and after
// bloom_advance(t) the filter's clock reads t, so the cached shape's clock
// stays exact without a bloom_get_info (which counts every bit).
bool advance_to(FilterValue *v, uint64_t now_ms, std::string *error) {
  const bloom_status st = bloom_advance(v->filter, now_ms);
  if (st != BLOOM_OK) {
    *error = "ERR " + bloom_error("cannot advance the window's clock", st);
    return false;
  }
  v->shape.clock_ms = now_ms;
  v->touch();
  return true;
}
}  // namespace

bool advance_for_write(FilterValue *v, uint64_t *now_ms, std::string *error) {
  const long long server = RedisModule_Milliseconds();
  const uint64_t now = server > 0 ? static_cast<uint64_t>(server) : 0;
  // Never below the filter's clock: every time replicated moves forward,
  // so a replica applying the same times retires the same generations.
  *now_ms = std::max(now, v->shape.clock_ms);
  return advance_to(v, *now_ms, error);
}

void replicate_timed_adds(RedisModuleCtx *ctx, RedisModuleString *key, uint64_t now_ms,
                          RedisModuleString **argv, int first, int argc, const std::vector<char> &skipped) {
  std::vector<RedisModuleString *> items;
  for (int i = first; i < argc; ++i)
    if (!skipped[static_cast<size_t>(i - first)]) items.push_back(argv[i]);
  // Sent even with no items: the clock moved here, and must there too.
  RedisModule_Replicate(ctx, "BF.ADDAT", "slv", key, static_cast<long long>(now_ms), items.data(),
                        items.size());
}

bool WindowWrite::begin_timed(RedisModuleCtx *ctx, FilterValue *v) {
  std::string error;
  if (advance_for_write(v, &now_ms_, &error)) return true;
  reply_error(ctx, error);
  return false;
}

void WindowWrite::replicate(RedisModuleCtx *ctx, const char *command, RedisModuleString **argv, int first,
                            int argc, const std::vector<char> &skipped) const {
  if (timed_)
    replicate_timed_adds(ctx, argv[1], now_ms_, argv, first, argc, skipped);
  else
    replicate_adds(ctx, command, argv, first, argc, skipped);
}

int cmd_addat(RedisModuleCtx *ctx, RedisModuleString **argv, int argc) {
  if (argc < 3) return RedisModule_WrongArity(ctx);
  long long t = 0;
  if (RedisModule_StringToLongLong(argv[2], &t) != REDISMODULE_OK || t < 0)
    return RedisModule_ReplyWithError(ctx, "ERR bad time: a whole number of milliseconds, 0 or more");
  FilterKey key(ctx, argv[1], REDISMODULE_READ | REDISMODULE_WRITE);
  if (reject_unusable(ctx, key)) return REDISMODULE_OK;
  if (key.empty()) return RedisModule_ReplyWithError(ctx, kNotFound);
  // A compact form is never a window: no need to expand it to say so.
  FilterValue *v = key.compact() != nullptr ? nullptr : key.value();
  if (v == nullptr || !timed(*v))
    return RedisModule_ReplyWithError(ctx, "ERR BF.ADDAT applies to time windows (BF.RESERVE ... WINDOW 1h)");
  std::string error;
  if (!advance_to(v, static_cast<uint64_t>(t), &error)) return reply_error(ctx, error);
  std::vector<char> skipped;
  // The keyspace event of BF.ADD and BF.MADD (commands_add.cpp).
  if (add_items_reply(ctx, key, argv, 3, argc, &skipped) > 0)
    RedisModule_NotifyKeyspaceEvent(ctx, REDISMODULE_NOTIFY_GENERIC, "bloom.add", argv[1]);
  if (std::find(skipped.begin(), skipped.end(), 1) == skipped.end())
    RedisModule_ReplicateVerbatim(ctx);
  else
    replicate_timed_adds(ctx, argv[1], static_cast<uint64_t>(t), argv, 3, argc, skipped);
  return REDISMODULE_OK;
}

std::string window_text(const bloom_info &i) {
  return i.window_ms != 0 ? std::to_string(i.window_ms) + "ms" : std::to_string(i.capacity);
}

}  // namespace bloom_redis
