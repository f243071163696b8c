// SPDX-License-Identifier: Apache-2.0
// dedup_day.cpp -- seed 004's day through the window kind: N UUID-v4 click
// IDs at 10,000 a second (864,000,000 is the whole day), 10% of them
// repeats of an ID from the last few seconds (double clicks, which must all
// be dropped) and 0.1% repeats of an ID from more than the window ago
// (which the window has forgotten: passed as new, or dropped as a false
// positive). The clock is the stream's own: ID i arrives at i / 10,000 s.
//
// Part 1 runs the C API batch path (bloom_test_and_add_batch on a time
// window of --window-s seconds, advanced per batch and cut at generation
// ends, as `bloom dedup --event-time` does). Part 2, with --cli PATH, pipes
// --cli-ids of the same lines ("MS<TAB>ID") through `bloom dedup --window
// 1h -n 36e6 -p P --event-time` and times that process. Printed: throughput
// (IDs/s, one core), peak RSS, false drops (new IDs dropped), missed
// repeats inside the window (must be 0), memory against the formula.
//
// Usage: dedup_day [IDS] [--p P] [--window-s S] [--rate R] [--cli PATH] [--cli-ids N]
#include <bloom/bloom.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <thread>
#include <vector>

#include "common/proc_stats.hpp"

namespace {

uint64_t mix64(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// The UUID v4 of unique ID number u: 122 bits from two bijective mixes of
// u, so distinct u give distinct strings.
void uuid_of(uint64_t u, char out[36]) {
  static const char hex[] = "0123456789abcdef";
  const uint64_t a = mix64(u + 0x9E3779B97F4A7C15ull), b = mix64(u ^ 0xD6E8FEB86659FD93ull);
  char digits[32];
  for (int i = 0; i < 16; ++i) digits[i] = hex[(a >> (4 * i)) & 15];
  for (int i = 0; i < 16; ++i) digits[16 + i] = hex[(b >> (4 * i)) & 15];
  digits[12] = '4';                      // version 4
  digits[16] = hex[8 + ((b >> 2) & 3)];  // variant 10xx
  int d = 0;
  for (int i = 0; i < 36; ++i) out[i] = (i == 8 || i == 13 || i == 18 || i == 23) ? '-' : digits[d++];
}

// The stream: event e is a unique ID or a repeat.
enum class Kind { kNew, kRecentRepeat, kOldRepeat };
struct Event {
  uint64_t unique;  // which unique ID
  Kind kind;
};

class Stream {
 public:
  Stream(uint64_t rate, uint64_t window_events) : rate_(rate), window_(window_events) {}
  Event next() {
    const uint64_t r = mix64(0x5EED0000ull + e_);
    ++e_;
    const uint64_t roll = r % 1000;
    if (roll < 100 && made_ > 0) {  // 10%: a double click within ~5 s
      const uint64_t back = 1 + (r >> 20) % std::min<uint64_t>(made_, 5 * rate_);
      return {made_ - back, Kind::kRecentRepeat};
    }
    // 0.1%: an ID from 1.05-1.5 windows ago (forgotten by then).
    const uint64_t old_min = window_ + window_ / 20;
    if (roll == 100 && made_ > old_min + window_ / 2) {
      const uint64_t back = old_min + (r >> 20) % (window_ / 2);
      return {made_ - back, Kind::kOldRepeat};
    }
    return {made_++, Kind::kNew};
  }
  uint64_t events() const { return e_; }

 private:
  uint64_t rate_, window_;
  uint64_t e_ = 0, made_ = 0;
};

// The paper's memory for (W, p): the least (k + l) k W / (l ln 2) over every
// (k, l) whose run probability with half-full retired slices is <= p. A
// second implementation of the library's sizing, as a cross-check.
double run_probability(uint32_t k, uint32_t l) {
  std::vector<double> st(k, 0.0), nx(k);
  st[0] = 1;
  double hit = 0;
  for (uint32_t i = 0; i < k + l; ++i) {
    const double x = 1 - std::exp2(-static_cast<double>(std::min(i + 1, k)) / k);
    std::fill(nx.begin(), nx.end(), 0.0);
    for (uint32_t r = 0; r < k; ++r) {
      nx[0] += st[r] * (1 - x);
      if (r + 1 == k)
        hit += st[r] * x;
      else
        nx[r + 1] += st[r] * x;
    }
    st.swap(nx);
  }
  return hit;
}

double formula_bits(double W, double p) {
  double best = INFINITY;
  for (uint32_t k = 1; k <= 64; ++k)
    for (uint32_t l = 1; l + k <= 1024; l = l < 64 ? l + 1 : l + l / 16) {
      if (run_probability(k, l) > p) break;
      best = std::min(best, (k + l) * static_cast<double>(k) * W / (l * std::log(2.0)));
    }
  return best;
}

double thread_cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return t.tv_sec + t.tv_nsec / 1e9;
}

double cpu_seconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_utime.tv_sec + u.ru_stime.tv_sec + (u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

struct Tally {
  uint64_t new_ids = 0, false_drops = 0, recent = 0, missed = 0, old = 0, old_dropped = 0;
  void count(Kind k, bool dropped) {
    switch (k) {
      case Kind::kNew:
        ++new_ids;
        false_drops += dropped;
        break;
      case Kind::kRecentRepeat:
        ++recent;
        missed += !dropped;
        break;
      case Kind::kOldRepeat:
        ++old;
        old_dropped += dropped;
        break;
    }
  }
  void print(const char *who) const {
    std::printf(
        "%s: new IDs %llu, false drops %llu (%.3g%%), repeats within the window %llu, missed %llu, "
        "repeats older than the window %llu (dropped as false positives %llu)\n",
        who, (unsigned long long)new_ids, (unsigned long long)false_drops,
        100.0 * false_drops / std::max<uint64_t>(1, new_ids), (unsigned long long)recent,
        (unsigned long long)missed, (unsigned long long)old, (unsigned long long)old_dropped);
  }
};

bloom_info info_of(const bloom_filter *f) {
  bloom_info i{};
  i.struct_size = sizeof i;
  bloom_get_info(f, &i);
  return i;
}

}  // namespace

int main(int argc, char **argv) {
  uint64_t ids = 50000000, rate = 10000, window_s = 3600, cli_ids = 0;
  double p = 0.001;
  const char *cli = nullptr;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&] {
      return i + 1 < argc ? argv[++i]
                          : (std::fprintf(stderr, "%s needs a value\n", a.c_str()), std::exit(2), "");
    };
    if (a == "--p")
      p = std::atof(next());
    else if (a == "--window-s")
      window_s = std::strtoull(next(), nullptr, 10);
    else if (a == "--rate")
      rate = std::strtoull(next(), nullptr, 10);
    else if (a == "--cli")
      cli = next();
    else if (a == "--cli-ids")
      cli_ids = static_cast<uint64_t>(std::atof(next()));
    else
      ids = static_cast<uint64_t>(std::atof(a.c_str()));
  }
  if (cli_ids == 0) cli_ids = std::min<uint64_t>(ids, 20000000);
  const uint64_t W = window_s * rate;
  std::printf(
      "dedup_day: %llu IDs (%.1f%% of seed 004's day of 864,000,000) at %llu/s, window %llu s = %llu "
      "IDs, p = %g\n%s\n",
      (unsigned long long)ids, 100.0 * ids / 864e6, (unsigned long long)rate, (unsigned long long)window_s,
      (unsigned long long)W, p,
      (bloom_bench::cpu_model() + ", " + std::to_string(bloom_bench::online_cores()) + " cores, " +
       bloom_bench::utc_now() + ", commit " + bloom_bench::git_commit(BLOOM_BENCH_SOURCE_DIR))
          .c_str());

  // --- part 1: the C API batch path ---------------------------------------
  bloom_options o;
  bloom_options_init(&o);
  o.kind = BLOOM_KIND_WINDOW;
  o.capacity = W;
  o.fp_rate = p;
  o.window_ms = window_s * 1000;
  bloom_filter *f = nullptr;
  if (bloom_create(&o, &f) != BLOOM_OK) {
    std::fprintf(stderr, "create: %s\n", bloom_last_error());
    return 1;
  }
  const bloom_info shape = info_of(f);
  constexpr size_t kBatch = 4096;
  std::vector<char> text(kBatch * 36);
  std::vector<const void *> ptrs(kBatch);
  std::vector<size_t> lens(kBatch, 36);
  std::vector<uint8_t> seen(kBatch);
  std::vector<Kind> kinds(kBatch);
  Stream stream(rate, W);
  Tally tally;
  double lib_seconds = 0, lib_cpu = 0;
  const double cpu0 = cpu_seconds();
  const auto wall0 = std::chrono::steady_clock::now();
  uint64_t retire_ms = 0;
  bool started = false;
  for (uint64_t done = 0; done < ids;) {
    size_t n = 0;
    uint64_t first_ms = 0;
    while (n < kBatch && done + n < ids) {
      const uint64_t ms = stream.events() * 1000 / rate;
      if (n == 0) {
        first_ms = ms;
        if (!started || ms >= retire_ms) {
          bloom_advance(f, ms);
          const bloom_info gi = info_of(f);
          retire_ms = gi.generation_start_ms + gi.generation_ms;
          started = true;
        }
      } else if (ms >= retire_ms) {
        break;  // the next batch advances the clock first
      }
      const Event e = stream.next();
      uuid_of(e.unique, &text[n * 36]);
      ptrs[n] = &text[n * 36];
      kinds[n] = e.kind;
      ++n;
    }
    (void)first_ms;
    const auto t0 = std::chrono::steady_clock::now();
    const double c0 = thread_cpu_seconds();
    if (bloom_test_and_add_batch(f, ptrs.data(), lens.data(), n, seen.data()) != BLOOM_OK) {
      std::fprintf(stderr, "test_and_add_batch: %s\n", bloom_last_error());
      return 1;
    }
    lib_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    lib_cpu += thread_cpu_seconds() - c0;
    for (size_t i = 0; i < n; ++i) tally.count(kinds[i], seen[i] != 0);
    done += n;
  }
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
  const double cpu = cpu_seconds() - cpu0;
  const bloom_info end = info_of(f);
  const double formula = formula_bits(static_cast<double>(W), p);
  std::printf(
      "window: k = %u, l = %u, slice m = %llu bits, generation g = %llu IDs / d = %llu ms; %llu "
      "generations retired\n",
      shape.window_k, shape.window_l, (unsigned long long)shape.slice_bits,
      (unsigned long long)shape.generation_capacity, (unsigned long long)shape.generation_ms,
      (unsigned long long)end.generation);
  std::printf(
      "memory: filter %.1f MB (%.2f bits per window ID); the paper's formula for (W, p) %.1f MB: ratio "
      "%.3f; a classic filter of W keys %.1f MB; peak RSS %.1f MB\n",
      end.bytes / 1e6, end.bits / static_cast<double>(W), formula / 8e6, end.bits / formula,
      W * -std::log(p) / std::pow(std::log(2.0), 2) / 8e6, bloom_bench::peak_rss_kb() / 1e3);
  std::printf(
      "C API batch (bloom_test_and_add_batch, one thread): %.2f M IDs/s of its cpu time (%.1f ns/ID); %.2f M "
      "IDs/s of its wall time (%.1f s, which counts time other processes held the core); the whole program "
      "%.2f M IDs/s of cpu (%.1f s, with the UUID generator), wall %.1f s\n",
      ids / lib_cpu / 1e6, lib_cpu * 1e9 / ids, ids / lib_seconds / 1e6, lib_seconds, ids / cpu / 1e6, cpu,
      wall);
  tally.print("C API batch");
  bloom_destroy(f);

  // --- part 2: the CLI ------------------------------------------------------
  if (cli == nullptr) return tally.missed == 0 ? 0 : 1;
  int in_fds[2], out_fds[2];
  if (pipe(in_fds) != 0 || pipe(out_fds) != 0) return 1;
  const pid_t child = fork();
  if (child == 0) {
    dup2(in_fds[0], 0);
    dup2(out_fds[1], 1);
    close(in_fds[0]);
    close(in_fds[1]);
    close(out_fds[0]);
    close(out_fds[1]);
    const std::string n = std::to_string(W), rate_s = std::to_string(p), win = std::to_string(window_s) + "s";
    execl(cli, cli, "dedup", "--window", win.c_str(), "-n", n.c_str(), "-p", rate_s.c_str(), "--event-time",
          "-q", static_cast<char *>(nullptr));
    _exit(127);
  }
  close(in_fds[0]);
  close(out_fds[1]);
  // The line of event i: "MS<TAB>UUID".
  auto line_of = [&](Stream &st, char *line, Kind *kind) {
    const uint64_t ms = st.events() * 1000 / rate;
    const Event e = st.next();
    const int len = std::snprintf(line, 32, "%llu\t", static_cast<unsigned long long>(ms));
    uuid_of(e.unique, line + len);
    *kind = e.kind;
    return static_cast<size_t>(len + 36);
  };
  // A reader on its own thread walks the same stream: the output is the
  // input's passed lines in order, so an event is passed iff it is the next
  // output line (a repeat within one millisecond is the same line, and the
  // first copy is the one that passes).
  Tally t2;
  std::thread reader([&] {
    FILE *from = fdopen(out_fds[0], "r");
    Stream st(rate, W);
    char expect[64], got[128];
    Kind kind;
    bool have = std::fgets(got, sizeof got, from) != nullptr;
    for (uint64_t i = 0; i < cli_ids; ++i) {
      const size_t len = line_of(st, expect, &kind);
      const bool passed = have && std::strncmp(got, expect, len) == 0 && got[len] == '\n';
      t2.count(kind, !passed);
      if (passed) have = std::fgets(got, sizeof got, from) != nullptr;
    }
    std::fclose(from);
  });
  FILE *to = fdopen(in_fds[1], "w");
  Stream s2(rate, W);
  const auto c0 = std::chrono::steady_clock::now();
  char line[64];
  Kind kind;
  for (uint64_t i = 0; i < cli_ids; ++i) {
    const size_t len = line_of(s2, line, &kind);
    line[len] = '\n';
    std::fwrite(line, 1, len + 1, to);
  }
  std::fclose(to);
  reader.join();
  int status = 0;
  rusage ru{};
  wait4(child, &status, 0, &ru);
  const double cwall = std::chrono::duration<double>(std::chrono::steady_clock::now() - c0).count();
  const double ccpu =
      ru.ru_utime.tv_sec + ru.ru_stime.tv_sec + (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
  std::printf(
      "CLI bloom dedup --window %llus -n %llu --event-time: %llu lines, exit %d, %.2f M lines/s wall "
      "(%.1f s, with this program generating and checking on the other core), %.2f M lines/s of the "
      "CLI's own cpu (%.1f s), its peak RSS %.1f MB\n",
      (unsigned long long)window_s, (unsigned long long)W, (unsigned long long)cli_ids,
      WIFEXITED(status) ? WEXITSTATUS(status) : -1, cli_ids / cwall / 1e6, cwall, cli_ids / ccpu / 1e6, ccpu,
      ru.ru_maxrss / 1e3);
  t2.print("CLI");
  return tally.missed == 0 && t2.missed == 0 ? 0 : 1;
}
