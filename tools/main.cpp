// SPDX-License-Identifier: Apache-2.0
// main.cpp -- `bloom <command> ...`: dispatch, top-level help and version,
// and the one place where errors become a line on stderr and exit status 2.
#include <bloom/bloom.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <new>
#include <string>

#include "cli_error.hpp"
#include "commands.hpp"

namespace {

using bloom_cli::Command;

const Command *const kCommands[] = {&bloom_cli::kBuildCommand,  &bloom_cli::kQueryCommand,
                                    &bloom_cli::kStatsCommand,  &bloom_cli::kMergeCommand,
                                    &bloom_cli::kCalcCommand,   &bloom_cli::kDedupCommand,
                                    &bloom_cli::kRemoveCommand, &bloom_cli::kConvertCommand};

const Command *find_command(const char *name) {
  for (const Command *c : kCommands)
    if (std::strcmp(c->name, name) == 0) return c;
  return nullptr;
}

void print_usage(std::FILE *out) {
  std::fprintf(out,
               "Usage: bloom <command> [options]\n"
               "\n"
               "Bloom filters from the command line: build one from keys, FASTA/FASTQ or\n"
               "k-mers, query it, inspect it, merge filters, size them, de-duplicate a stream.\n"
               "\n"
               "Commands:\n");
  for (const Command *c : kCommands) std::fprintf(out, "  %-7s %s\n", c->name, c->summary);
  std::fprintf(out,
               "\n"
               "bloom <command> --help   the options of one command\n"
               "bloom --version          the tool's and the library's version\n"
               "\n"
               "Exit status: 0 success; 1 query: some key answered \"no\"; 2 error.\n");
}

// Output that could not be written is an error even when the command
// itself went well (`bloom stats f.bloom > /dev/full`, `bloom --help >
// /dev/full`): stdio reports a failed write only through ferror or the
// final flush. Returns status, or kExitError after saying why.
int finish_output(const std::string &who, int status) {
  errno = 0;
  if (std::fflush(stdout) == 0 && std::ferror(stdout) == 0) return status;
  const int err = errno;
  std::fprintf(stderr, "%s: cannot write to standard output%s%s\n", who.c_str(), err != 0 ? ": " : "",
               err != 0 ? std::strerror(err) : "");
  return bloom_cli::kExitError;
}

}  // namespace

int main(int argc, char **argv) {
  if (argc < 2) {
    std::fputs(
        "bloom: no command given (commands: build, query, stats, merge, calc, dedup; see bloom --help)\n",
        stderr);
    return bloom_cli::kExitError;
  }
  const std::string first = argv[1];
  if (first == "--help" || first == "-h" || first == "help") {
    if (argc > 2) {
      const Command *c = find_command(argv[2]);
      if (c == nullptr) {
        std::fprintf(stderr, "bloom: unknown command '%s' (see bloom --help)\n", argv[2]);
        return bloom_cli::kExitError;
      }
      std::fputs(c->help, stdout);
      return finish_output("bloom", bloom_cli::kExitOk);
    }
    print_usage(stdout);
    return finish_output("bloom", bloom_cli::kExitOk);
  }
  if (first == "--version" || first == "-V" || first == "version") {
    std::printf("bloom %d.%d.%d (library %s)\n", BLOOM_VERSION_MAJOR, BLOOM_VERSION_MINOR,
                BLOOM_VERSION_PATCH, bloom_version_string());
    return finish_output("bloom", bloom_cli::kExitOk);
  }
  const Command *c = find_command(argv[1]);
  if (c == nullptr) {
    std::fprintf(stderr,
                 "bloom: unknown command '%s' (commands: build, query, stats, merge, calc, dedup; "
                 "see bloom --help)\n",
                 argv[1]);
    return bloom_cli::kExitError;
  }
  try {
    return finish_output(std::string("bloom ") + c->name, c->run(argc, argv));
  } catch (const bloom_cli::CliError &e) {
    std::fflush(stdout);
    std::fprintf(stderr, "bloom %s: %s\n", c->name, e.what());
  } catch (const std::bad_alloc &) {
    std::fflush(stdout);
    std::fprintf(stderr, "bloom %s: out of memory\n", c->name);
  } catch (const std::exception &e) {
    std::fflush(stdout);
    std::fprintf(stderr, "bloom %s: %s\n", c->name, e.what());
  }
  return bloom_cli::kExitError;
}
