// SPDX-License-Identifier: Apache-2.0
// proc_stats.hpp -- peak memory of this process and a description of the
// machine, both read from /proc and /sys (Linux).
//
// Peak RSS is VmHWM. Each configuration runs in its own child process, and the
// peak is reset (clear_refs = 5, Linux >= 4.0) once the keys are built, so a
// row's "filter RSS" is what the filter itself cost, not the key generator.
#pragma once

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <sstream>
#include <string>

namespace bloom_bench {

// A field of /proc/self/status in kB ("VmHWM", "VmRSS"); -1 if unreadable.
inline long proc_status_kb(const char *field) {
  std::ifstream in("/proc/self/status");
  std::string line;
  const std::string prefix = std::string(field) + ":";
  while (std::getline(in, line)) {
    if (line.rfind(prefix, 0) == 0) return std::stol(line.substr(prefix.size()));
  }
  return -1;
}

inline long peak_rss_kb() { return proc_status_kb("VmHWM"); }
inline long current_rss_kb() { return proc_status_kb("VmRSS"); }

// Resets VmHWM to the current RSS; false where the kernel does not allow it.
inline bool reset_peak_rss() {
  std::ofstream out("/proc/self/clear_refs");
  if (!out) return false;
  out << "5";
  out.flush();
  return static_cast<bool>(out);
}

inline std::string read_first_line(const std::string &path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

inline std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) == 0) {
      const size_t colon = line.find(':');
      if (colon != std::string::npos) return line.substr(colon + 2);
    }
  }
  return "unknown";
}

// "L1d 48K, L1i 32K, L2 1024K, L3 32768K" from cpu0's cache directory.
inline std::string cache_sizes() {
  std::string out;
  for (int i = 0; i < 8; ++i) {
    const std::string dir = "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(i) + "/";
    const std::string level = read_first_line(dir + "level");
    if (level.empty()) break;
    std::string type = read_first_line(dir + "type");
    const std::string size = read_first_line(dir + "size");
    const char *suffix = type == "Data" ? "d" : type == "Instruction" ? "i" : "";
    if (!out.empty()) out += ", ";
    out += "L" + level + suffix + " " + size;
  }
  return out.empty() ? "unknown" : out;
}

inline std::string utc_now() {
  char buf[64];
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S UTC", &tm);
  return buf;
}

// The short commit of the source tree the benchmark was built from ("+dirty"
// when it has uncommitted changes); "unknown" outside a git checkout.
inline std::string git_commit(const std::string &source_dir) {
  const std::string cmd =
      "git -C '" + source_dir + "' describe --always --dirty=+dirty --abbrev=12 2>/dev/null";
  FILE *p = popen(cmd.c_str(), "r");
  if (p == nullptr) return "unknown";
  char buf[128] = {0};
  std::string out = fgets(buf, sizeof buf, p) ? buf : "unknown";
  pclose(p);
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  return out.empty() ? "unknown" : out;
}

inline long online_cores() { return sysconf(_SC_NPROCESSORS_ONLN); }

}  // namespace bloom_bench
