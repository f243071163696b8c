// SPDX-License-Identifier: Apache-2.0
// registry.cpp -- the kind table: one row per kind, in kind-number order.
// A new kind adds its descriptor here (docs/ARCHITECTURE.md).
#include "kinds/registry.hpp"

#include <iterator>
#include <string>
#include <vector>

#include "error.hpp"
#include "kind_table.hpp"

namespace bloom::core {

extern const KindDescriptor kClassicKind, kPartitionedKind, kBlockedKind, kCountingKind, kScalableKind,
    kWindowKind;

namespace {

const KindDescriptor *const kKinds[] = {&kClassicKind,  &kPartitionedKind, &kBlockedKind,
                                        &kCountingKind, &kScalableKind,    &kWindowKind};

}  // namespace

const KindDescriptor *const *kinds_begin() { return std::begin(kKinds); }
const KindDescriptor *const *kinds_end() { return std::end(kKinds); }

std::string kinds_with(unsigned cap) {
  std::vector<const char *> names;
  for (const KindDescriptor *d : kKinds)
    if (d->can(cap)) names.push_back(d->name);
  std::string out;
  for (size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += i + 1 == names.size() ? " and " : ", ";
    out += names[i];
  }
  return out;
}

const KindDescriptor *find_kind(int32_t v) {
  for (const KindDescriptor *d : kKinds)
    if (static_cast<int32_t>(d->kind) == v) return d;
  return nullptr;
}

const KindDescriptor &describe(Kind k) {
  const KindDescriptor *d = find_kind(static_cast<int32_t>(k));
  if (d == nullptr)
    fail(Status::kUnsupported, "kind " + std::to_string(static_cast<int>(k)) + " is not built in");
  return *d;
}

void validate_config(const FilterConfig &c) {
  const KindDescriptor &kind = describe(c.kind);
  // An option of one kind on another: the only one is BLOOM_FLAG_SPLIT_BLOCK
  // (in the file_flags of the rows with BLOOM_CAP_SPLIT_BLOCK).
  if ((c.flags & kKnownFlags & ~(kCommonFlags | kind.file_flags)) != 0)
    fail(Status::kInvalidArg, "BLOOM_FLAG_SPLIT_BLOCK applies to " + kinds_with(BLOOM_CAP_SPLIT_BLOCK) +
                                  " filters only, not " + kind.name);
  if (c.bits < 1 || c.bits > BLOOM_MAX_BITS)
    fail(Status::kOverflow, "bit count m = " + std::to_string(c.bits) + " is outside [1, 2^40]");
  if (c.hashes < 1 || c.hashes > BLOOM_MAX_HASHES)
    fail(Status::kInvalidArg, "hash count k = " + std::to_string(c.hashes) + " is outside [1, 64]");
  kind.validate(c);
}

std::unique_ptr<Filter> create_filter(const FilterConfig &c) { return describe(c.kind).create(c); }

std::unique_ptr<Filter> load_filter(const Header &h, ByteSource &src, bool zero_copy) {
  return describe(h.config.kind).load(h, src, zero_copy);
}

}  // namespace bloom::core
