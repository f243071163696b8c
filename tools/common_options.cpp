// SPDX-License-Identifier: Apache-2.0
#include "common_options.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>

#include "cli_error.hpp"
#include "numbers.hpp"

namespace bloom_cli {

const std::vector<OptionSpec> kKeyFormatOptions = {{"fasta", 'f', false},      {"fastq", 0, false},
                                                   {"kmer", 0, true},          {"canonical", 0, false},
                                                   {"no-canonical", 0, false}, {"literal", 0, false}};

const std::vector<OptionSpec> kFilterOptions = {
    {"kind", 0, true},       {"hash", 0, true},   {"seed", 0, true},       {"rate", 'p', true},
    {"capacity", 'n', true}, {"growth", 0, true}, {"tightening", 0, true}, {"split-block", 0, false}};

KeyFormat parse_key_format(const Args &args) {
  KeyFormat f;
  if (args.has("fasta") && args.has("fastq")) throw CliError("--fasta and --fastq exclude each other");
  if (args.has("fasta")) f.kind = KeyFormat::Kind::kFasta;
  if (args.has("fastq")) f.kind = KeyFormat::Kind::kFastq;
  if (args.has("canonical") && args.has("no-canonical"))
    throw CliError("--canonical and --no-canonical exclude each other");
  f.canonical = !args.has("no-canonical");
  f.literal = args.has("literal");
  if (f.literal && f.sequences())
    throw CliError("--literal applies to keys one per line, not to --fasta/--fastq records");
  if (auto k = args.value("kmer")) {
    if (!f.sequences()) throw CliError("--kmer needs --fasta or --fastq input");
    const uint64_t v = parse_count(*k, "--kmer");
    if (v > kMaxKmer) throw CliError("--kmer must be at most " + std::to_string(kMaxKmer));
    f.kmer = static_cast<unsigned>(v);
  } else if (args.has("canonical") || args.has("no-canonical")) {
    throw CliError("--canonical and --no-canonical apply to k-mers: add --kmer K");
  }
  return f;
}

std::string kind_names(unsigned need) {
  std::string names;
  for (int i = 0; i < bloom_kind_count(); ++i) {
    const int kind = bloom_kind_at(i);
    if ((bloom_kind_caps(kind) & need) != need) continue;
    names += (names.empty() ? "" : ", ") + std::string(bloom_kind_name(kind));
  }
  return names;
}

int parse_kind(const std::string &name) {
  const int kind = bloom_kind_from_name(name.c_str());
  if (kind == 0) throw CliError("unknown kind '" + name + "' (kinds: " + kind_names() + ")");
  return kind;
}

bool has_fixed_capacity(int kind) {
  return (bloom_kind_caps(kind) & (BLOOM_CAP_GROWS | BLOOM_CAP_FORGETS)) == 0;
}

std::string hash_names() {
  // Hashes are numbered from 1 (bloom.h); the library's table ends the list.
  std::string names;
  for (int hash = 1; const char *name = bloom_hash_name(hash); ++hash)
    names += (hash > 1 ? ", " : "") + std::string(name);
  return names;
}

int parse_hash(const std::string &name) {
  const int hash = bloom_hash_from_name(name.c_str());
  if (hash == 0) throw CliError("unknown hash '" + name + "' (hashes: " + hash_names() + ")");
  return hash;
}

uint64_t parse_uint(const std::string &text, const std::string &what) {
  // Base chosen here, not by strtoull's base 0: that read "010" as octal 8,
  // and strtoull itself skips leading blanks and accepts a minus sign.
  const bool hex = text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
  const std::string digits = hex ? text.substr(2) : text;
  const auto is_digit = [hex](unsigned char c) { return hex ? std::isxdigit(c) != 0 : std::isdigit(c) != 0; };
  const bool well_formed = !digits.empty() && std::all_of(digits.begin(), digits.end(), is_digit);
  errno = 0;
  const unsigned long long v = well_formed ? std::strtoull(digits.c_str(), nullptr, hex ? 16 : 10) : 0;
  if (!well_formed || errno != 0)
    throw CliError(what + " expects a whole number from 0 to 2^64 - 1, in decimal or 0x hex, not '" + text +
                   "'");
  return v;
}

uint32_t parse_hashes(const std::string &text, const std::string &what) {
  const uint64_t k = parse_count(text, what);
  if (k > BLOOM_MAX_HASHES)
    throw CliError(what + " must be at most " + std::to_string(BLOOM_MAX_HASHES) + ", not " + text);
  return static_cast<uint32_t>(k);
}

void apply_filter_options(const Args &args, bloom_options *o) {
  if (auto v = args.value("kind")) o->kind = parse_kind(*v);
  if (auto v = args.value("hash")) o->hash = parse_hash(*v);
  if (auto v = args.value("seed")) o->seed = parse_uint(*v, "--seed");
  if (auto v = args.value("rate")) o->fp_rate = parse_rate(*v, "-p");
  if (auto v = args.value("capacity")) o->capacity = parse_count(*v, "-n");
  // Growing kinds only: other kinds would refuse a growth at create with a
  // message about the C field, so the option is refused here by its name.
  const auto growth_factor = [&](const char *name, double *field) {
    const auto v = args.value(name);
    if (!v) return;
    if ((bloom_kind_caps(o->kind) & BLOOM_CAP_GROWS) == 0)
      throw CliError(std::string("--") + name + " applies to growing filters only (--kind " +
                     kind_names(BLOOM_CAP_GROWS) + ")");
    *field = parse_positive(*v, std::string("--") + name);
  };
  growth_factor("growth", &o->growth);
  growth_factor("tightening", &o->tightening);
  // BLOOM_FLAG_SPLIT_BLOCK, for the kinds that take it: refused here by its
  // name, as above.
  if (args.has("split-block")) {
    if ((bloom_kind_caps(o->kind) & BLOOM_CAP_SPLIT_BLOCK) == 0)
      throw CliError("--split-block applies to " + kind_names(BLOOM_CAP_SPLIT_BLOCK) +
                     " filters only (add --kind " + kind_names(BLOOM_CAP_SPLIT_BLOCK) + ")");
    o->flags |= BLOOM_FLAG_SPLIT_BLOCK;
  }
}

}  // namespace bloom_cli
