// SPDX-License-Identifier: Apache-2.0
// cmd_convert.cpp -- `bloom convert`: other libraries' filter files to this
// tool's, and back (bloom_import / bloom_export).
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "args.hpp"
#include "byte_file.hpp"
#include "cli_error.hpp"
#include "commands.hpp"
#include "common_options.hpp"
#include "filter_file.hpp"
#include "numbers.hpp"

namespace bloom_cli {

namespace {

const char kHelp[] =
    "Usage: bloom convert --from FORMAT IN -o OUT.bloom\n"
    "       bloom convert --to FORMAT IN.bloom -o OUT\n"
    "\n"
    "Move a Bloom filter between another library's file and this tool's. With\n"
    "--from, IN is a filter that library wrote; OUT.bloom answers every key\n"
    "exactly as that library did, and `bloom query`, `stats` and `merge` work\n"
    "on it as on any filter. With --to, OUT is IN.bloom in that library's\n"
    "format, byte for byte what it reads (IN.bloom must come from --from, or\n"
    "from `bloom build --hash FORMAT`, so that its keys set the same bits).\n"
    "\n"
    "Formats:\n"
    "  guava            Java Guava's BloomFilter.writeTo (MURMUR128_MITZ_64);\n"
    "                   keys are what its funnel feeds: a string's UTF-8 bytes,\n"
    "                   a long as 8 bytes little-endian\n"
    "  bits-and-blooms  Go github.com/bits-and-blooms/bloom v3 WriteTo; keys are\n"
    "                   the bytes given to Add\n"
    "  parquet          a Parquet split-block filter (Thrift header and bitset,\n"
    "                   as a column chunk stores it); keys are the values' plain\n"
    "                   encoding: a string's bytes, an INT64 as 8 bytes\n"
    "                   little-endian\n"
    "\n"
    "Options:\n"
    "  --from FORMAT   IN is in FORMAT; write a bloom filter\n"
    "  --to FORMAT     IN is a bloom filter; write it in FORMAT\n"
    "  --column NAME   with --from parquet: IN is a whole .parquet file; take the\n"
    "                  filter of column NAME (a dotted path for nested fields)\n"
    "  --row-group N   with --column: of row group N (default 0)\n"
    "  -o, --out OUT   where to write the result (- = stdout)\n"
    "  -q, --quiet     no summary on stderr\n"
    "\n"
    "Examples:\n"
    "  bloom convert --from guava users.guava -o users.bloom\n"
    "  bloom query users.bloom alice@example.com\n"
    "  bloom convert --to bits-and-blooms users.bloom -o users.gob\n"
    "  bloom convert --from parquet --column user_id part-0.parquet -o ids.bloom\n";

const std::vector<OptionSpec> kOptions = {{"from", 0, true},   {"to", 0, true},        {"out", 'o', true},
                                          {"column", 0, true}, {"row-group", 0, true}, {"quiet", 'q', false}};

int format_of(const std::string &name) {
  const int f = bloom_format_from_name(name.c_str());
  if (f == 0) throw CliError("unknown format '" + name + "' (formats: guava, bits-and-blooms, parquet)");
  return f;
}

void summarize(const char *direction, const std::string &from, const std::string &to, const bloom_filter *f) {
  const bloom_info info = filter_info(f);
  std::fprintf(stderr, "bloom convert: %s %s -> %s (%s, hash %s, m = %s bits, k = %u, fill %s)\n", direction,
               from.c_str(), to.c_str(), kind_label(info.kind).c_str(), hash_label(info.hash).c_str(),
               format_count(info.bits).c_str(), info.hashes, format_double(info.fill_ratio, 4).c_str());
}

int run(int argc, char **argv) {
  const Args args(kOptions, argc, argv, 2);
  if (args.help()) {
    std::fputs(kHelp, stdout);
    return kExitOk;
  }
  const auto from = args.value("from");
  const auto to = args.value("to");
  if (from.has_value() == to.has_value())
    throw CliError("give exactly one of --from FORMAT or --to FORMAT (see bloom convert --help)");
  const auto out_path = args.value("out");
  if (!out_path) throw CliError("missing -o OUT: where to write the result (see bloom convert --help)");
  const auto &inputs = args.positional();
  if (inputs.size() != 1) throw CliError("expected one input file");
  const std::string &in_path = inputs[0];
  check_output_path(*out_path, "-o");

  if (from) {
    const int format = format_of(*from);
    const auto column = args.value("column");
    if (column && format != BLOOM_FORMAT_PARQUET) throw CliError("--column applies to --from parquet only");
    if (args.has("row-group") && !column) throw CliError("--row-group needs --column");
    const std::vector<unsigned char> in = read_file_bytes(in_path);
    bloom_filter *raw = nullptr;
    const uint64_t row_group = parse_uint(args.value("row-group").value_or("0"), "--row-group");
    if (row_group > UINT32_MAX) throw CliError("--row-group " + std::to_string(row_group) + " is too large");
    const bloom_status s = column ? bloom_import_parquet_column(in.data(), in.size(), column->c_str(),
                                                                static_cast<uint32_t>(row_group), &raw)
                                  : bloom_import(format, in.data(), in.size(), &raw);
    if (s != BLOOM_OK) fail_library("cannot read '" + in_path + "' as a " + *from + " filter", s);
    const FilterPtr f(raw);
    save_filter(f.get(), *out_path);
    if (!args.has("quiet")) summarize(from->c_str(), in_path, *out_path, f.get());
    return kExitOk;
  }
  if (args.has("column") || args.has("row-group"))
    throw CliError("--column and --row-group apply to --from parquet");
  const int format = format_of(*to);
  const FilterPtr f = open_filter_readonly(in_path);
  size_t size = 0;
  bloom_status s = bloom_export_size(f.get(), format, &size);
  if (s != BLOOM_OK) fail_library("cannot write '" + in_path + "' as a " + *to + " filter", s);
  std::vector<unsigned char> out(size);
  size_t written = 0;
  s = bloom_export(f.get(), format, out.data(), out.size(), &written);
  if (s != BLOOM_OK) fail_library("cannot write '" + in_path + "' as a " + *to + " filter", s);
  out.resize(written);
  write_file_bytes(*out_path, out);
  if (!args.has("quiet")) summarize("bloom", in_path, *out_path + " (" + *to + ")", f.get());
  return kExitOk;
}

}  // namespace

const Command kConvertCommand{"convert", "to and from Guava, bits-and-blooms and Parquet filters", kHelp,
                              run};

}  // namespace bloom_cli
