// SPDX-License-Identifier: Apache-2.0
// fault_injection_test.cpp -- every allocation on the create, load,
// deserialize, clone, merge, intersect, clear and add paths is made to fail
// in turn (the N-th, for N = 1, 2, ... until the call succeeds). Each
// failure must return BLOOM_E_NOMEM with a message, leave no handle, and
// leave the destination unchanged (bit-identical image). Leaks are caught by
// LeakSanitizer in the ASan build (.ci/steps.d/10-asan-ubsan.sh).
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "hardening_util.hpp"

namespace bloom::test {
namespace {

// Far above any allocation count these small filters need; reaching it
// means the call never succeeds, which is a failure in itself.
constexpr uint64_t kMaxN = 10000;

// Runs call with the N-th allocation failing, for N = 1, 2, ... until it
// returns final_status (what it returns with no injected failure: OK, or a
// refusal such as INCOMPATIBLE that does not depend on memory). Every other
// attempt must report NOMEM; `after_failure` checks that nothing changed
// (it also runs after a final refusal). Returns how many attempts failed
// with NOMEM (0 = the call does not allocate through the hook).
uint64_t fail_each_allocation(const std::string &what, const std::function<bloom_status()> &call,
                              const std::function<void(const std::string &)> &after_failure,
                              bloom_status final_status = BLOOM_OK) {
  CountdownGuard guard;
  for (uint64_t n = 1; n <= kMaxN; ++n) {
    core::set_allocation_failure_countdown(n);
    const bloom_status s = call();
    core::set_allocation_failure_countdown(0);
    if (s == final_status) {
      if (s != BLOOM_OK) after_failure(what + ", refused without injection");
      return n - 1;
    }
    const std::string where = what + ", allocation " + std::to_string(n) + " failing";
    EXPECT_EQ(s, BLOOM_E_NOMEM) << where << ": " << bloom_last_error();
    EXPECT_NE(std::string(bloom_last_error()).find("allocation failure injected"), std::string::npos)
        << where << ": " << bloom_last_error();
    after_failure(where);
    if (s != BLOOM_E_NOMEM) return n;
  }
  ADD_FAILURE() << what << " never succeeded";
  return kMaxN;
}

class FaultInjection : public ::testing::TestWithParam<int> {
 protected:
  void SetUp() override {
    BLOOM_MAKE_OR_SKIP(GetParam(), BLOOM_HASH_XXH3, &filled_);
    image_ = serialize(filled_.get());
  }
  FilterPtr filled_;
  std::vector<unsigned char> image_;
};

TEST_P(FaultInjection, CreateFailsCleanly) {
  const bloom_options o = small_options(GetParam(), BLOOM_HASH_XXH3);
  bloom_filter *out = nullptr;
  const uint64_t failures = fail_each_allocation(
      "create", [&] { return bloom_create(&o, &out); },
      [&](const std::string &where) { EXPECT_EQ(out, nullptr) << where; });
  FilterPtr made(out);
  EXPECT_GE(failures, 1u) << "create allocates nothing through the hook";
}

TEST_P(FaultInjection, DeserializeFailsCleanly) {
  bloom_filter *out = nullptr;
  const uint64_t failures = fail_each_allocation(
      "deserialize", [&] { return bloom_deserialize(image_.data(), image_.size(), &out); },
      [&](const std::string &where) { EXPECT_EQ(out, nullptr) << where; });
  FilterPtr made(out);
  EXPECT_GE(failures, 1u);
  ASSERT_NE(made, nullptr);
  EXPECT_EQ(serialize(made.get()), image_);
}

TEST_P(FaultInjection, LoadFailsCleanly) {
  const std::string path = temp_path(std::string("fault_load_") + bloom_kind_name(GetParam()));
  ASSERT_EQ(bloom_save(filled_.get(), path.c_str()), BLOOM_OK);
  bloom_filter *out = nullptr;
  const uint64_t failures = fail_each_allocation(
      "load", [&] { return bloom_load(path.c_str(), &out); },
      [&](const std::string &where) { EXPECT_EQ(out, nullptr) << where; });
  FilterPtr made(out);
  EXPECT_GE(failures, 1u);
  ASSERT_NE(made, nullptr);
  EXPECT_EQ(serialize(made.get()), image_);
  ::unlink(path.c_str());
}

TEST_P(FaultInjection, CloneFailsCleanlyAndLeavesTheSourceAlone) {
  bloom_filter *out = nullptr;
  const uint64_t failures = fail_each_allocation(
      "clone", [&] { return bloom_clone(filled_.get(), &out); },
      [&](const std::string &where) {
        EXPECT_EQ(out, nullptr) << where;
        EXPECT_EQ(serialize(filled_.get()), image_) << where;
      });
  FilterPtr made(out);
  EXPECT_GE(failures, 1u);
  ASSERT_NE(made, nullptr);
  EXPECT_EQ(serialize(made.get()), image_);
}

// Merge and intersect into a destination holding other keys: a failure must
// leave it bit-identical (kinds whose union needs no allocation never fail).
TEST_P(FaultInjection, MergeAndIntersectLeaveTheDestinationUnchangedOnFailure) {
  using SetOp = bloom_status (*)(bloom_filter *, const bloom_filter *);
  for (SetOp op : {SetOp{bloom_merge}, SetOp{bloom_intersect}}) {
    const bloom_options o = small_options(GetParam(), BLOOM_HASH_XXH3);
    FilterPtr dst = make_filter(o);
    ASSERT_NE(dst, nullptr);
    add_all(dst.get(), make_keys("other-", 300));
    const auto before = serialize(dst.get());
    const char *name = op == bloom_merge ? "merge" : "intersect";
    // What the operation does without injected failures (a kind may refuse
    // it, e.g. a stage-wise intersect of multi-stage scalable filters).
    bloom_filter *trial = nullptr;
    ASSERT_EQ(bloom_clone(dst.get(), &trial), BLOOM_OK);
    const bloom_status expected = op(trial, filled_.get());
    bloom_destroy(trial);
    fail_each_allocation(
        name, [&] { return op(dst.get(), filled_.get()); },
        [&](const std::string &where) { EXPECT_EQ(serialize(dst.get()), before) << where; }, expected);
    if (op == bloom_merge && expected == BLOOM_OK) {
      for (const auto &k : small_keys()) ASSERT_EQ(bloom_query(dst.get(), k.data(), k.size()), 1) << k;
    }
  }
}

// Clearing a scalable filter returns it to one (new) stage, which may
// allocate; a failed clear must leave the filter as it was.
TEST_P(FaultInjection, ClearLeavesTheFilterUnchangedOnFailure) {
  fail_each_allocation(
      "clear", [&] { return bloom_clear(filled_.get()); },
      [&](const std::string &where) { EXPECT_EQ(serialize(filled_.get()), image_) << where; });
  for (const auto &k : small_keys()) EXPECT_EQ(bloom_query(filled_.get(), k.data(), k.size()), 0) << k;
}

// Adds that grow a scalable filter allocate a stage; a failed add reports
// NOMEM and keeps every key added before it.
TEST_P(FaultInjection, AddsThatAllocateFailCleanly) {
  const bloom_options o = small_options(GetParam(), BLOOM_HASH_XXH3);
  FilterPtr f = make_filter(o);
  ASSERT_NE(f, nullptr);
  const auto keys = make_keys("grow-", 400);
  for (size_t i = 0; i < keys.size(); ++i) {
    const auto before = serialize(f.get());
    fail_each_allocation(
        "add " + keys[i], [&] { return bloom_add(f.get(), keys[i].data(), keys[i].size()); },
        [&](const std::string &where) { EXPECT_EQ(serialize(f.get()), before) << where; });
    if (::testing::Test::HasFailure()) return;
  }
  EXPECT_EQ(count_positive(f.get(), keys), keys.size());
}

INSTANTIATE_TEST_SUITE_P(AllKinds, FaultInjection, ::testing::ValuesIn(kAllKinds),
                         [](const ::testing::TestParamInfo<int> &info) {
                           return std::string(bloom_kind_name(info.param));
                         });

}  // namespace
}  // namespace bloom::test
