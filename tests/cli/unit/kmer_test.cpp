// SPDX-License-Identifier: Apache-2.0
// k-mers: skipping non-ACGT, case folding, canonical form.
#include "kmer.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace bloom_cli {
namespace {

std::vector<std::string> kmers(const std::string &seq, unsigned k, bool canonical) {
  KmerScanner scanner(k, canonical);
  std::vector<std::string> out;
  scanner.scan(seq, [&](std::string_view s) { out.emplace_back(s); });
  EXPECT_EQ(scanner.count(seq), out.size());
  return out;
}

TEST(Kmer, ForwardKmersSkipNonAcgtAndFoldCase) {
  EXPECT_EQ(kmers("acgTNaC", 2, false), (std::vector<std::string>{"AC", "CG", "GT", "AC"}));
  EXPECT_EQ(kmers("ACG", 4, false), std::vector<std::string>{});
  EXPECT_EQ(kmers("", 3, false), std::vector<std::string>{});
  EXPECT_EQ(kmers("NNNN", 1, false), std::vector<std::string>{});
  EXPECT_EQ(kmers("ACRYT", 1, false), (std::vector<std::string>{"A", "C", "T"}));
}

TEST(Kmer, CanonicalIsTheSmallerOfKmerAndReverseComplement) {
  // GGT -> reverse complement ACC (smaller); ACC -> GGT (larger, so ACC stays).
  EXPECT_EQ(kmers("GGT", 3, true), std::vector<std::string>{"ACC"});
  EXPECT_EQ(kmers("ACC", 3, true), std::vector<std::string>{"ACC"});
  // TTTT's reverse complement is AAAA.
  EXPECT_EQ(kmers("tttt", 4, true), std::vector<std::string>{"AAAA"});
  // A sequence and its reverse complement give the same set, in reverse order.
  auto fwd = kmers("AACGTTGCAN GATTACA", 4, true);
  auto rev = kmers("TGTAATC NTGCAACGTT", 4, true);
  std::reverse(rev.begin(), rev.end());
  EXPECT_EQ(fwd, rev);
}

TEST(Kmer, UpperSequence) { EXPECT_EQ(upper_sequence("acgtNn-x"), "ACGTNN-X"); }

}  // namespace
}  // namespace bloom_cli
