#include "common/stats.h"

#include <map>
#include <memory>
#include <mutex>
#include <sstream>

namespace npy {
namespace {

struct Registry {
  std::mutex mutex;
  std::map<std::string, std::unique_ptr<Counter>> counters;
};

Registry& registry() {
  // Never destroyed: counters may be bumped by threads still running while
  // the process exits.
  static Registry* instance = new Registry;
  return *instance;
}

}  // namespace

Counter& counter(const std::string& name) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  std::unique_ptr<Counter>& slot = r.counters[name];
  if (!slot) slot = std::make_unique<Counter>();
  return *slot;
}

std::vector<std::pair<std::string, std::uint64_t>> snapshot_counters() {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  std::vector<std::pair<std::string, std::uint64_t>> out;
  out.reserve(r.counters.size());
  for (const auto& [name, c] : r.counters) out.emplace_back(name, c->value());
  return out;
}

std::string format_counters() {
  std::ostringstream text;
  text << "npython stats:\n";
  const auto counters = snapshot_counters();
  std::size_t width = 0;
  for (const auto& entry : counters) width = std::max(width, entry.first.size());
  for (const auto& [name, value] : counters) {
    text << "  " << name << std::string(width - name.size() + 2, ' ') << value << '\n';
  }
  return text.str();
}

std::string format_counters_json() {
  // Counter names are npython's own identifiers: letters, digits, '.', '_'.
  std::ostringstream text;
  text << '{';
  bool first = true;
  for (const auto& [name, value] : snapshot_counters()) {
    text << (first ? "" : ", ") << '"' << name << "\": " << value;
    first = false;
  }
  text << "}\n";
  return text.str();
}

}  // namespace npy
