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
#include "common_options.hpp"

namespace {

using bloom_cli::Command;

const Command *const kCommands[] = {&bloom_cli::kBuildCommand, &bloom_cli::kQueryCommand,
                                    &bloom_cli::kStatsCommand, &bloom_cli::kMergeCommand,
                                    &bloom_cli::kCalcCommand,  &bloom_cli::kDedupCommand,
                                    &bloom_cli::kRemoveCommand};

const Command *find_command(const char *name) {
  for (const Command *c : kCommands)
    if (std::strcmp(c->name, name) == 0) return c;
  return nullptr;
}

// "build, query, ...": every command, for the messages that list them.
std::string command_names() {
  std::string names;
  for (const Command *c : kCommands) names += (names.empty() ? "" : ", ") + std::string(c->name);
  return names;
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
               "bloom --list kinds       the library's kinds, one a line (also: hashes, commands)\n"
               "\n"
               "Exit status: 0 success; 1 query: some key answered \"no\"; 2 error;\n"
               "3 build, dedup: a fixed-size filter went past its capacity (-n).\n");
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

// `bloom --list kinds|hashes|commands`: one name a line, for scripts and the
// shell completions (the values of --kind and --hash).
int print_list(const char *what) {
  std::string names;
  if (what != nullptr && std::strcmp(what, "kinds") == 0) names = bloom_cli::kind_names();
  if (what != nullptr && std::strcmp(what, "hashes") == 0) names = bloom_cli::hash_names();
  if (what != nullptr && std::strcmp(what, "commands") == 0) names = command_names();
  if (names.empty()) {
    std::fprintf(stderr, "bloom: --list takes kinds, hashes or commands\n");
    return bloom_cli::kExitError;
  }
  for (size_t at = 0, comma; at <= names.size(); at = comma + 2) {
    comma = names.find(", ", at);
    if (comma == std::string::npos) comma = names.size();
    std::printf("%s\n", names.substr(at, comma - at).c_str());
  }
  return finish_output("bloom", bloom_cli::kExitOk);
}

}  // namespace

int main(int argc, char **argv) {
  if (argc < 2) {
    std::fprintf(stderr, "bloom: no command given (commands: %s; see bloom --help)\n",
                 command_names().c_str());
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
      bloom_cli::print_help(*c);
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
  if (first == "--list") return print_list(argc > 2 ? argv[2] : nullptr);
  const Command *c = find_command(argv[1]);
  if (c == nullptr) {
    std::fprintf(stderr, "bloom: unknown command '%s' (commands: %s; see bloom --help)\n", argv[1],
                 command_names().c_str());
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
