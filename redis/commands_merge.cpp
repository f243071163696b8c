// SPDX-License-Identifier: Apache-2.0
// BF.MERGE dst src [src ...]: bloom's own command, dst := dst OR src... .
//
// All sources must exist and have dst's parameters (kind, hasher, seed, m,
// k, ...): bloom_merge refuses others with a message naming the first that
// differs. A missing dst becomes a copy of the first source. The union is
// built in a copy and swapped in only when every source merged, so a failed
// BF.MERGE leaves dst unchanged. In a cluster all keys must hash to one slot
// (share a {hash tag}); Redis answers CROSSSLOT otherwise.
//
// BF.CARD of the union is the sum of its inputs' counts (bloom_merge's
// keys_added): keys in both are counted twice, as no count of distinct keys
// survives in the bits. An upper bound, so the capacity checks it feeds err
// on the side of the promised error rate. A source named twice, or naming
// dst itself, is merged once: OR-ing a filter into itself adds nothing.
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "commands.hpp"
#include "filter_key.hpp"

namespace bloom_redis {

namespace {
struct FilterDeleter {
  void operator()(bloom_filter *f) const { bloom_destroy(f); }
};
using FilterPtr = std::unique_ptr<bloom_filter, FilterDeleter>;

std::string key_name(const RedisModuleString *s) {
  size_t len = 0;
  const char *p = RedisModule_StringPtrLen(s, &len);
  return std::string(p, len);
}
// A window forgets on its own schedule: a union of two windows would
// remember keys neither still holds, and a copy (a missing dst) would be a
// second window with the first one's clock. Refused by capability.
constexpr const char *kNoMerge = "window filters (and other kinds that forget) do not merge";
bool mergeable(const FilterValue &v) { return (bloom_kind_caps(v.shape.kind) & BLOOM_CAP_MERGE) != 0; }

}  // namespace

int cmd_merge(RedisModuleCtx *ctx, RedisModuleString **argv, int argc) {
  if (argc < 3) return RedisModule_WrongArity(ctx);
  try {
    std::vector<std::unique_ptr<FilterKey>> sources;
    std::vector<const bloom_filter *> filters;
    std::vector<std::string> names;  // of filters[i]; dst's name first
    names.push_back(key_name(argv[1]));
    for (int i = 2; i < argc; ++i) {
      const std::string name = key_name(argv[i]);
      sources.push_back(std::make_unique<FilterKey>(ctx, argv[i], REDISMODULE_READ));
      if (reject_unusable(ctx, *sources.back())) return REDISMODULE_OK;
      if (sources.back()->empty()) return reply_error(ctx, "ERR not found: source key '" + name + "'");
      std::string error;
      const FilterValue *v = sources.back()->snapshot(&error);
      if (v == nullptr) return reply_error(ctx, error);
      if (!mergeable(*v)) return reply_error(ctx, "ERR cannot merge '" + name + "': " + kNoMerge);
      if (std::find(names.begin(), names.end(), name) != names.end()) continue;  // dst, or named before
      filters.push_back(v->filter);
      names.push_back(name);
    }

    FilterKey dst(ctx, argv[1], REDISMODULE_READ | REDISMODULE_WRITE);
    if (reject_unusable(ctx, dst)) return REDISMODULE_OK;
    std::string error;
    // Only read: the merge stores a new value.
    FilterValue *target = dst.snapshot(&error);
    if (target == nullptr && !dst.empty()) return reply_error(ctx, error);
    if (target != nullptr && !mergeable(*target))
      return reply_error(ctx, "ERR cannot merge into '" + names[0] + "': " + kNoMerge);

    // A missing dst cannot be a source (sources exist), so filters[0] is then
    // the first source; an existing dst named as every source leaves none.
    bloom_filter *copy = nullptr;
    const int64_t since = library_bytes_net();
    bloom_status st = bloom_clone(target != nullptr ? target->filter : filters[0], &copy);
    if (st != BLOOM_OK) return reply_error(ctx, "ERR " + bloom_error("merge", st));
    FilterPtr merged(copy);
    for (size_t i = target != nullptr ? 0 : 1; i < filters.size(); ++i) {
      st = bloom_merge(merged.get(), filters[i]);
      if (st != BLOOM_OK)
        return reply_error(ctx, "ERR " + bloom_error(("cannot merge '" + names[i + 1] + "'").c_str(), st));
    }

    // Close the sources before dst's value is replaced: a source that names
    // dst is a second handle on that key, and closing it after the set read
    // the freed old value inside Redis (valgrind: RM_CloseKey reading the
    // object RM_ModuleTypeSetValue had freed). filters[] is not used below.
    sources.clear();
    filters.clear();

    FilterValue *v = adopt_filter(merged.release(), since, &error);
    if (v == nullptr) return reply_error(ctx, "ERR " + error);
    if (!dst.set(v)) {
      delete v;
      return RedisModule_ReplyWithError(ctx, "ERR cannot store the filter");
    }
  } catch (const std::bad_alloc &) {
    return RedisModule_ReplyWithError(ctx, "ERR out of memory");
  }
  RedisModule_ReplicateVerbatim(ctx);
  return RedisModule_ReplyWithSimpleString(ctx, "OK");
}

}  // namespace bloom_redis
