// SPDX-License-Identifier: Apache-2.0
// cmd_dedup.cpp -- `bloom dedup`: pass each line the first time it is seen.
//
// Seed 004's job: a stream of message IDs where a few arrive twice. A line
// is dropped when the filter says it may have been seen (bloom_test_and_add),
// so a false positive drops a new line (at most a fraction p of them) while a
// repeat is never let through twice. The default kind is scalable: the
// stream's length is unknown, and a scalable filter adds stages as it grows
// so memory follows the stream while the compound rate stays under p.
// With --window the kind is a window (seed 004's "forget IDs older than an
// hour"): memory is fixed and keys older than the window are forgotten.
//
// Lines go to the library in batches (bloom_test_and_add_batch hashes a
// block ahead and prefetches): a batch ends when it is full or before the
// input is read again, so nothing waits on a slow pipe.
#include <sys/stat.h>

#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "burst_warning.hpp"
#include "checkpoint.hpp"
#include "cli_error.hpp"
#include "commands.hpp"
#include "common_options.hpp"
#include "filter_file.hpp"
#include "numbers.hpp"
#include "resume_check.hpp"
#include "window_spec.hpp"

namespace bloom_cli {

namespace {

// The kind used without --kind.
constexpr int kDefaultDedupKind = BLOOM_KIND_SCALABLE;
// A scalable filter's first stage: small, since it grows by stages.
constexpr uint64_t kDefaultScalableFirstStage = 100000;

const char kHelp[] =
    "Usage: bloom dedup [INPUT...] [-p RATE] [-n CAPACITY] [--window W] [options]\n"
    "\n"
    "Copy lines from INPUT (default: standard input) to standard output, each\n"
    "the first time it is seen; repeats are dropped. A new line is wrongly\n"
    "dropped with probability at most RATE; a repeat is never let through.\n"
    "Counts go to stderr at the end. '\\r\\n' line ends are written as '\\n'.\n"
    "\n"
    "Options:\n"
    "  -p, --rate RATE       false-positive rate, 0.001 or 0.1% (default 0.01)\n"
    "  -n, --capacity N      scalable: the first stage's capacity (default 100,000);\n"
    "                        other kinds: the expected distinct lines (default 1,000,000)\n"
    "  --kind KIND           scalable (default: memory grows with the stream), or a\n"
    "                        fixed-size kind: @FIXED_KINDS@;\n"
    "                        past -n distinct lines a fixed-size filter drops more new\n"
    "                        lines than RATE: dedup names the line where that happens\n"
    "                        and exits with status 3\n"
    "  --window W            remember only a sliding window, forget older lines, in\n"
    "                        fixed memory (the window kind): a count, 10M = the last\n"
    "                        ten million lines, or a time, 90s, 30min, 1h, 24h (with\n"
    "                        -n, the most lines one window holds; the clock is\n"
    "                        monotonic). No repeat inside the window is let through.\n"
    "  --event-time          time window: each line is MILLISECONDS<TAB>KEY and the\n"
    "                        stamp is the clock (replaying a log); the whole line is\n"
    "                        passed, the key alone is compared\n"
    "  --hash HASH           @HASHES@ (default xxh3)\n"
    "  --seed SEED           hash seed (default 0)\n"
    "  --growth G            scalable: capacity factor of each new stage (default 2)\n"
    "  --tightening R        scalable: error factor of each new stage (default 0.85)\n"
    "  --split-block         blocked: 32-byte blocks with k = 8 (more memory, faster)\n"
    "  --save FILTER         keep the filter of seen lines in FILTER: written every\n"
    "                        --checkpoint, on SIGTERM, SIGINT or SIGHUP (then the exit\n"
    "                        status is 128 + the signal), and at the end of input\n"
    "  --checkpoint EVERY    with --save: a time, 10s (default), 5min, or a count of\n"
    "                        lines, 1M; 0 = only on a signal and at the end. A\n"
    "                        SIGKILL or power cut may let the lines passed since the\n"
    "                        last checkpoint pass once more after --resume\n"
    "  --resume FILTER       start from FILTER (written by --save) if it exists; its\n"
    "                        own options are kept, and options given must match them\n"
    "  -q, --quiet           no counts on stderr\n"
    "  --literal             accepted as by build and query; dedup always compares\n"
    "                        every line as written (no header line, no ':Q')\n"
    "\n"
    "Exit status: 0 success; 3 a fixed-size filter went past its capacity (-n),\n"
    "so more new lines than RATE may have been dropped; 2 error.\n"
    "\n"
    "Examples:\n"
    "  tail -f clicks.log | cut -f1 | bloom dedup -p 0.001 > unique-ids.txt\n"
    "  # click IDs at 10,000 a second, repeats forgotten after an hour,\n"
    "  # in ~124 MB whatever the stream's length; the state survives restarts:\n"
    "  tail -f clicks.log | cut -f1 | bloom dedup --window 1h -n 36e6 -p 0.001 \\\n"
    "      --resume ids.bloom --save ids.bloom > unique-ids.txt\n"
    "  bloom dedup --window 10M ids.txt   # the last ten million lines\n";

const std::vector<OptionSpec> kOwnOptions = {
    {"save", 0, true},        {"checkpoint", 0, true}, {"resume", 0, true},  {"window", 0, true},
    {"event-time", 0, false}, {"quiet", 'q', false},   {"literal", 0, false}};

const char kWriteError[] = "cannot write the output";

// Lines wait here until the batch is full or the input is about to be read
// again; then one bloom_test_and_add_batch call decides them all. A time
// window advances its clock once per batch: to the monotonic clock, or with
// --event-time to the first line's stamp, and a batch ends before a line
// whose stamp would retire a generation (or goes back in time), so every
// line is decided exactly as if the clock had been advanced line by line.
class DedupBatch {
 public:
  DedupBatch(bloom_filter *f, bool clock, bool event_time, BurstWarning *burst)
      : filter_(f), clock_(clock), event_time_(event_time), burst_(burst) {}

  // A fixed-size filter holding `held` distinct lines (from --resume) with
  // room for `capacity`: the line that takes it past its capacity is named on
  // stderr at once. Every line that passed is distinct (a repeat never
  // passes), so held + passed() counts distinct lines exactly.
  void limit_to(uint64_t capacity, uint64_t held, double rate) {
    capacity_ = capacity;
    held_ = held;
    rate_ = rate;
    if (held > capacity)
      std::fprintf(
          stderr,
          "bloom dedup: warning: the resumed filter already holds %s distinct lines, past its capacity "
          "of %s: more than a fraction %s of new lines will be dropped as repeats, and dedup will exit "
          "with status 3\n",
          format_count(held).c_str(), format_count(capacity).c_str(), format_double(rate).c_str());
  }
  bool over_capacity() const { return capacity_ != 0 && held_ + passed_ > capacity_; }

  void push(std::string_view line, uint64_t line_number) {
    std::string_view key = line;
    if (event_time_) {
      const size_t tab = line.find('\t');
      const std::string_view stamp = line.substr(0, tab);
      uint64_t ms = 0;
      bool ok = tab != std::string_view::npos && !stamp.empty() && stamp.size() <= 19;
      for (char c : stamp)
        ok = ok && c >= '0' && c <= '9' && (ms = ms * 10 + static_cast<uint64_t>(c - '0'), true);
      if (!ok)
        throw CliError("line " + std::to_string(line_number) +
                       ": --event-time expects MILLISECONDS<TAB>KEY (a whole number of at most 19 digits)");
      if (!ends_.empty() && (ms < first_ms_ || ms >= retire_ms_)) flush();
      if (ends_.empty()) start_batch(ms);
      key = line.substr(tab + 1);
    } else if (ends_.empty() && clock_) {
      start_batch(monotonic_ms());
    }
    // The line with its '\n': passed lines go out as runs, one fwrite each.
    arena_.append(line);
    arena_.push_back('\n');
    ends_.push_back(arena_.size());
    key_offset_.push_back(line.size() - key.size());
    if (ends_.size() == kBatchLines) flush();
  }

  void flush() {
    if (ends_.empty()) return;
    ptrs_.clear();
    lens_.clear();
    for (size_t i = 0, start = 0; i < ends_.size(); start = ends_[i++]) {
      ptrs_.push_back(arena_.data() + start + key_offset_[i]);
      lens_.push_back(ends_[i] - 1 - start - key_offset_[i]);
    }
    seen_.resize(ends_.size());
    const bloom_status s =
        bloom_test_and_add_batch(filter_, ptrs_.data(), lens_.data(), ends_.size(), seen_.data());
    if (s != BLOOM_OK)
      fail_library(
          "cannot add lines " + std::to_string(read_ + 1) + " to " + std::to_string(read_ + ends_.size()), s);
    read_ += ends_.size();
    // A batch lies within one generation (start_batch), so its lines are
    // the generation's.
    generation_lines_ += ends_.size();
    if (burst_ != nullptr) burst_->observe(generation_lines_, generation_start_, first_ms_);
    // Runs of passed lines (most lines pass) in one fwrite each: per line,
    // fwrite and fputc were ~4% of the CLI's profile.
    size_t run = 0;  // where the current run of passed lines starts
    for (size_t i = 0, start = 0; i < ends_.size(); start = ends_[i++]) {
      if (!seen_[i]) {
        if (++passed_ + held_ == capacity_ + 1 && capacity_ != 0) warn_full(read_ - ends_.size() + i + 1);
        continue;
      }
      if (start > run) std::fwrite(arena_.data() + run, 1, start - run, stdout);
      run = ends_[i];
    }
    if (arena_.size() > run) std::fwrite(arena_.data() + run, 1, arena_.size() - run, stdout);
    check_stdout(kWriteError);
    arena_.clear();
    ends_.clear();
    key_offset_.clear();
  }

  uint64_t read() const { return read_; }
  size_t pending() const { return ends_.size(); }
  uint64_t passed() const { return passed_; }

 private:
  static constexpr size_t kBatchLines = 1024;

  // Said even with --quiet: from here on new lines are lost beyond the rate.
  void warn_full(uint64_t line) const {
    std::fprintf(
        stderr,
        "bloom dedup: warning: line %s takes the filter past its capacity of %s distinct lines (-n): "
        "from here on more than a fraction %s of new lines will be dropped as repeats, and dedup will "
        "exit with status 3; use the default scalable kind, which grows, or raise -n\n",
        format_count(line).c_str(), format_count(capacity_).c_str(), format_double(rate_).c_str());
  }

  // Advances the clock. bloom_get_info (a pass over the whole filter) only
  // to learn the generation's length d and start, and again when the clock
  // went back; a clock moving forward past the retirement moves the start
  // on by whole periods d, as bloom_advance does (bloom_get_info counts
  // every bit, so even once per generation it showed in a profile of the
  // dedup_day benchmark).
  void start_batch(uint64_t now) {
    if (!clock_) return;
    const bloom_status s = bloom_advance(filter_, now);
    if (s != BLOOM_OK) fail_library("cannot advance the window's clock", s);
    if (known_ && now >= first_ms_) {
      first_ms_ = now;
      if (now < retire_ms_) return;
      new_generation(0);
      generation_ += (now - generation_start_) / generation_ms_;
      generation_start_ += (now - generation_start_) / generation_ms_ * generation_ms_;
      set_retire();
      return;
    }
    const bloom_info info = filter_info(filter_);
    first_ms_ = now;
    // The filter's own count (a resumed generation, a clock that went back).
    if (known_ && info.generation != generation_) new_generation(0);
    generation_lines_ = info.generation_keys;
    generation_ = info.generation;
    generation_start_ = info.generation_start_ms;
    generation_ms_ = info.generation_ms;
    set_retire();
    known_ = generation_ms_ != 0;
  }
  void new_generation(uint64_t lines) {
    if (burst_ != nullptr) burst_->generation_ended(generation_lines_);
    generation_lines_ = lines;
  }
  void set_retire() {
    const uint64_t end = generation_start_ + generation_ms_;
    retire_ms_ = end < generation_start_ ? UINT64_MAX : end;
  }

  bloom_filter *filter_;
  bool clock_, event_time_;
  std::string arena_;
  std::vector<size_t> ends_;
  std::vector<size_t> key_offset_;  // the key starts after "MS\t" (--event-time)
  std::vector<const void *> ptrs_;
  std::vector<size_t> lens_;
  std::vector<uint8_t> seen_;
  uint64_t first_ms_ = 0, retire_ms_ = UINT64_MAX;
  uint64_t generation_start_ = 0, generation_ms_ = 0;
  bool known_ = false;  // generation_start_ and generation_ms_ are the filter's
  BurstWarning *burst_;
  uint64_t generation_ = 0;        // time window: the current generation's number
  uint64_t generation_lines_ = 0;  // and its lines
  uint64_t read_ = 0, passed_ = 0;
  uint64_t capacity_ = 0, held_ = 0;  // capacity_ 0: the filter grows or forgets
  double rate_ = 0;
};

bool file_exists(const std::string &path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0;
}

// --window: the window kind with its W (count) or T and -n (time).
void apply_window(const Args &args, bloom_options *o) {
  const auto text = args.value("window");
  const bool forgets = (bloom_kind_caps(o->kind) & BLOOM_CAP_FORGETS) != 0;
  if (!text) {
    if (forgets) throw CliError("--kind window needs --window (e.g. --window 10M or 1h)");
    return;
  }
  if (args.has("kind") && !forgets)
    throw CliError("--window makes a window filter; it does not combine with --kind " + *args.value("kind"));
  const WindowSpec w = parse_window(*text);
  o->kind = BLOOM_KIND_WINDOW;
  if (w.count != 0) {
    if (args.has("capacity"))
      throw CliError("a count window remembers --window lines; -n applies to time windows only");
    o->capacity = w.count;
  } else {
    if (!args.has("capacity"))
      throw CliError(
          "a time window needs -n, the most lines one window holds (10,000 lines a second "
          "for an hour is -n 36e6)");
    o->window_ms = w.ms;
  }
}

int run(int argc, char **argv) {
  const Args args(concat(kOwnOptions, kFilterOptions), argc, argv, 2);
  if (args.help()) {
    print_help(kDedupCommand);
    return kExitOk;
  }
  bloom_options o;
  bloom_options_init(&o);
  o.kind = kDefaultDedupKind;
  apply_filter_options(args, &o);
  // save_filter takes '-' for stdout, which here carries the lines.
  if (auto save = args.value("save"); save && *save == "-")
    throw CliError(
        "--save - would write the filter into the de-duplicated lines on standard output; "
        "give a file name");
  if (auto save = args.value("save")) check_output_path(*save, "--save");
  apply_window(args, &o);
  if (o.kind == BLOOM_KIND_SCALABLE && !args.has("capacity")) o.capacity = kDefaultScalableFirstStage;
  FilterPtr filter;
  if (auto resume = args.value("resume"); resume && file_exists(*resume)) {
    filter = load_filter(*resume);
    check_resumed(filter_info(filter.get()), o, args, *resume);
  } else {
    bloom_filter *raw = nullptr;
    const bloom_status s = bloom_create(&o, &raw);
    if (s != BLOOM_OK) fail_library("cannot create the filter", s);
    filter.reset(raw);
  }
  const bloom_info made = filter_info(filter.get());
  const bool timed = (bloom_kind_caps(made.kind) & BLOOM_CAP_FORGETS) != 0 && made.window_ms != 0;
  if (args.has("event-time") && !timed)
    throw CliError("--event-time needs a time window (--window 1h and -n)");
  std::vector<std::string> inputs = args.positional();
  if (inputs.empty()) inputs.push_back("-");
  std::unique_ptr<BurstWarning> burst;
  if (timed) {
    // Reading a regular file without --event-time at a time window is the
    // usual way to meet a burst: the whole file arrives in a moment.
    bool file_input = false;
    for (const auto &path : inputs) file_input = file_input || (path != "-" && file_exists(path));
    burst = std::make_unique<BurstWarning>(made.generation_capacity, made.window_l, made.generation_ms,
                                           made.window_ms, made.capacity, made.fp_rate,
                                           args.has("event-time"), file_input && !args.has("event-time"));
    burst->set_quiet(args.has("quiet"));
  }
  DedupBatch batch(filter.get(), timed, args.has("event-time"), burst.get());
  if (has_fixed_capacity(made.kind)) batch.limit_to(made.capacity, made.keys_added, made.fp_rate);

  const auto save = args.value("save");
  if (args.has("checkpoint") && !save) throw CliError("--checkpoint needs --save FILE, where the state goes");
  CheckpointEvery every{0, kDefaultCheckpointMs};
  if (auto c = args.value("checkpoint")) every = parse_checkpoint(*c);
  std::unique_ptr<StopSignals> stop;
  std::unique_ptr<Checkpointer> checkpoints;
  if (save) {
    stop = std::make_unique<StopSignals>();
    checkpoints = std::make_unique<Checkpointer>(filter.get(), *save, every, monotonic_ms());
  }
  // Checked every kCheckLines lines (a clock read) and before each wait
  // for input; a stop signal between lines.
  constexpr uint64_t kCheckLines = 1024;
  const auto checkpoint_if_due = [&] {
    const uint64_t now = monotonic_ms();
    if (!checkpoints->due(batch.read() + batch.pending(), now)) return;
    batch.flush();
    checkpoints->save(batch.read(), now);
  };
  int stopped = 0;
  try {
    for (const auto &path : inputs) {
      auto in = InputStream::open(path);
      if (checkpoints)
        in->wait_with(stop->wake_fd(), [&] {
          stop->drain();
          if (const int sig = stop->pending()) throw StopRequested{sig};
          checkpoint_if_due();
          return checkpoints->wait_ms(batch.read(), monotonic_ms());
        });
      LineReader lines(*in);
      // Whatever has passed is written before waiting for more input.
      lines.before_read([&batch] {
        batch.flush();
        flush_stdout(kWriteError);
      });
      std::string_view line;
      uint64_t count = 0;
      while (lines.next(line)) {
        batch.push(line, lines.line_number());
        if (!checkpoints) continue;
        if (const int sig = stop->pending()) throw StopRequested{sig};
        if (++count % kCheckLines == 0) checkpoint_if_due();
      }
      batch.flush();
    }
  } catch (const StopRequested &s) {
    // Lines read are decided and passed on before the state is saved.
    stopped = s.signal;
    batch.flush();
  }
  flush_stdout(kWriteError);
  const uint64_t read = batch.read(), passed = batch.passed();
  if (checkpoints) checkpoints->save(read, monotonic_ms());
  if (!args.has("quiet")) {
    const bloom_info info = filter_info(filter.get());
    std::fprintf(stderr, "bloom dedup: %s lines read, %s passed, %s dropped (%s, %s, %u stage%s)\n",
                 format_count(read).c_str(), format_count(passed).c_str(),
                 format_count(read - passed).c_str(), kind_label(info.kind).c_str(),
                 format_bytes(info.bytes).c_str(), info.stages, info.stages == 1 ? "" : "s");
    if (stopped != 0)
      std::fprintf(stderr, "bloom dedup: stopped by signal %d (%s); the state is saved in %s\n", stopped,
                   strsignal(stopped), save->c_str());
  }
  // The shell's convention for a command ended by a signal comes first.
  const int status = stopped != 0 ? 128 + stopped : kExitOk;
  if (!batch.over_capacity()) return status;
  // The true numbers, said even with --quiet: distinct lines held (each one
  // passed, or came from --resume), and the rate the full filter now has.
  const bloom_info info = filter_info(filter.get());
  const uint64_t dropped = read - passed;
  const std::string lost = dropped > 0 ? ", and some of the " + format_count(dropped) +
                                             " dropped lines may be new lines taken for repeats"
                                       : "";
  std::fprintf(stderr,
               "bloom dedup: the %s filter holds %s distinct lines, %.1fx its capacity of %s: its "
               "false-positive rate is now %s (asked: %s)%s\n",
               kind_label(info.kind).c_str(), format_count(info.keys_added).c_str(),
               static_cast<double>(info.keys_added) / static_cast<double>(info.capacity),
               format_count(info.capacity).c_str(), format_double(info.expected_fp_rate, 4).c_str(),
               format_double(info.fp_rate).c_str(), lost.c_str());
  return stopped != 0 ? status : kExitOverCapacity;
}

}  // namespace

const Command kDedupCommand{"dedup", "pass stdin lines to stdout the first time they are seen", kHelp, run};

}  // namespace bloom_cli
