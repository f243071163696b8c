// SPDX-License-Identifier: Apache-2.0
// replay_main.cpp -- runs a fuzz target without libFuzzer, so every CI run
// (any compiler, any build) re-checks the corpora.
//
//   bloom_replay_<target> [--random N] <file or directory>...
//
// Every file named (directly or inside a named directory, not recursively)
// is fed to LLVMFuzzerTestOneInput once. --random N then feeds N inputs made
// by a fixed-seed generator: random bytes, and truncated or bit-flipped
// copies of the corpus files, so a run covers more than the seeds even
// without libFuzzer. A violated property aborts (FUZZ_CHECK), failing ctest.
#include <dirent.h>
#include <sys/stat.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

namespace {

std::vector<unsigned char> read_file(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void collect(const std::string &path, std::vector<std::string> &files) {
  struct stat st;
  if (stat(path.c_str(), &st) != 0) {
    std::fprintf(stderr, "replay: skipping missing %s\n", path.c_str());
    return;
  }
  if (!S_ISDIR(st.st_mode)) {
    files.push_back(path);
    return;
  }
  DIR *dir = opendir(path.c_str());
  if (dir == nullptr) return;
  while (const dirent *e = readdir(dir)) {
    const std::string name = e->d_name;
    if (name == "." || name == ".." || name[0] == '.' || name == "README.md") continue;
    const std::string full = path + "/" + name;
    if (stat(full.c_str(), &st) == 0 && S_ISREG(st.st_mode)) files.push_back(full);
  }
  closedir(dir);
}

}  // namespace

int main(int argc, char **argv) {
  long random_inputs = 0;
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--random") == 0 && i + 1 < argc) {
      random_inputs = std::strtol(argv[++i], nullptr, 10);
    } else {
      collect(argv[i], files);
    }
  }
  std::vector<std::vector<unsigned char>> corpus;
  for (const std::string &f : files) {
    corpus.push_back(read_file(f));
    LLVMFuzzerTestOneInput(corpus.back().data(), corpus.back().size());
  }
  std::mt19937_64 rng(0xf022);
  for (long i = 0; i < random_inputs; ++i) {
    std::vector<unsigned char> input;
    if (corpus.empty() || i % 3 == 0) {
      input.resize(rng() % 600);
      for (auto &b : input) b = static_cast<unsigned char>(rng());
    } else {
      input = corpus[rng() % corpus.size()];
      if (input.empty()) continue;
      if (i % 3 == 1) {
        input.resize(rng() % input.size());
      } else {
        for (int flips = 1 + static_cast<int>(rng() % 4); flips > 0; --flips)
          input[rng() % input.size()] ^= static_cast<unsigned char>(1u << (rng() % 8));
      }
    }
    LLVMFuzzerTestOneInput(input.data(), input.size());
  }
  std::printf("replayed %zu corpus files and %ld generated inputs\n", files.size(), random_inputs);
  return files.empty() && random_inputs == 0 ? 1 : 0;
}
