// SPDX-License-Identifier: Apache-2.0
// window_sizing.hpp -- (W, p) -> (k, l, g, m) for the window kind.
//
// An age-partitioned Bloom filter (Shtul, Baquero & Almeida 2020) has k + l
// slices of m bits; a generation holds g = ceil(W / l) insertions and a
// slice receives them while it is among the k newest, k g in all. As in the
// paper, m = k g / ln 2 leaves a retired slice half full, so slice i
// (0 = newest) at the end of a generation has the fill
// x_i = 1 - 2^(-min(i + 1, k) / k), whatever W is. A key never added is a
// false positive when its bits are set in k consecutive slices:
// run_probability() computes that exactly for independent slices.
//
// Choice of (k, l): memory per window key is (k + l) k / (l ln 2), which
// falls as l grows, while the rate rises with l (more places for a run to
// start) and an absent key's expected probes, about 2 (k + l) / k, rise
// too. window_shape() takes, among every (k, l) that meets p, the fewest
// probes whose memory is within kMemorySlack of the least memory of any
// (k, l): at p = 0.001 the least memory is k = 16, l = 139 (25.7 bits per
// key, ~19 probes per absent key); 5% more memory gives k = 15, l = 61
// (27.0 bits, ~10 probes). A classic filter of W keys needs 14.4 bits.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace bloom::core {

struct WindowShape {
  uint32_t k = 0;  // slices a key is set in
  uint32_t l = 0;  // extra slices: the window spans l generations
  uint64_t g = 0;  // insertions per generation, ceil(W / l)
  uint64_t m = 0;  // bits per slice, a multiple of 64
};

// At most this many slices (k + l); the file's stage count holds it.
inline constexpr uint32_t kMaxWindowSlices = 1024;
inline constexpr double kMemorySlack = 1.05;

// The probability that some k consecutive of the n fills x[0..n) are all
// "set", for independent slices (a run-length recursion, O(n k)).
double run_probability(const double *x, size_t n, uint32_t k);

// The design rate of (k, l): half-full retired slices, a full newest
// generation (the worst moment).
double window_design_rate(uint32_t k, uint32_t l);

// The paper's memory per window key for (k, l): (k + l) k / (l ln 2).
double window_bits_per_key(uint32_t k, uint32_t l);

// The least window_bits_per_key over every (k, l) that meets p: the
// reference the chosen shape is measured against (docs/kinds-window.md).
double window_min_bits_per_key(double p);

// The shape for W insertions at rate p; throws Error(OVERFLOW) past 2^40
// bits, Error(INVALID_ARG) when no (k <= 64, k + l <= 1024) meets p.
WindowShape window_shape(uint64_t W, double p);

// The exact worst-case rate of a built shape: fills 1 - (1 - 1/m)^(a g).
double window_shape_rate(const WindowShape &s);

// The worst-case rate of a shape in the blocked layout (window_blocked.hpp),
// modelled: a key lands in one line of each group of 8 slices, so each
// slice's word in a line holds a Poisson number of keys, N ~ Poi(a g 64 / m)
// for a slice of a generations; within a group the loads of its slices are
// taken comonotone (one uniform per line, N_i its quantile for each slice),
// which over-states how they move together (neighbouring slices share all
// but a few generations) and so errs towards a higher rate; groups are
// independent (a key's lines in two groups are independent), so the
// run-length recursion averages each group's step over its load. The worst
// over the ring's alignments to the groups is returned.
double window_blocked_rate(const WindowShape &s);

// Why a shape read from a file cannot be one that window_shape() or
// window_blocked_shape() made for (capacity, p), or "" when it can: g must
// be ceil(capacity / l) (a g of 2^63 would never retire a generation, so
// the window would never forget), the slices must meet p (m large enough
// for k g keys), and m at most twice the design k g / ln 2 plus the words
// the small-slice rounding adds (memory the capacity does not justify).
// Sizing itself is not re-run: its (k, l) choice may change between
// versions, while these properties hold for every shape it ever made.
std::string window_shape_error(const WindowShape &s, uint64_t capacity, double p);

// window_shape() for the blocked layout: the same (k, l, g), m grown until
// window_blocked_rate() meets p.
WindowShape window_blocked_shape(uint64_t W, double p);

}  // namespace bloom::core
