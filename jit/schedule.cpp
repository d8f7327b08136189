#include "jit/schedule.h"

#include <algorithm>
#include <set>

#include "jit/fold.h"

namespace npy::jit {
namespace {

// A value lies along a loop's rows when it has the loop's rank and its
// first dimension is the loop's: row i of the loop reads row i of it.
bool along_rows(const Node& node, const Shape& loop) {
  return node.shape.size() == loop.size() && !loop.empty() && node.shape[0] == loop[0];
}

// Whether fused step `step` may join a block run over `rows` rows that
// computes `computed` before it: its loop's first dimension is the rows,
// which its reductions keep, and what it reads of the run's values it
// reads at its own rows.
bool may_join(const Region& region, const Group& group, std::int64_t rows, const std::set<int>& computed) {
  // (A fold's rows are its reduced ones, run in order by one thread.)
  if (!group.folds.empty() || group.shape.size() < 2 || group.shape[0] != rows || group.reduced_dims >= static_cast<int>(group.shape.size())) {
    return false;
  }
  for (int in : group.inputs) {
    if (computed.count(in) && !along_rows(region.nodes[in], group.shape)) return false;
  }
  return true;
}

// Whether the view `node` (a step NumPy makes) may stand between two steps
// of a block run over `rows` rows that computes `computed` before it: a
// view of a value computed outside the run, or one whose rows are its
// operand's rows (x.max(1)[:, None]; the runner checks that NumPy made it
// so, and that it is a view, before the run).
bool view_may_join(const Region& region, int node, std::int64_t rows, const std::set<int>& computed) {
  const Node& view = region.nodes[node];
  if (op_info(view.op).kind != OpKind::kView) return false;
  const Node& operand = region.nodes[view.inputs[0]];
  return !computed.count(view.inputs[0]) ||
         (!view.shape.empty() && view.shape[0] == rows && !operand.shape.empty() && operand.shape[0] == rows);
}

// The bytes a row of the run reads or writes of the values along its rows.
std::int64_t row_bytes(const Region& region, const std::vector<Step>& steps, std::size_t first, std::size_t last) {
  std::set<int> values;
  for (std::size_t s = first; s <= last; ++s) {
    const Group& g = steps[s].group;
    for (int v : g.inputs) values.insert(v);
    for (int v : g.outputs) values.insert(v);
    for (int v : g.reductions) values.insert(v);
  }
  const std::int64_t rows = steps[first].group.shape[0];
  std::int64_t bytes = 0;
  for (int v : values) {
    const Node& n = region.nodes[v];
    if (n.shape.empty() || n.shape[0] != rows) continue;
    bytes += element_count(n.shape) / rows * itemsize(n.dtype);
  }
  return bytes;
}

// The nodes steps first..last compute that only later steps of the run read.
std::vector<int> tiles_of(const Region& region, const std::vector<Step>& steps, std::size_t first, std::size_t last,
                          const std::vector<bool>& leaves) {
  std::vector<int> tiles;
  for (std::size_t s = first; s < last; ++s) {
    for (int o : steps[s].group.outputs) {
      bool inside_only = !leaves[o];
      for (std::size_t t = 0; t < steps.size() && inside_only; ++t) {
        for (int m : step_nodes(steps[t])) {
          for (int a = 0; a < op_info(region.nodes[m].op).arity; ++a) {
            if (region.nodes[m].inputs[a] == o && (t < s || t > last || steps[t].eager)) inside_only = false;
          }
        }
      }
      if (inside_only) tiles.push_back(o);
    }
  }
  return tiles;
}

std::string megabytes(std::int64_t bytes) {
  return std::to_string((bytes + (1 << 19)) >> 20) + " MiB";
}

std::string kilobytes(std::int64_t bytes) { return std::to_string((bytes + 512) >> 10) + " KiB"; }

std::string shape_text(const Shape& shape) {
  std::string text = "[";
  for (std::size_t d = 0; d < shape.size(); ++d) text += (d ? "," : "") + std::to_string(shape[d]);
  return text + "]";
}

// The fewest elements a block covers: each step's kernel call costs about
// a microsecond, which a smaller block would not pay back.
constexpr std::int64_t kMinBlockElements = 1 << 14;

void erase(std::vector<int>& v, int x) { v.erase(std::remove(v.begin(), v.end(), x), v.end()); }

}  // namespace

void keep_folds_that_pay(const Region& region, std::vector<Step>& steps, int threads,
                         std::vector<std::string>* declined) {
  for (std::size_t s = 0; s < steps.size(); ++s) {
    if (steps[s].eager || steps[s].chain || steps[s].group.folds.empty()) continue;
    Group& group = steps[s].group;
    const int r = static_cast<int>(group.shape.size());
    int widest = 1;
    for (int m : group.members) widest = std::max(widest, itemsize(region.nodes[m].dtype));
    for (int in : group.inputs) {
      if (in < static_cast<int>(region.nodes.size())) widest = std::max(widest, itemsize(region.nodes[in].dtype));
    }
    std::int64_t outer = 1;  // the kept dimensions but the innermost
    for (int d = 0; d + 1 < r; ++d) {
      if (!(group.folds[0].axes & (1u << d))) outer *= group.shape[d];
    }
    // The innermost folded dimension, which folds that may run in any order
    // are cut into pieces of too (when all of the loop's folds may).
    std::int64_t innermost = 1;
    for (int d = 0; d + 1 < r; ++d) {
      if ((group.folds[0].axes & (1u << d)) && group.shape[d] > 1) innermost = group.shape[d];
    }
    const std::int64_t row_bytes = group.shape[r - 1] * widest;
    const FoldSplit ordered = fold_split(row_bytes, outer, innermost, threads, false);
    const FoldSplit any = fold_split(row_bytes, outer, innermost, threads, true);
    const std::int64_t in_order = std::min<std::int64_t>(threads, outer * ordered.blocks);
    const std::int64_t in_pieces = std::min<std::int64_t>(threads, outer * any.blocks * any.pieces);
    const std::int64_t wanted = element_count(group.shape) >= kMinParallelWork ? threads : 1;
    if (4 * in_order >= wanted) continue;
    // Those that may not run in any order leave; the others stay if in
    // pieces they pay.
    auto leaves_loop = [&](const Fold& fold) {
      const Node& n = region.nodes[fold.node];
      return 4 * in_pieces < wanted || !folds_in_any_order(op_info(n.op).combine, n.dtype);
    };
    std::vector<Step> after;
    std::vector<Fold> kept;
    for (const Fold& fold : group.folds) {
      if (!leaves_loop(fold)) {
        kept.push_back(fold);
        continue;
      }
      erase(group.members, fold.node);
      erase(group.outputs, fold.node);
      erase(group.inputs, fold.accumulator);
      const int operand = region.nodes[fold.node].inputs[0];
      const bool computed = std::find(group.members.begin(), group.members.end(), operand) != group.members.end();
      if (computed && std::find(group.outputs.begin(), group.outputs.end(), operand) == group.outputs.end()) {
        group.outputs.push_back(operand);
      }
      Step step;
      step.eager = true;
      step.node = fold.node;
      after.push_back(std::move(step));
      if (declined) {
        declined->push_back("%" + std::to_string(fold.node) + " " + op_info(region.nodes[fold.node].op).name +
                            " left to NumPy: folded, it would run on " + std::to_string(in_order) + " of " +
                            std::to_string(threads) + " threads (rows of " +
                            std::to_string(group.shape[r - 1] * widest) + " bytes)");
      }
    }
    group.folds = std::move(kept);
    // (`group` lies in `steps`, which the insertions move.)
    const bool emptied = group.members.empty();
    const auto at = steps.begin() + static_cast<std::ptrdiff_t>(s);
    if (emptied) {
      steps.erase(at);
      steps.insert(steps.begin() + static_cast<std::ptrdiff_t>(s), after.begin(), after.end());
    } else {
      steps.insert(at + 1, after.begin(), after.end());
    }
    s += after.size() - (emptied ? 1 : 0);
  }
}

std::vector<BlockRun> schedule_blocks(const Region& region, const std::vector<Step>& steps,
                                      const std::vector<bool>& leaves, int threads, const CacheSizes& caches,
                                      std::vector<std::string>* declined) {
  std::vector<BlockRun> runs;
  std::size_t s = 0;
  while (s < steps.size()) {
    if (steps[s].eager || steps[s].chain) {
      ++s;
      continue;
    }
    const std::int64_t rows = steps[s].group.shape.empty() ? 0 : steps[s].group.shape[0];
    std::set<int> computed;
    std::size_t last = s;
    int fused = 0;
    if (may_join(region, steps[s].group, rows, computed)) {
      for (int m : steps[s].group.members) computed.insert(m);
      fused = 1;
      for (std::size_t next = s + 1; next < steps.size(); ++next) {
        const Step& step = steps[next];
        if (step.eager ? !view_may_join(region, step.node, rows, computed)
                       : step.chain || !may_join(region, step.group, rows, computed)) {
          break;
        }
        if (step.eager) {
          computed.insert(step.node);
          continue;
        }
        for (int m : step.group.members) computed.insert(m);
        last = next;
        ++fused;
      }
    }
    if (fused < 2) {
      ++s;
      continue;
    }
    // The cost model: running block by block saves the sweeps through
    // memory of every step after the first, and the writing and reading
    // again of the values only the run reads; it costs a kernel call a
    // block and step. It pays when the run's values do not stay in the
    // last-level cache between the steps anyway.
    const std::int64_t per_row = std::max<std::int64_t>(1, row_bytes(region, steps, s, last));
    const std::int64_t total = per_row * rows;
    const std::string which = "steps " + std::to_string(s + 1) + "-" + std::to_string(last + 1);
    if (total <= caches.last_level / 2) {
      if (declined) {
        declined->push_back(which + " may run block by block over their " + std::to_string(rows) +
                            " rows, but run step by step: their " + megabytes(total) +
                            " stay in the last-level cache (" + megabytes(caches.last_level) + ")");
      }
      s = last + 1;
      continue;
    }
    if (rows < 4 * static_cast<std::int64_t>(std::max(1, threads))) {
      // Each step shares its rows' work out over the threads on its own;
      // blocks of rows would leave threads idle.
      if (declined) {
        declined->push_back(which + " may run block by block, but run step by step: " + std::to_string(rows) +
                            " rows are too few blocks for " + std::to_string(threads) + " threads");
      }
      s = last + 1;
      continue;
    }
    std::int64_t row_elements = 1;
    for (std::size_t d = 1; d < steps[s].group.shape.size(); ++d) row_elements *= steps[s].group.shape[d];
    BlockRun run;
    run.first = s;
    run.last = last;
    run.rows = rows;
    // A block's values fit half of a core's own cache, and a block is big
    // enough to pay for its calls; every thread gets a few blocks.
    std::int64_t block = std::max<std::int64_t>(caches.per_core / 2 / per_row,
                                                (kMinBlockElements + row_elements - 1) / std::max<std::int64_t>(1, row_elements));
    block = std::min(block, std::max<std::int64_t>(1, rows / (4 * std::max(1, threads))));
    run.block_rows = std::max<std::int64_t>(1, block);
    run.tiles = tiles_of(region, steps, s, last, leaves);
    runs.push_back(std::move(run));
    s = last + 1;
  }
  return runs;
}

std::string describe_schedule(const Region& region, const std::vector<Step>& steps,
                              const std::vector<BlockRun>& runs, const std::vector<std::string>& declined) {
  std::string text = "schedule of " + std::to_string(steps.size()) + " steps:\n";
  for (std::size_t s = 0; s < steps.size(); ++s) {
    const Step& step = steps[s];
    text += "  step " + std::to_string(s + 1) + ": ";
    std::vector<int> nodes;
    if (step.eager) {
      text += "NumPy";
      nodes = {step.node};
    } else if (step.chain) {
      text += "chain of " + std::to_string(step.reduction_chain.levels.size()) + " reductions over " +
              shape_text(step.reduction_chain.loop.shape);
      nodes = chain_nodes(step.reduction_chain);
    } else {
      text += "kernel over " + shape_text(step.group.shape);
      if (step.group.reduced_dims > 0) text += " reducing its last " + std::to_string(step.group.reduced_dims);
      nodes = step.group.members;
    }
    text += ":";
    for (int n : nodes) {
      text += " %" + std::to_string(n) + " " + op_info(region.nodes[n].op).name;
      for (const Fold& fold : step.group.folds) {
        if (fold.node != n) continue;
        text += " (folded down axes";
        for (int d = 0; d < 32; ++d) {
          if (fold.axes & (1u << d)) text += " " + std::to_string(d);
        }
        text += ")";
      }
    }
    text += "\n";
  }
  for (const BlockRun& run : runs) {
    std::int64_t per_row = std::max<std::int64_t>(1, row_bytes(region, steps, run.first, run.last));
    text += "  steps " + std::to_string(run.first + 1) + "-" + std::to_string(run.last + 1) + " run block by block: " +
            std::to_string(run.rows) + " rows in blocks of " + std::to_string(run.block_rows) + " (" +
            kilobytes(per_row * run.block_rows) + " a block), each value read from or written to memory once";
    if (!run.tiles.empty()) {
      text += "; in tiles, never in memory:";
      for (int t : run.tiles) text += " %" + std::to_string(t);
    }
    text += "\n";
  }
  for (const std::string& why : declined) text += "  " + why + "\n";
  return text;
}

std::string summarize_schedule(const std::vector<Step>& steps, const std::vector<BlockRun>& runs) {
  std::size_t loops = 0;
  for (const Step& step : steps) loops += !step.eager;
  const std::size_t calls = steps.size() - loops;
  auto count = [](std::size_t n, const char* one, const char* many) {
    return std::to_string(n) + " " + (n == 1 ? one : many);
  };
  std::string text = "planned as ";
  if (loops > 0) text += count(loops, "compiled loop", "compiled loops");
  if (!runs.empty()) {
    text += " (";
    for (std::size_t r = 0; r < runs.size(); ++r) {
      text += (r ? ", steps " : "steps ") + std::to_string(runs[r].first + 1) + "-" + std::to_string(runs[r].last + 1);
    }
    text += " block by block)";
  }
  if (calls > 0) text += std::string(loops > 0 ? " and " : "") + count(calls, "NumPy call", "NumPy calls");
  return text;
}

}  // namespace npy::jit
