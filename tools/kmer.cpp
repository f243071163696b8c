// SPDX-License-Identifier: Apache-2.0
#include "kmer.hpp"

#include <cstring>

namespace bloom_cli {

namespace {

bool is_acgt(char c) { return c == 'A' || c == 'C' || c == 'G' || c == 'T'; }

char complement(char c) {
  switch (c) {
    case 'A':
      return 'T';
    case 'C':
      return 'G';
    case 'G':
      return 'C';
    case 'T':
      return 'A';
    default:
      return 'N';
  }
}

char upper(char c) { return (c >= 'a' && c <= 'z') ? static_cast<char>(c - 'a' + 'A') : c; }

}  // namespace

std::string upper_sequence(std::string_view seq) {
  std::string out(seq);
  for (char &c : out) c = upper(c);
  return out;
}

void KmerScanner::prepare(std::string_view seq) {
  forward_ = upper_sequence(seq);
  if (!canonical_) return;
  reverse_.resize(forward_.size());
  for (size_t i = 0; i < forward_.size(); ++i) reverse_[forward_.size() - 1 - i] = complement(forward_[i]);
}

void KmerScanner::scan(std::string_view seq, const std::function<void(std::string_view)> &on_kmer) {
  prepare(seq);
  const size_t n = forward_.size();
  size_t run = 0;  // length of the ACGT-only stretch ending at i
  for (size_t i = 0; i < n; ++i) {
    run = is_acgt(forward_[i]) ? run + 1 : 0;
    if (run < k_) continue;
    const size_t start = i + 1 - k_;
    const char *fwd = forward_.data() + start;
    // The reverse complement of forward_[start, start + k) sits at
    // reverse_[n - 1 - i, n - 1 - i + k).
    if (canonical_) {
      const char *rev = reverse_.data() + (n - 1 - i);
      if (std::memcmp(rev, fwd, k_) < 0) fwd = rev;
    }
    on_kmer(std::string_view(fwd, k_));
  }
}

uint64_t KmerScanner::count(std::string_view seq) {
  uint64_t total = 0;
  size_t run = 0;
  for (char c : seq) {
    run = is_acgt(upper(c)) ? run + 1 : 0;
    if (run >= k_) ++total;
  }
  return total;
}

}  // namespace bloom_cli
