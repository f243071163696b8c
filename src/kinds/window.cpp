// SPDX-License-Identifier: Apache-2.0
#include "kinds/window.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#if defined(__linux__)
#include <sys/mman.h>
#endif

#include "byte_order.hpp"
#include "error.hpp"
#include "format/payload_io.hpp"
#include "kinds/registry.hpp"
#include "kinds/window_sizing.hpp"
#include "probe.hpp"

namespace bloom::core {

namespace {

constexpr uint64_t kAlign = 64;
constexpr uint32_t kClockStarted = 1u;

uint64_t pad64(uint64_t n) { return (n + kAlign - 1) / kAlign * kAlign; }

std::unique_ptr<std::shared_mutex> make_lock(const FilterConfig &c) {
  return c.concurrent() ? std::make_unique<std::shared_mutex>() : nullptr;
}

// Probe value j of a key without walking 0..j-1: enhanced double hashing's
// value j is h1 + j h2 + (j^3 - j) / 6 (probe.hpp); j < 1024.
uint64_t probe_value(Hash128 h, uint32_t j, bool enhanced, bool mixed) {
  const uint64_t jj = j;
  uint64_t g = h.h1 + jj * h.h2;
  if (enhanced) g += (jj * jj * jj - jj) / 6;
  return mixed ? mix_probe(g) : g;
}

void read_zero_padding(ByteSource &src, uint64_t n) {
  unsigned char pad[kAlign];
  src.read(pad, n);
  for (uint64_t i = 0; i < n; ++i)
    if (pad[i] != 0) fail(Status::kFormat, "window: non-zero padding after the slices");
}

// Every query and add reads lines spread over the whole ring (121 MB at
// seed 004's hour): with 4 KiB pages nearly each is a TLB miss too. Asks for
// transparent huge pages on the array's whole 2 MiB stretches (Linux's
// default policy is "madvise": nothing without asking). Advice only: an
// error (a mapped file, no THP) changes nothing. Arrays under 4 MiB are
// left alone.
void advise_huge_pages([[maybe_unused]] const BitArray &bits) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  constexpr uintptr_t kHuge = uintptr_t{1} << 21;
  if (bits.byte_size() < 2 * kHuge) return;
  const auto begin = reinterpret_cast<uintptr_t>(bits.words());
  const uintptr_t start = (begin + kHuge - 1) & ~(kHuge - 1), end = (begin + bits.byte_size()) & ~(kHuge - 1);
  if (end > start) (void)madvise(reinterpret_cast<void *>(start), end - start, MADV_HUGEPAGE);
#endif
}

// Distinct keys from a slice fill (Swamidass & Baldi): ln(1 - x) / ln(1 - 1/m).
double keys_from_fill(double x, uint64_t m) {
  if (x >= 1.0) return INFINITY;
  return std::log1p(-x) / std::log1p(-1.0 / static_cast<double>(m));
}

}  // namespace

WindowFilter::WindowFilter(const FilterConfig &config)
    : Filter(config),
      bits_(config.bits),
      blocked_(config.window_blocked()),
      geometry_{config.hashes + config.window_l, config.window_slice_bits / 64},
      k_(config.hashes),
      slices_(config.hashes + config.window_l),
      m_(config.window_slice_bits),
      lock_(make_lock(config)) {
  advise_huge_pages(bits_);
}

WindowFilter::WindowFilter(const FilterConfig &config, BitArray bits, const State &state)
    : Filter(config),
      bits_(std::move(bits)),
      blocked_(config.window_blocked()),
      geometry_{config.hashes + config.window_l, config.window_slice_bits / 64},
      k_(config.hashes),
      slices_(config.hashes + config.window_l),
      m_(config.window_slice_bits),
      state_(state),
      lock_(make_lock(config)) {}

WindowFilter::WindowFilter(const WindowFilter &other)
    : Filter(other, 0),
      bits_(other.bits_.copy()),
      blocked_(other.blocked_),
      geometry_(other.geometry_),
      k_(other.k_),
      slices_(other.slices_),
      m_(other.m_),
      state_(other.state_),
      lock_(make_lock(other.config_)) {}

std::unique_lock<std::shared_mutex> WindowFilter::write_lock() const {
  if (!lock_) return {};
  return std::unique_lock<std::shared_mutex>(*lock_);
}

std::shared_lock<std::shared_mutex> WindowFilter::read_lock() const {
  if (!lock_) return {};
  return std::shared_lock<std::shared_mutex>(*lock_);
}

uint64_t WindowFilter::position(Hash128 h, uint32_t j) const {
  const uint64_t g = probe_value(h, j, config_.enhanced_probes(), config_.mixed_probes());
  return static_cast<uint64_t>(j) * m_ + reduce_range(g, m_);
}

// Window [s, s + k) of logical slices; slices [s, c) are known to hold the
// key. Test from the window's oldest end down to c: a miss at i moves the
// window to start at i + 1, and everything up to the old end is known.
template <class Test>
uint32_t WindowFilter::find_run_by(Test &&test) const {
  uint32_t s = 0, c = 0;
  while (s + k_ <= slices_) {
    uint32_t j = s + k_;
    while (j > c && test(physical(j - 1))) --j;
    if (j == c) return s;
    c = s + k_;
    s = j;
  }
  return slices_;
}

namespace {
// One key's view of the blocked ring: the line of the group last touched is
// kept, since a query walks slices down and an add up, 8 to a line.
class BlockedKey {
 public:
  BlockedKey(const WindowBlockedGeometry &g, Hash128 h) : g_(g), h_(h) {}
  // The word of physical slice j, as an index into the ring's words, and
  // the key's bit in it. Returned together, not through an out-parameter:
  // in `w[word(j, mask)] |= mask` C++17 evaluates the right operand first,
  // so mask was read before word() set it (clang set stray bits and lost
  // keys; GCC happened to call word() first).
  struct Bit {
    uint64_t word;
    uint64_t mask;
  };
  Bit bit(uint32_t j) {
    const uint32_t group = g_.group_of(j);
    if (group != group_) {
      group_ = group;
      base_ = g_.word(group * kWindowSlicesPerLine, g_.line_of(h_, group)) - group * kWindowSlicesPerLine;
      bits_ = WindowBlockedGeometry::bits_of(h_, group);
    }
    return {base_ + j, WindowBlockedGeometry::bit_mask(bits_, j)};
  }

 private:
  const WindowBlockedGeometry &g_;
  Hash128 h_;
  uint32_t group_ = UINT32_MAX;
  uint64_t base_ = 0, bits_ = 0;
};
}  // namespace

uint32_t WindowFilter::find_run(Hash128 h) const {
  if (blocked_) {
    const uint64_t *w = bits_.words();
    BlockedKey key(geometry_, h);
    return find_run_by([&](uint32_t j) {
      const BlockedKey::Bit b = key.bit(j);
      return (w[b.word] & b.mask) != 0;
    });
  }
  return find_run_by([&](uint32_t j) { return bits_.test(position(h, j)); });
}

bool WindowFilter::query(Hash128 h) const {
  const auto lock = read_lock();
  return find_run(h) < slices_;
}

void WindowFilter::query_block(const Hash128 *hs, size_t n, uint8_t *out) const {
  const auto lock = read_lock();
  // A query starts at logical slice k - 1 (the oldest of the newest k).
  const uint32_t first = physical(k_ - 1);
  if (blocked_) {
    const uint32_t group = geometry_.group_of(first);
    for (size_t i = 0; i < n; ++i)
      __builtin_prefetch(bits_.words() + geometry_.word(first, geometry_.line_of(hs[i], group)));
  } else {
    for (size_t i = 0; i < n; ++i) bits_.prefetch(position(hs[i], first));
  }
  for (size_t i = 0; i < n; ++i) out[i] = find_run(hs[i]) < slices_ ? 1 : 0;
}

void WindowFilter::retire_oldest() {
  state_.head = state_.head == 0 ? slices_ - 1 : state_.head - 1;
  if (blocked_) {
    // Word r of the slice, in every line of its group.
    uint64_t *w = bits_.words();
    const uint64_t first = geometry_.word(state_.head, 0),
                   stride = geometry_.width(geometry_.group_of(state_.head));
    for (uint64_t r = 0; r < geometry_.lines; ++r) w[first + r * stride] = 0;
  } else {
    // m is a multiple of 64: a slice is whole words.
    std::memset(bits_.words() + static_cast<uint64_t>(state_.head) * (m_ / 64), 0, m_ / 8);
  }
  ++state_.generation;
  state_.generation_keys = 0;
}

void WindowFilter::set_newest(Hash128 h) {
  if (!blocked_) {
    for (uint32_t i = 0; i < k_; ++i) bits_.set(position(h, physical(i)));
    return;
  }
  uint64_t *w = bits_.words();
  BlockedKey key(geometry_, h);
  for (uint32_t i = 0; i < k_; ++i) {
    const BlockedKey::Bit b = key.bit(physical(i));
    w[b.word] |= b.mask;
  }
}

void WindowFilter::insert(Hash128 h, bool already_in_newest) {
  if (!time_window() && state_.generation_keys >= config_.window_generation) {
    retire_oldest();
    already_in_newest = false;
  }
  if (!already_in_newest) set_newest(h);
  ++state_.generation_keys;
}

void WindowFilter::add(Hash128 h) {
  const auto lock = write_lock();
  insert(h, false);
}

bool WindowFilter::test_and_add(Hash128 h) {
  const auto lock = write_lock();
  const uint32_t run = find_run(h);
  // A key already in the k newest slices needs no bit set; any other
  // present key is refreshed there, so it lives another window.
  insert(h, run == 0);
  return run < slices_;
}

void WindowFilter::prefetch_block(const Hash128 *hs, size_t n) const {
  if (blocked_) {
    // The 2-3 lines of the k newest slices (an add, and a present key's
    // query), and the lines an absent key's query will read: it tests the
    // far end of a window of k, and a miss there (about half the time, or
    // one or two slices nearer) moves the window on by about k, so its
    // reads fall at about i k - 1 (i = 1, 2, ...). Without these the query
    // waited for ~5 misses one after another (1.27 M keys/s at 50 M keys,
    // 1.69-2.06 M with them). Fetching every group's line instead, for a
    // search that reads them all at once (a 128-bit mask), ran at 1.78 M
    // against 2.06 M side by side: more lines, no fewer waits.
    // The groups are the same for every key of the block: listed once.
    // (At most 64 lines a key: small k hop often, and past that the
    // search finds its lines itself.)
    constexpr uint32_t kMostLines = 64;
    uint32_t groups[kMostLines];
    uint32_t count = 0;
    auto note = [&](uint32_t logical) {
      const uint32_t group = geometry_.group_of(physical(logical));
      if (count < kMostLines && (count == 0 || groups[count - 1] != group)) groups[count++] = group;
    };
    for (uint32_t s = 0; s < k_; ++s) note(s);
    for (uint32_t end = 2 * k_ - 1; end < slices_; end += k_) {
      note(end - 2);
      note(end);
    }
    const uint64_t *w = bits_.words();
    for (size_t i = 0; i < n; ++i)
      for (uint32_t c = 0; c < count; ++c)
        __builtin_prefetch(
            w + geometry_.word(groups[c] * kWindowSlicesPerLine, geometry_.line_of(hs[i], groups[c])));
    return;
  }
  // Sliced (1.3): an add writes the key's bit in each of the k newest
  // slices, and a test-and-add's query starts on the same k: k lines a key.
  for (size_t i = 0; i < n; ++i)
    for (uint32_t s = 0; s < k_; ++s) bits_.prefetch(position(hs[i], physical(s)));
}

void WindowFilter::add_block(const Hash128 *hs, size_t n) {
  const auto lock = write_lock();
  for (size_t i = 0; i < n; ++i) insert(hs[i], false);
}

// Filter::merge and Filter::intersect refuse window filters before these.
// Each window ages by its own generations, so no slice of one matches a
// slice of another: neither union nor intersection keeps both windows.
void WindowFilter::merge_from(const Filter &) {
  fail(Status::kUnsupported,
       "merge: window filters do not combine: each ages by its own generations, so no slice "
       "of one matches a slice of the other");
}
void WindowFilter::intersect_with(const Filter &) {
  fail(Status::kUnsupported,
       "intersect: window filters do not combine: each ages by its own generations, so no "
       "slice of one matches a slice of the other");
}

void WindowFilter::clear_all() {
  const auto lock = write_lock();
  bits_.clear();
  state_.head = 0;
  state_.generation = 0;
  state_.generation_keys = 0;
  state_.generation_start_ms = state_.clock_ms;
}

void WindowFilter::advance(uint64_t now_ms) {
  require_writable("advance");
  if (!time_window())
    fail(Status::kUnsupported,
         "advance: this is a count window (window_ms = 0); it advances by insertions, not by a clock");
  const auto lock = write_lock();
  State &s = state_;
  if (!s.clock_started) {
    s.clock_started = true;
    s.clock_ms = s.generation_start_ms = now_ms;
    return;
  }
  if (now_ms < s.clock_ms) {
    // Backwards: no time passed. Move the generation's start back with the
    // clock (at 0 the elapsed part is cut short: later, never earlier).
    const uint64_t back = s.clock_ms - now_ms;
    s.generation_start_ms = s.generation_start_ms >= back ? s.generation_start_ms - back : 0;
    s.clock_ms = now_ms;
    return;
  }
  s.clock_ms = now_ms;
  const uint64_t d = config_.window_ms / config_.window_l + (config_.window_ms % config_.window_l != 0);
  const uint64_t shifts = (now_ms - s.generation_start_ms) / d;
  if (shifts == 0) return;
  const uint64_t generation = s.generation;
  for (uint64_t i = 0; i < std::min<uint64_t>(shifts, slices_); ++i) retire_oldest();
  // Past k + l retirements every slice is empty; only the ring's position
  // and the counters move on.
  if (shifts > slices_) {
    const uint32_t rest = static_cast<uint32_t>((shifts - slices_) % slices_);
    s.head = (s.head + slices_ - rest) % slices_;
  }
  s.generation = generation + shifts;
  s.generation_start_ms += shifts * d;  // shifts * d <= now - start: no overflow
}

std::unique_ptr<Filter> WindowFilter::clone_filter() const {
  return std::unique_ptr<Filter>(new WindowFilter(*this));
}

namespace {
// Set bits of every physical slice, in one pass over the words (a blocked
// slice is spread over its group: one pass per slice would read the group 8
// times). On x86-64 with POPCNT the loop is built for it: the baseline's
// std::popcount is a libgcc call, and bloom dedup read the filter's info once
// per generation, 20% of its profile on 3 M lines (perf).
void count_slices(const uint64_t *w, uint64_t words, uint32_t slices, bool blocked,
                  const WindowBlockedGeometry &geometry, uint64_t *set) {
  for (uint32_t j = 0; j < slices;) {
    const uint32_t width = blocked ? geometry.width(geometry.group_of(j)) : 1;
    for (uint64_t r = 0; r < words; ++r, w += width)
      for (uint32_t o = 0; o < width; ++o) set[j + o] += static_cast<uint64_t>(std::popcount(w[o]));
    j += width;
  }
}
#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target("popcnt"))) void count_slices_popcnt(const uint64_t *w, uint64_t words, uint32_t slices,
                                                           bool blocked,
                                                           const WindowBlockedGeometry &geometry,
                                                           uint64_t *set) {
  for (uint32_t j = 0; j < slices;) {
    const uint32_t width = blocked ? geometry.width(geometry.group_of(j)) : 1;
    for (uint64_t r = 0; r < words; ++r, w += width)
      for (uint32_t o = 0; o < width; ++o) set[j + o] += static_cast<uint64_t>(__builtin_popcountll(w[o]));
    j += width;
  }
}
#endif
}  // namespace

std::vector<uint64_t> WindowFilter::slice_counts() const {
  std::vector<uint64_t> set(slices_, 0);
#if defined(__x86_64__) && defined(__GNUC__)
  if (__builtin_cpu_supports("popcnt")) {
    count_slices_popcnt(bits_.words(), m_ / 64, slices_, blocked_, geometry_, set.data());
    return set;
  }
#endif
  count_slices(bits_.words(), m_ / 64, slices_, blocked_, geometry_, set.data());
  return set;
}

// One slice's fill (bloom_get_stage_info): its words only, strided through
// its group when blocked.
double WindowFilter::slice_fill(uint32_t logical) const {
  const uint32_t j = physical(logical);
  const uint64_t words = m_ / 64;
  const uint64_t *w = bits_.words() + (blocked_ ? geometry_.word(j, 0) : static_cast<uint64_t>(j) * words);
  const uint64_t stride = blocked_ ? geometry_.width(geometry_.group_of(j)) : 1;
  uint64_t set = 0;
  for (uint64_t r = 0; r < words; ++r) set += static_cast<uint64_t>(std::popcount(w[r * stride]));
  return static_cast<double>(set) / static_cast<double>(m_);
}

void WindowFilter::fill_info(Info &info) const {
  std::vector<double> x(slices_);
  const std::vector<uint64_t> counts = slice_counts();
  double total = 0;
  for (uint32_t i = 0; i < slices_; ++i) {
    x[i] = static_cast<double>(counts[physical(i)]) / static_cast<double>(m_);
    total += x[i];
  }
  info.bits = bits_.bits();
  info.bytes = bits_.byte_size();
  info.fill_ratio = total / slices_;
  info.expected_fp_rate = run_probability(x.data(), x.size(), k_);
  // Keys in the window, generation by generation: logical slice i < k holds
  // generations 0..i, slice i >= k holds i-k+1..i, so each slice's estimate
  // less its neighbour's gives one generation; the window is 0..l.
  std::vector<double> gen(slices_, 0.0);
  double prev = 0;
  for (uint32_t i = 0; i <= config_.window_l && i < slices_; ++i) {
    const double e = keys_from_fill(x[i], m_);
    gen[i] = e - prev + (i >= k_ ? gen[i - k_] : 0.0);
    prev = e;
  }
  double keys = 0;
  for (uint32_t i = 0; i <= config_.window_l && i < slices_; ++i) keys += std::max(0.0, gen[i]);
  info.estimated_keys = keys;
  info.window_ms = config_.window_ms;
  info.window_k = k_;
  info.window_l = config_.window_l;
  info.slice_bits = m_;
  info.generation_capacity = config_.window_generation;
  info.generation = state_.generation;
  info.generation_keys = state_.generation_keys;
  info.generation_ms =
      time_window() ? config_.window_ms / config_.window_l + (config_.window_ms % config_.window_l != 0) : 0;
  info.clock_ms = state_.clock_ms;
  info.generation_start_ms = state_.generation_start_ms;
}

void WindowFilter::get_stage_info(uint32_t stage, Info &info) const {
  if (stage >= slices_)
    fail(Status::kInvalidArg, "slice " + std::to_string(stage) + " does not exist (the window has " +
                                  std::to_string(slices_) + ")");
  get_info(info);
  const double x = slice_fill(stage);
  info.bits = m_;
  info.bytes = m_ / 8;
  info.fill_ratio = x;
  info.estimated_keys = keys_from_fill(x, m_);
}

uint64_t WindowFilter::payload_size_for(const FilterConfig &c) {
  return kDescriptorSize + pad64(BitArray::word_count_for(c.bits) * 8);
}

void WindowFilter::write_payload(ByteSink &sink) const {
  unsigned char d[kDescriptorSize] = {};
  store_le64(d + 0, config_.window_ms);
  store_le64(d + 8, config_.window_generation);
  store_le64(d + 16, m_);
  store_le32(d + 24, config_.window_l);
  store_le32(d + 28, state_.head);
  store_le64(d + 32, state_.generation);
  store_le64(d + 40, state_.generation_keys);
  store_le64(d + 48, state_.clock_ms);
  store_le64(d + 56, state_.generation_start_ms);
  store_le32(d + 64, state_.clock_started ? kClockStarted : 0);
  sink.write(d, sizeof d);
  write_words(sink, bits_);
  static const unsigned char zeros[kAlign] = {};
  const uint64_t size = bits_.byte_size();
  sink.write(zeros, pad64(size) - size);
}

std::unique_ptr<Filter> WindowFilter::load(const Header &h, ByteSource &src, bool zero_copy) {
  const std::string where = "window: ";
  if (h.payload_size < kDescriptorSize)
    fail(Status::kFormat, where + "payload of " + std::to_string(h.payload_size) +
                              " bytes cannot hold the 128-byte descriptor");
  unsigned char d[kDescriptorSize];
  src.read(d, sizeof d);
  FilterConfig c = h.config;
  c.window_ms = load_le64(d + 0);
  c.window_generation = load_le64(d + 8);
  c.window_slice_bits = load_le64(d + 16);
  c.window_l = load_le32(d + 24);
  State s;
  s.head = load_le32(d + 28);
  s.generation = load_le64(d + 32);
  s.generation_keys = load_le64(d + 40);
  s.clock_ms = load_le64(d + 48);
  s.generation_start_ms = load_le64(d + 56);
  const uint32_t flags = load_le32(d + 64);
  for (size_t i = 68; i < kDescriptorSize; ++i)
    if (d[i] != 0) fail(Status::kFormat, where + "reserved descriptor bytes are not 0");
  if ((flags & ~kClockStarted) != 0) fail(Status::kFormat, where + "unknown state flags");
  s.clock_started = (flags & kClockStarted) != 0;

  if (static_cast<uint64_t>(c.hashes) + c.window_l != h.stages)
    fail(Status::kFormat, where + "k + l = " + std::to_string(c.hashes) + " + " + std::to_string(c.window_l) +
                              " does not match the header's " + std::to_string(h.stages) + " slices");
  try {
    validate_config(c);
  } catch (const Error &e) {
    fail(Status::kFormat, where + e.what());
  }
  const std::string shape = window_shape_error(
      {c.hashes, c.window_l, c.window_generation, c.window_slice_bits}, c.capacity, c.fp_rate);
  if (!shape.empty()) fail(Status::kFormat, where + shape);
  if (s.head >= h.stages)
    fail(Status::kFormat, where + "newest slice " + std::to_string(s.head) + " is outside the ring");
  if (c.window_ms == 0 && s.generation_keys > c.window_generation)
    fail(Status::kFormat, where + "a count window's generation holds " + std::to_string(s.generation_keys) +
                              " keys, more than g = " + std::to_string(c.window_generation));
  if (!s.clock_started && (s.clock_ms != 0 || s.generation_start_ms != 0))
    fail(Status::kFormat, where + "a clock that has not started must read 0");
  if (s.generation_start_ms > s.clock_ms)
    fail(Status::kFormat, where + "the newest generation starts after the clock");
  if (c.window_ms == 0 && (s.clock_started || s.clock_ms != 0))
    fail(Status::kFormat, where + "a count window has no clock");
  if (h.payload_size != payload_size_for(c))
    fail(Status::kFormat, where + "payload size " + std::to_string(h.payload_size) + " does not fit " +
                              std::to_string(h.stages) + " slices of " + std::to_string(c.window_slice_bits) +
                              " bits (" + std::to_string(payload_size_for(c)) + " bytes)");
  BitArray bits = read_words(src, c.bits, zero_copy);
  const uint64_t size = BitArray::word_count_for(c.bits) * 8;
  read_zero_padding(src, pad64(size) - size);
  return std::unique_ptr<Filter>(new WindowFilter(c, std::move(bits), s));
}

}  // namespace bloom::core
