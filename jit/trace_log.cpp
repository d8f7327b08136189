#include "jit/trace_log.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <sstream>
#include <tuple>
#include <vector>

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
};
std::map<std::tuple<std::string, std::string, int>, BoundaryTotal>& boundaries() {
  static std::map<std::tuple<std::string, std::string, int>, BoundaryTotal> all;
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

void record_boundary(const std::string& kind, const std::string& what, int site, double seconds) {
  BoundaryTotal& total = boundaries()[{kind, what, site}];
  ++total.count;
  total.seconds += seconds;
}

std::string format_explain() {
  struct Row {
    std::string kind, what, where;
    BoundaryTotal total;
  };
  std::vector<Row> rows;
  for (const auto& [key, total] : boundaries()) {
    rows.push_back({std::get<0>(key), std::get<1>(key), site_text(std::get<2>(key)), total});
  }
  std::stable_sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) {
    return a.total.seconds > b.total.seconds;
  });
  std::ostringstream out;
  out << "npython --explain: " << rows.size()
      << " region boundaries and fallbacks, most costly first\n";
  char line[64];
  for (const Row& row : rows) {
    std::snprintf(line, sizeof line, "%10.3f ms %8ld x  ", row.total.seconds * 1e3, row.total.count);
    out << line << row.kind << ": " << row.what << " at " << row.where << '\n';
  }
  return out.str();
}

}  // namespace npy::jit
