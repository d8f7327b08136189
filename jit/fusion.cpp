#include "jit/fusion.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>

namespace npy::jit {
namespace {

bool is_reduction(const Node& node) { return op_info(node.op).kind == OpKind::kReduce; }

bool contains(const std::vector<int>& v, int x) { return std::find(v.begin(), v.end(), x) != v.end(); }

// How many nodes read `node` among the steps.
int readers(const Region& region, const std::vector<Step>& steps, int node) {
  int count = 0;
  for (const Step& step : steps) {
    const std::vector<int> members = step.eager ? std::vector<int>{step.node} : step.group.members;
    for (int m : members) {
      for (int a = 0; a < op_info(region.nodes[m].op).arity; ++a) count += region.nodes[m].inputs[a] == node;
    }
  }
  return count;
}

// Replaces [loop, inner reduction, outer reduction] by one StagedReduction
// where the intermediates are used by nothing else.
std::vector<Step> stage_reductions(const Region& region, const std::vector<bool>& leaves, std::vector<Step> steps) {
  std::vector<Step> out;
  for (std::size_t s = 0; s < steps.size(); ++s) {
    if (s + 2 < steps.size() && !steps[s].eager && steps[s + 1].eager && steps[s + 2].eager) {
      const Group& g = steps[s].group;
      const Node& inner = region.nodes[steps[s + 1].node];
      const Node& outer = region.nodes[steps[s + 2].node];
      const bool shapes = g.shape.size() == 3 && g.reductions.empty() && g.outputs.size() == 1;
      const bool inner_ok = shapes && (inner.op == Op::norm || inner.op == Op::sum) && is_float(inner.dtype) &&
                            inner.inputs[0] == g.outputs[0] && inner.axes == 4u && !inner.keepdims &&
                            inner.dtype == region.nodes[g.outputs[0]].dtype;
      const bool outer_ok = inner_ok && (outer.op == Op::argmin || outer.op == Op::argmax) &&
                            outer.inputs[0] == steps[s + 1].node && outer.axes == 1u && !outer.keepdims;
      if (outer_ok && !leaves[g.outputs[0]] && !leaves[steps[s + 1].node] &&
          readers(region, steps, g.outputs[0]) == 1 && readers(region, steps, steps[s + 1].node) == 1) {
        Step staged;
        staged.staged = true;
        staged.staged_reduction = {g, steps[s + 1].node, steps[s + 2].node};
        out.push_back(std::move(staged));
        s += 2;
        continue;
      }
    }
    out.push_back(std::move(steps[s]));
  }
  return out;
}

}  // namespace

bool sums_in_numpy_order(const Node& node) {
  return (node.op == Op::sum || node.op == Op::mean) && is_float(node.compute);
}

int suffix_reduction_dims(const Region& region, int node) {
  const Node& n = region.nodes[node];
  const int rank = static_cast<int>(region.nodes[n.inputs[0]].shape.size());
  int count = 0;
  for (int d = rank - 1; d >= 0 && (n.axes & (1u << d)); --d) ++count;
  const std::uint32_t suffix = count == 0 ? 0 : (((1u << count) - 1) << (rank - count));
  return n.axes == suffix ? count : -1;
}

std::vector<Step> plan_region(const Region& region, const std::vector<bool>& needed,
                              const std::vector<bool>& leaves, const FuseClass& fuse_class) {
  std::vector<Step> steps;
  Step open;
  bool have_open = false;
  auto close = [&] {
    if (have_open) steps.push_back(std::move(open));
    open = Step{};
    have_open = false;
  };
  for (std::size_t i = 0; i < region.nodes.size(); ++i) {
    const Node& node = region.nodes[i];
    if (!needed[i] || node.op == Op::input) continue;
    const int index = static_cast<int>(i);
    // A filled array that leaves the region is made by NumPy's own call
    // (np.zeros maps zeroed pages without touching them); inside, kernels
    // read its value as a constant.
    const int cls = node.op == Op::full && leaves[i] ? -1 : fuse_class(region, index);
    if (cls >= 0) {
      const bool reduction = is_reduction(node);
      const Shape& loop = reduction ? region.nodes[node.inputs[0]].shape : node.shape;
      const int reduced = reduction ? suffix_reduction_dims(region, index) : 0;
      bool joins = have_open && open.group.shape == loop && open.group.fuse_class == cls &&
                   (!reduction || open.group.reductions.empty() || open.group.reduced_dims == reduced);
      for (int a = 0; joins && a < op_info(node.op).arity; ++a) {
        joins = !contains(open.group.reductions, node.inputs[a]);
      }
      if (joins && reduction && sums_in_numpy_order(node)) {
        int ordered = 0;
        for (int r : open.group.reductions) ordered += sums_in_numpy_order(region.nodes[r]);
        joins = ordered < kMaxOrderedSums;
      }
      if (!joins) {
        close();
        have_open = true;
        open.group.shape = loop;
        open.group.fuse_class = cls;
      }
      open.group.members.push_back(index);
      if (reduction) {
        open.group.reductions.push_back(index);
        open.group.reduced_dims = reduced;
      }
      continue;
    }
    bool reads_open = false;
    for (int a = 0; a < op_info(node.op).arity; ++a) {
      reads_open = reads_open || (have_open && contains(open.group.members, node.inputs[a]));
    }
    if (reads_open) close();
    Step eager;
    eager.eager = true;
    eager.node = index;
    steps.push_back(std::move(eager));
  }
  close();
  // Inputs and outputs of each group, and whether it is quiet.
  for (std::size_t s = 0; s < steps.size(); ++s) {
    if (steps[s].eager) continue;
    Group& g = steps[s].group;
    g.quiet = true;
    for (int m : g.members) {
      g.quiet = g.quiet && op_info(region.nodes[m].op).quiet;
      for (int a = 0; a < op_info(region.nodes[m].op).arity; ++a) {
        const int in = region.nodes[m].inputs[a];
        if (!contains(g.members, in) && !contains(g.inputs, in)) g.inputs.push_back(in);
      }
      if (is_reduction(region.nodes[m])) continue;
      bool used_outside = leaves[m];
      for (std::size_t t = s + 1; t < steps.size() && !used_outside; ++t) {
        if (steps[t].eager) {
          const Node& e = region.nodes[steps[t].node];
          for (int a = 0; a < op_info(e.op).arity; ++a) used_outside = used_outside || e.inputs[a] == m;
        } else {
          used_outside = contains(steps[t].group.inputs, m);
          for (int other : steps[t].group.members) {
            for (int a = 0; a < op_info(region.nodes[other].op).arity; ++a) {
              used_outside = used_outside || region.nodes[other].inputs[a] == m;
            }
          }
        }
      }
      if (used_outside) g.outputs.push_back(m);
    }
  }
  return stage_reductions(region, leaves, std::move(steps));
}

std::string group_key(const Region& region, const Group& group, const std::vector<bool>& broadcast_inner) {
  // Built by appending, not through a stream: a region's first run waits
  // for the keys of its kernels.
  std::string key = "r" + std::to_string(group.reduced_dims) + ";";
  auto name = [&](int node) {
    for (std::size_t i = 0; i < group.inputs.size(); ++i) {
      if (group.inputs[i] == node) return "i" + std::to_string(i);
    }
    for (std::size_t i = 0; i < group.members.size(); ++i) {
      if (group.members[i] == node) return "m" + std::to_string(i);
    }
    return std::string("?");
  };
  for (std::size_t i = 0; i < group.inputs.size(); ++i) {
    const Node& in = region.nodes[group.inputs[i]];
    // A Python number is held as a double or an int64, whatever its dtype:
    // it loads apart from a 0-d array of that dtype.
    key += "in" + std::to_string(i) + ":" + dtype_name(in.dtype) + (in.is_scalar_constant ? "c" : "") +
           (broadcast_inner[i] ? "b" : "v");
    // Constants are run-time arguments, except a power's exponent, which
    // decides the code (x**2 is x*x): its bits, exactly.
    for (int m : group.members) {
      const Node& n = region.nodes[m];
      if (n.op == Op::power && n.inputs[1] == group.inputs[i]) {
        std::uint64_t bits = 0;
        std::memcpy(&bits, &in.constant_float, sizeof bits);
        key += "=" + std::to_string(bits);
      }
    }
    key += ";";
  }
  for (int m : group.members) {
    const Node& n = region.nodes[m];
    key += std::string(op_info(n.op).name) + ":" + dtype_name(n.compute) + ">" + dtype_name(n.dtype) + "(";
    for (int a = 0; a < op_info(n.op).arity; ++a) key += name(n.inputs[a]) + ",";
    key += ")";
    if (contains(group.outputs, m)) key += "!";
    key += ";";
  }
  return key;
}

}  // namespace npy::jit
