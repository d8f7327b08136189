// What npython says about its regions: the NPY_JIT_LOG channels (to
// stderr) and the records `npython --explain` prints at exit. Sites are
// places in the program ("kmeans.py:12"), registered once each.
#pragma once

#include <string>

namespace npy::jit {

enum class LogChannel : unsigned { kRegions = 1, kOutputCode = 2, kDeopt = 4, kFallback = 8 };

// Parses an NPY_JIT_LOG value (comma list of regions, output_code, deopt,
// fallback, or all); returns false for anything else.
bool parse_log_channels(const std::string& text, unsigned& mask);
void set_log_channels(unsigned mask);
bool log_enabled(LogChannel channel);
// One log entry to stderr, each line prefixed "[npython:<channel>] ".
void log_text(LogChannel channel, const std::string& text);

// npython steps aside for part or all of the run (a tracer or profiler is
// active, an unsupported NumPy): the program runs on, and `why` is said once
// on stderr ("npython: <why>") when any NPY_JIT_LOG channel is on, and at
// the top of the --explain report in any case.
void note_stepped_aside(const std::string& why);

int register_site(const std::string& where);
const std::string& site_text(int site);

// --explain: every region boundary and every eager NumPy call, by kind,
// description, site and reason, with a count and the seconds spent running
// what it materialized (or the eager call itself), and a hint where one
// helps. The report ends with the run's time shares (common/stats.h).
void set_explain(bool on);
bool explain_enabled();
// `hint_if_repeated`: the hint is shown only where the row counts more than
// one (a loop), as for a materialization a top-level loop repeats.
void record_boundary(const std::string& kind, const std::string& what, int site, double seconds,
                     const std::string& reason = {}, const std::string& hint = {},
                     bool hint_if_repeated = false);
std::string format_explain();

}  // namespace npy::jit
