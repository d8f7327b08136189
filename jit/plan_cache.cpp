#include "jit/plan_cache.h"

#include <cstring>
#include <memory>
#include <unordered_map>

#include "jit/host.h"
#include "jit/trace_log.h"

namespace npy::jit {
namespace {

// What a plan depends on, as numbers: every node's op, types, shape,
// operands, axes, whether it is needed and leaves, and the exponents of
// powers (x**2 compiles apart; integer exponents exactly); for a plan of a
// loop per line, each node's site too. Other constants are run-time
// values. (Regions of other lines with the same ops share a fused plan,
// and so its runs_by_line.)
void plan_key(const Region& region, const std::vector<bool>& needed, const std::vector<bool>& leaves,
              bool loop_per_line, std::vector<std::int64_t>& key) {
  key.clear();
  key.push_back(loop_per_line);
  for (std::size_t i = 0; i < region.nodes.size(); ++i) {
    const Node& n = region.nodes[i];
    key.push_back(static_cast<std::int64_t>(n.op) | static_cast<std::int64_t>(n.dtype) << 8 |
                  static_cast<std::int64_t>(n.compute) << 16 | static_cast<std::int64_t>(n.keepdims) << 24 |
                  static_cast<std::int64_t>(n.is_scalar_constant) << 25 |
                  static_cast<std::int64_t>(needed[i]) << 26 | static_cast<std::int64_t>(leaves[i]) << 27 |
                  static_cast<std::int64_t>(n.stepped) << 28 |
                  static_cast<std::int64_t>(n.axes) << 32);
    key.push_back(static_cast<std::int64_t>(n.shape.size()));
    key.insert(key.end(), n.shape.begin(), n.shape.end());
    key.insert(key.end(), n.inputs, n.inputs + 3);
    if (n.op == Op::power) {
      const Node& exponent = region.nodes[n.inputs[1]];
      std::int64_t bits = 0;
      std::memcpy(&bits, &exponent.constant_float, sizeof bits);
      key.push_back(bits);
      key.push_back(exponent.constant_int);  // an integer power's, which a double may round
    }
    if (loop_per_line) key.push_back(n.site);
  }
}

struct KeyHash {
  std::size_t operator()(const std::vector<std::int64_t>& key) const {
    std::uint64_t h = 1469598103934665603ull;
    for (std::int64_t v : key) h = (h ^ static_cast<std::uint64_t>(v)) * 1099511628211ull;
    return static_cast<std::size_t>(h);
  }
};

// Plans kept at most: a program that records ever new regions (sizes that
// keep changing) starts over rather than growing without bound.
constexpr std::size_t kMaxPlans = 4096;

}  // namespace

std::shared_ptr<CachedPlan> plan_for(Backend* backend, const Region& region, const std::vector<bool>& needed,
                                     const std::vector<bool>& leaves, bool loop_per_line) {
  static std::unordered_map<std::vector<std::int64_t>, std::shared_ptr<CachedPlan>, KeyHash> plans[2];
  auto& cache = plans[backend != nullptr];
  // Written anew for every region, in room kept from the last one.
  static std::vector<std::int64_t> key;
  plan_key(region, needed, leaves, loop_per_line, key);
  const auto found = cache.find(key);
  if (found != cache.end()) return found->second;
  std::vector<std::int64_t> new_key = key;
  if (cache.size() >= kMaxPlans) cache.clear();
  auto plan = std::make_shared<CachedPlan>();
  if (backend) {
    plan->steps = plan_region(region, needed, leaves, [backend](const Region& r, int node) {
      return backend->fuse_class(r, node);
    }, &plan->kernel_region, loop_per_line);
    const bool logged = log_enabled(LogChannel::kOutputCode);
    std::vector<std::string> declined;
    if (loop_per_line) {
      declined.push_back("one loop per program line: a loop over several lines raised a floating-point flag "
                         "NumPy reports, which the line that raised it reports");
    }
    keep_folds_that_pay(region, plan->steps, host_threads(), logged ? &declined : nullptr);
    plan->block_runs =
        schedule_blocks(region, plan->steps, leaves, host_threads(), host_caches(), logged ? &declined : nullptr);
    plan->nests.resize(plan->steps.size());
    const std::vector<std::uint32_t> folded = folded_axes(plan->kernel_region, plan->steps);
    std::string nests;
    for (std::size_t s = 0; s < plan->steps.size(); ++s) {
      const Step& step = plan->steps[s];
      if (step.eager) continue;
      if (step.chain) {
        plan->nests[s] = lower_chain(region, step.reduction_chain);
        if (logged) nests += "step " + std::to_string(s + 1) + " as a loop nest: " + dump_nest(plan->nests[s]);
        continue;
      }
      std::vector<int> tiles;
      for (const BlockRun& run : plan->block_runs) {
        if (s >= run.first && s <= run.last) tiles = run.tiles;
      }
      plan->nests[s] = lower_group(plan->kernel_region, step.group, folded, tiles);
      if (logged) nests += "step " + std::to_string(s + 1) + " as a loop nest: " + dump_nest(plan->nests[s]);
    }
    if (logged) {
      log_text(LogChannel::kOutputCode,
               describe_schedule(region, plan->steps, plan->block_runs, declined) + nests);
    }
  } else {
    for (std::size_t i = 0; i < needed.size(); ++i) {
      if (!needed[i] || region.nodes[i].op == Op::input) continue;
      Step step;
      step.eager = true;
      step.node = static_cast<int>(i);
      plan->steps.push_back(std::move(step));
    }
  }
  plan->code.resize(plan->steps.size());
  cache.emplace(std::move(new_key), plan);
  return plan;
}

}  // namespace npy::jit
