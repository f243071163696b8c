// SPDX-License-Identifier: Apache-2.0
// kmer.hpp -- the k-mers of a DNA sequence, as keys.
//
// Bases are read case-insensitively (lowercase = soft-masked, same base) and
// every k-mer is emitted in uppercase. A k-mer containing anything but A, C,
// G, T (N, IUPAC codes, '-') is skipped. Canonical k-mers are the smaller,
// byte-wise, of a k-mer and its reverse complement, so a read and its reverse
// complement give the same keys -- the usual choice for unstranded data.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace bloom_cli {

// The largest k accepted (keys are strings, so this only bounds memory per k-mer).
constexpr unsigned kMaxKmer = 1024;

class KmerScanner {
 public:
  KmerScanner(unsigned k, bool canonical) : k_(k), canonical_(canonical) {}
  // Calls on_kmer for every valid k-mer of seq, left to right. The view is
  // valid only during the call.
  void scan(std::string_view seq, const std::function<void(std::string_view)> &on_kmer);
  // How many k-mers scan() would emit.
  uint64_t count(std::string_view seq);

 private:
  void prepare(std::string_view seq);

  unsigned k_;
  bool canonical_;
  std::string forward_;  // seq in uppercase
  std::string reverse_;  // its reverse complement
};

// The sequence in uppercase (whole-sequence keys use it too).
std::string upper_sequence(std::string_view seq);

}  // namespace bloom_cli
