#include "jit/trace_log.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <sstream>
#include <tuple>
#include <vector>

#include "common/stats.h"

namespace npy::jit {
namespace {

unsigned g_log_mask = 0;
bool g_explain = false;

struct ChannelName {
  const char* name;
  LogChannel channel;
};
const ChannelName kChannels[] = {{"regions", LogChannel::kRegions},
                                 {"output_code", LogChannel::kOutputCode},
                                 {"deopt", LogChannel::kDeopt},
                                 {"fallback", LogChannel::kFallback}};

std::vector<std::string>& sites() {
  static std::vector<std::string> all;
  return all;
}

struct BoundaryTotal {
  long count = 0;
  double seconds = 0;
  std::string hint;
  bool hint_if_repeated = false;
};
// By kind, what, site and reason.
using BoundaryKey = std::tuple<std::string, std::string, int, std::string>;
std::map<BoundaryKey, BoundaryTotal>& boundaries() {
  static std::map<BoundaryKey, BoundaryTotal> all;
  return all;
}

}  // namespace

bool parse_log_channels(const std::string& text, unsigned& mask) {
  mask = 0;
  std::istringstream items(text);
  std::string item;
  while (std::getline(items, item, ',')) {
    if (item == "all") {
      for (const ChannelName& c : kChannels) mask |= static_cast<unsigned>(c.channel);
      continue;
    }
    const auto found = std::find_if(std::begin(kChannels), std::end(kChannels),
                                    [&](const ChannelName& c) { return item == c.name; });
    if (found == std::end(kChannels)) return false;
    mask |= static_cast<unsigned>(found->channel);
  }
  return true;
}

void set_log_channels(unsigned mask) { g_log_mask = mask; }

bool log_enabled(LogChannel channel) { return (g_log_mask & static_cast<unsigned>(channel)) != 0; }

namespace {
std::vector<std::string> g_stepped_aside;  // each reason once, in the order they came
}  // namespace

void note_stepped_aside(const std::string& why) {
  if (std::find(g_stepped_aside.begin(), g_stepped_aside.end(), why) != g_stepped_aside.end()) return;
  g_stepped_aside.push_back(why);
  if (g_log_mask != 0) std::fprintf(stderr, "npython: %s\n", why.c_str());
}

void log_text(LogChannel channel, const std::string& text) {
  const char* name = "";
  for (const ChannelName& c : kChannels) {
    if (c.channel == channel) name = c.name;
  }
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) std::fprintf(stderr, "[npython:%s] %s\n", name, line.c_str());
  std::fflush(stderr);
}

int register_site(const std::string& where) {
  sites().push_back(where);
  return static_cast<int>(sites().size()) - 1;
}

const std::string& site_text(int site) {
  static const std::string unknown = "<unknown>";
  return site >= 0 && site < static_cast<int>(sites().size()) ? sites()[site] : unknown;
}

void set_explain(bool on) { g_explain = on; }
bool explain_enabled() { return g_explain; }

void record_boundary(const std::string& kind, const std::string& what, int site, double seconds,
                     const std::string& reason, const std::string& hint, bool hint_if_repeated) {
  BoundaryTotal& total = boundaries()[{kind, what, site, reason}];
  ++total.count;
  total.seconds += seconds;
  if (total.hint.empty()) {
    total.hint = hint;
    total.hint_if_repeated = hint_if_repeated;
  }
}

std::string format_explain() {
  struct Row {
    std::string kind, what, where, reason;
    BoundaryTotal total;
  };
  // One row per line of the program: the places of one line (two calls on
  // it, say) are sites of their own.
  std::map<std::tuple<std::string, std::string, std::string, std::string>, BoundaryTotal> by_line;
  for (const auto& [key, total] : boundaries()) {
    BoundaryTotal& row = by_line[{std::get<0>(key), std::get<1>(key), site_text(std::get<2>(key)), std::get<3>(key)}];
    row.count += total.count;
    row.seconds += total.seconds;
    if (row.hint.empty()) {
      row.hint = total.hint;
      row.hint_if_repeated = total.hint_if_repeated;
    }
  }
  std::vector<Row> rows;
  for (const auto& [key, total] : by_line) {
    rows.push_back({std::get<0>(key), std::get<1>(key), std::get<2>(key), std::get<3>(key), total});
  }
  std::stable_sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) {
    return a.total.seconds > b.total.seconds;
  });
  std::ostringstream out;
  for (const std::string& why : g_stepped_aside) out << "npython stepped aside: " << why << '\n';
  out << "npython --explain: " << rows.size()
      << " region boundaries and eager NumPy calls, most costly first\n";
  char line[64];
  for (const Row& row : rows) {
    const int width = std::snprintf(line, sizeof line, "%10.3f ms %8ld x  ", row.total.seconds * 1e3,
                                    row.total.count);
    out << line << row.kind << ": " << row.what << " at " << row.where;
    if (!row.reason.empty()) out << ": " << row.reason;
    out << '\n';
    if (!row.total.hint.empty() && (!row.total.hint_if_repeated || row.total.count > 1)) out << std::string(static_cast<std::size_t>(width), ' ') << "hint: " << row.total.hint << '\n';
  }
  out << format_time_shares(time_shares()) << '\n';
  return out.str();
}

}  // namespace npy::jit
