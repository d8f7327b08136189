#include "jit/fusion.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>

#include "jit/fold.h"
#include "jit/trace_log.h"

namespace npy::jit {
namespace {

bool is_reduction(const Node& node) { return op_info(node.op).kind == OpKind::kReduce; }

bool contains(const std::vector<int>& v, int x) { return std::find(v.begin(), v.end(), x) != v.end(); }


// How many times nodes of the steps other than `inside` read `node`.
int readers_outside(const Region& region, const std::vector<Step>& steps, int node, const std::vector<int>& inside) {
  int count = 0;
  for (const Step& step : steps) {
    for (int m : step_nodes(step)) {
      if (contains(inside, m)) continue;
      for (int a = 0; a < op_info(region.nodes[m].op).arity; ++a) count += region.nodes[m].inputs[a] == node;
    }
  }
  return count;
}

// A 0-d input: a value element-wise work between two levels of a reduction chain may read.
bool is_constant_input(const Node& node) { return node.op == Op::input && node.shape.empty(); }

// A float op of one of NumPy's own loops that reads a stepped input
// (Node::stepped): NumPy computes it, from the input as it lies.
bool numpy_loop_on_stepped(const Region& region, const Node& node) {
  // A complex function's loop is NumPy's scalar code, the same on any layout.
  if (!op_info(node.op).numpy_loop || !is_float(node.compute) || complex_function_of(node.op)) return false;
  return std::any_of(std::begin(node.inputs), std::end(node.inputs),
                     [&](int in) { return in >= 0 && region.nodes[static_cast<std::size_t>(in)].stepped; });
}

bool elementwise(const Node& node) {
  const OpKind kind = op_info(node.op).kind;
  return kind == OpKind::kUnary || kind == OpKind::kBinary || kind == OpKind::kTernary;
}

// A reduction a chain may take as one of its levels: over one axis, not
// keeping it, of float values of its own type (argmin and argmax: any float
// operand); float min and max only over other than their operand's last
// axis, where NumPy folds their operands one by one in order (along the
// last, its own loop's lanes decide which of equal values it keeps).
bool chain_level_reduction(const Region& region, const Node& node, bool outermost) {
  const OpKind kind = op_info(node.op).kind;
  if ((kind != OpKind::kReduce && kind != OpKind::kNorm) || node.keepdims) return false;
  if (node.axes == 0 || (node.axes & (node.axes - 1)) != 0) return false;
  const Node& operand = region.nodes[static_cast<std::size_t>(node.inputs[0])];
  if (!is_float(operand.dtype) || operand.shape.size() < 2) return false;
  const int rank = static_cast<int>(operand.shape.size());
  const bool along_last = node.axes == 1u << (rank - 1);
  if (kind == OpKind::kNorm) return node.dtype == operand.dtype && node.compute == operand.dtype;
  switch (op_info(node.op).combine) {
    case Combine::kArgMin:
    case Combine::kArgMax: return outermost && node.compute == operand.dtype;
    case Combine::kMin:
    case Combine::kMax:
      if (along_last) return false;
      [[fallthrough]];
    case Combine::kAdd:
    case Combine::kMultiply: return node.dtype == operand.dtype && node.compute == operand.dtype;
    default: return false;
  }
}

// Whether a chain's kernel beats its steps run apart, arrays taken as laid
// out in C order (a run of another layout may read its inputs less well):
// its vector dimension is long enough
// (kMinChainLanes), and every input whose lanes lie apart in memory moves
// along one of the levels' loops at most, so that its elements are
// gathered once per step (packed) rather than again at each index of an
// outer loop.
bool chain_pays(const Region& region, const ReductionChain& chain) {
  const Shape& domain = chain.loop.shape;
  const int vector_dim = chain_vector_dim(region, chain);
  if (vector_dim < 0 || domain[static_cast<std::size_t>(vector_dim)] < kMinChainLanes) return false;
  const std::vector<int> loops = chain_level_dims(region, chain);
  for (int in : chain.loop.inputs) {
    const Shape& shape = region.nodes[static_cast<std::size_t>(in)].shape;
    const std::size_t offset = domain.size() - shape.size();
    auto extent = [&](int d) { return static_cast<std::size_t>(d) < offset ? 1 : shape[d - offset]; };
    std::int64_t stride = 1;  // along the vector dimension, in elements, in C order
    for (std::size_t d = static_cast<std::size_t>(vector_dim) + 1; d < domain.size(); ++d) stride *= extent(static_cast<int>(d));
    if (extent(vector_dim) == 1 || stride == 1) continue;
    int moving = 0;
    for (int d : loops) moving += extent(d) > 1;
    if (moving > 1) return false;
  }
  return true;
}

// The ReductionChain whose outermost reduction is `outer`, when the nodes
// it takes are used by nothing else and the steps that compute them compute
// nothing else; `first` and `last` get the first and last of those steps.
bool find_chain(const Region& region, const std::vector<bool>& leaves, const std::vector<Step>& steps, int outer,
                ReductionChain& chain, std::size_t& first, std::size_t& last) {
  auto private_value = [&](int node) { return !leaves[node] && readers_outside(region, steps, node, {}) == 1; };
  if (!chain_level_reduction(region, region.nodes[outer], true)) return false;
  std::vector<ChainLevel> levels;  // outermost first, until reversed
  std::vector<int> chain_members;  // every node of the levels
  int reduction = outer;
  DType lanes = region.nodes[region.nodes[outer].inputs[0]].dtype;
  // Walking down from the outermost reduction: the element-wise work found
  // below a level's reduction is on the result of the level below it.
  std::vector<int> between_below;
  while (true) {
    ChainLevel level;
    level.reduction = reduction;
    level.between = std::move(between_below);
    chain_members.push_back(reduction);
    chain_members.insert(chain_members.end(), level.between.begin(), level.between.end());
    levels.push_back(std::move(level));
    const int operand = region.nodes[reduction].inputs[0];
    // Element-wise work on one value and constants, down to a reduction of
    // the level below, lies between the levels; otherwise the reduction's
    // operand is the chain's value, computed by the loop. (A power's
    // exponent decides its code, and kernels are keyed by the loop's
    // exponents alone: none between.)
    int value = operand;
    std::vector<int> between;
    while (elementwise(region.nodes[value]) && region.nodes[value].op != Op::power &&
           region.nodes[value].dtype == lanes && region.nodes[value].compute == lanes && private_value(value)) {
      const Node& n = region.nodes[value];
      int from = -1;
      for (int a = 0; a < op_info(n.op).arity && from != -2; ++a) {
        if (is_constant_input(region.nodes[n.inputs[a]])) continue;
        from = from >= 0 ? -2 : n.inputs[a];
      }
      if (from < 0) break;
      between.insert(between.begin(), value);
      value = from;
    }
    const Node& below = region.nodes[value];
    if (chain_level_reduction(region, below, false) && region.nodes[below.inputs[0]].dtype == lanes &&
        private_value(value)) {
      between_below = std::move(between);
      reduction = value;
      continue;
    }
    if (levels.size() < 2 || region.nodes[operand].dtype != lanes) return false;
    chain.value = operand;
    break;
  }
  std::reverse(levels.begin(), levels.end());
  // The steps that compute the chain's nodes, and the loop's step: the one
  // whose fused loop computes the chain's value and, besides nodes of the
  // chain, only element-wise members that nothing else reads (their values
  // are computed again in the chain's loop, not kept). A value computed
  // otherwise is read from memory.
  std::size_t loop_step = steps.size();
  for (std::size_t s = 0; s < steps.size(); ++s) {
    if (steps[s].eager || steps[s].chain || !contains(steps[s].group.members, chain.value)) continue;
    const std::vector<int>& nodes = steps[s].group.members;
    bool loop_only = private_value(chain.value);
    for (int n : nodes) {
      if (contains(chain_members, n)) continue;
      const OpKind kind = op_info(region.nodes[n].op).kind;
      loop_only = loop_only && (elementwise(region.nodes[n]) || kind == OpKind::kCast) && !leaves[n] &&
                  (n == chain.value || readers_outside(region, steps, n, nodes) == 0);
    }
    if (loop_only) loop_step = s;
  }
  std::vector<std::size_t> taken;
  for (std::size_t s = 0; s < steps.size(); ++s) {
    const std::vector<int> nodes = step_nodes(steps[s]);
    bool has_chain = false;
    for (int n : nodes) has_chain = has_chain || contains(chain_members, n);
    if (s != loop_step && !has_chain) continue;
    if (steps[s].chain) return false;
    for (int n : nodes) {
      if (s != loop_step && !contains(chain_members, n)) return false;
    }
    taken.push_back(s);
  }
  if (taken.empty() || taken.back() - taken.front() + 1 != taken.size()) return false;
  if (loop_step != steps.size() && loop_step != taken.front()) return false;
  first = taken.front();
  last = taken.back();
  chain.loop = Group{};
  chain.loop.shape = region.nodes[chain.value].shape;
  chain.loop.quiet = true;
  if (loop_step != steps.size()) {
    const Group& g = steps[loop_step].group;
    chain.loop.fuse_class = g.fuse_class;
    for (int m : g.members) {
      if (contains(chain_members, m)) continue;
      chain.loop.members.push_back(m);
      chain.loop.quiet = chain.loop.quiet && op_info(region.nodes[m].op).quiet;
    }
    // What the members read from memory, in the region as recorded (the
    // group's inputs are its kernel's: a fold's accumulator among them).
    for (int m : chain.loop.members) {
      const Node& n = region.nodes[m];
      for (int a = 0; a < op_info(n.op).arity; ++a) {
        const int in = n.inputs[a];
        if (!contains(chain.loop.members, in) && !contains(chain.loop.inputs, in)) chain.loop.inputs.push_back(in);
      }
    }
  } else {
    chain.loop.fuse_class = -1;  // no fused loop: the backend lays the chain out by its values' type
    chain.loop.inputs.push_back(chain.value);
  }
  for (const ChainLevel& level : levels) {
    for (int b : level.between) {
      for (int a = 0; a < op_info(region.nodes[b].op).arity; ++a) {
        const int in = region.nodes[b].inputs[a];
        if (is_constant_input(region.nodes[in]) && !contains(chain.loop.inputs, in)) chain.loop.inputs.push_back(in);
      }
    }
  }
  chain.loop.outputs = {chain.value};
  chain.levels = std::move(levels);
  return chain_pays(region, chain);
}

// Replaces the steps of each ReductionChain (find_chain) by one step, where
// its outermost reduction's step was: the longest chains first (a chain's
// outermost reduction runs after the levels inside it).
std::vector<Step> chain_reductions(const Region& region, const std::vector<bool>& leaves, std::vector<Step> steps) {
  for (std::size_t s = steps.size(); s-- > 0;) {
    const std::vector<int> nodes = step_nodes(steps[s]);
    for (auto node = nodes.rbegin(); node != nodes.rend(); ++node) {
      ReductionChain chain;
      std::size_t first = 0, last = 0;
      if (!find_chain(region, leaves, steps, *node, chain, first, last) || last != s) continue;
      Step step;
      step.chain = true;
      step.reduction_chain = std::move(chain);
      std::vector<Step> out(std::make_move_iterator(steps.begin()), std::make_move_iterator(steps.begin() + first));
      out.push_back(std::move(step));
      for (std::size_t t = last + 1; t < steps.size(); ++t) out.push_back(std::move(steps[t]));
      steps = std::move(out);
      s = first;
      break;
    }
  }
  return steps;
}

}  // namespace

std::vector<int> chain_level_dims(const Region& region, const ReductionChain& chain) {
  // Each level's axis is one of its operand's dimensions, which are the
  // domain's that the levels below it kept.
  std::vector<int> kept(chain.loop.shape.size());
  for (std::size_t d = 0; d < kept.size(); ++d) kept[d] = static_cast<int>(d);
  std::vector<int> dims;
  for (const ChainLevel& level : chain.levels) {
    const std::uint32_t axes = region.nodes[static_cast<std::size_t>(level.reduction)].axes;
    std::size_t axis = 0;
    while (!(axes & (1u << axis))) ++axis;
    dims.push_back(kept[axis]);
    kept.erase(kept.begin() + static_cast<std::ptrdiff_t>(axis));
  }
  return dims;
}

int chain_vector_dim(const Region& region, const ReductionChain& chain) {
  const std::vector<int> levels = chain_level_dims(region, chain);
  for (int d = static_cast<int>(chain.loop.shape.size()); d-- > 0;) {
    if (std::find(levels.begin(), levels.end(), d) == levels.end()) return d;
  }
  return -1;
}

std::vector<int> chain_nodes(const ReductionChain& chain) {
  std::vector<int> nodes = chain.loop.members;
  for (const ChainLevel& level : chain.levels) {
    nodes.push_back(level.reduction);
    nodes.insert(nodes.end(), level.between.begin(), level.between.end());
  }
  return nodes;
}

std::vector<int> step_nodes(const Step& step) {
  if (step.eager) return {step.node};
  return step.chain ? chain_nodes(step.reduction_chain) : step.group.members;
}

bool sums_in_numpy_order(const Node& node) {
  return adds(node.op) && is_float(node.compute);
}

int suffix_reduction_dims(const Region& region, int node) {
  const Node& n = region.nodes[node];
  const int rank = static_cast<int>(region.nodes[n.inputs[0]].shape.size());
  int count = 0;
  for (int d = rank - 1; d >= 0 && (n.axes & (1u << d)); --d) ++count;
  const std::uint32_t suffix = count == 0 ? 0 : (((1u << count) - 1) << (rank - count));
  return n.axes == suffix ? count : -1;
}

bool may_fold(const Region& region, int node) {
  const Node& n = region.nodes[node];
  if (op_info(n.op).kind != OpKind::kReduce || fold_op(op_info(n.op).combine) == Op::input) return false;
  const Shape& loop = region.nodes[n.inputs[0]].shape;
  const int r = static_cast<int>(loop.size());
  return r >= 2 && n.axes != 0 && !(n.axes & (1u << (r - 1))) && loop[r - 1] >= kMinFoldRow;
}

namespace {

// Whether a node of class `cls` may join a group of class `group_class`
// (FuseClass: equal, or either any), and the group's class once it has.
bool classes_meet(int group_class, int cls) {
  return group_class == cls || group_class == kAnyClass || cls == kAnyClass;
}
void join_class(int& group_class, int cls) {
  if (group_class == kAnyClass) group_class = cls;
}

}  // namespace

std::vector<Step> plan_region(const Region& region, const std::vector<bool>& needed,
                              const std::vector<bool>& leaves, const FuseClass& fuse_class,
                              Region* kernel_region, bool loop_per_line) {
  // Whether node `index` may join a loop that computes `group`'s nodes
  // (sites are instructions; their text is the line's, "file:line").
  auto same_line = [&](const Group& group, int index) {
    return !loop_per_line || group.members.empty() ||
           site_text(region.nodes[static_cast<std::size_t>(group.members[0])].site) ==
               site_text(region.nodes[static_cast<std::size_t>(index)].site);
  };
  if (kernel_region) *kernel_region = region;
  // What kernels see of the region: fold members lowered.
  const Region& seen = kernel_region ? *kernel_region : region;
  std::vector<Step> steps;
  Step open;
  bool have_open = false;
  // Work on one element (a reduction's result scaled, two results combined)
  // that reads nothing the open loop computes runs in a step of its own
  // before that loop, so that the loop's element-wise consumers of it stay
  // in the loop instead of starting another pass over their arrays.
  Step side;
  bool have_side = false;
  auto close_side = [&] {
    if (have_side) steps.push_back(std::move(side));
    side = Step{};
    have_side = false;
  };
  auto close = [&] {
    close_side();
    if (have_open) steps.push_back(std::move(open));
    open = Step{};
    have_open = false;
  };
  auto reads_any = [&](const Node& node, const std::vector<int>& nodes) {
    for (int a = 0; a < op_info(node.op).arity; ++a) {
      if (contains(nodes, node.inputs[a])) return true;
    }
    return false;
  };
  auto goes_aside = [&](const Node& node) {
    return have_open && elementwise(node) && element_count(node.shape) == 1 && open.group.shape != node.shape &&
           !reads_any(node, open.group.members);
  };
  auto reads_result = [&](const Group& group, int input) {
    return contains(group.reductions, input) ||
           std::any_of(group.folds.begin(), group.folds.end(), [input](const Fold& f) { return f.node == input; });
  };
  // Whether a group's loop may also compute the reduction `node` over its
  // last `reduced` dimensions (its shape and class aside).
  auto may_take_reduction = [&](const Group& group, const Node& node, int reduced) {
    if (!group.folds.empty() || (!group.reductions.empty() && group.reduced_dims != reduced)) return false;
    if (!sums_in_numpy_order(node)) return true;
    int ordered = 0;
    for (int r : group.reductions) ordered += sums_in_numpy_order(region.nodes[r]);
    return ordered < kMaxOrderedSums;
  };
  // A reduction of a value an earlier loop over the same shape had at hand
  // (a region input, a value of the steps before it or its own element-wise
  // value) is computed by that loop, as if the program had asked for it
  // there: its pass costs nothing, and its result is ready for what the
  // loops after it do (x.max() recorded after x's statistics' loop).
  std::vector<char> computed(region.nodes.size(), 0);
  auto earlier_loop_for = [&](int node_index, int cls, const Shape& loop, int reduced) -> Group* {
    const Node& node = region.nodes[static_cast<std::size_t>(node_index)];
    const int operand = node.inputs[0];
    std::fill(computed.begin(), computed.end(), 0);
    for (Step& step : steps) {
      if (!step.eager && !step.chain && step.group.shape == loop && classes_meet(step.group.fuse_class, cls) &&
          may_take_reduction(step.group, node, reduced) && same_line(step.group, node_index) &&
          (region.nodes[operand].op == Op::input || computed[operand] ||
           (contains(step.group.members, operand) && !reads_result(step.group, operand)))) {
        return &step.group;
      }
      for (int m : step_nodes(step)) computed[m] = 1;
    }
    return nullptr;
  };
  // Reduction `index`, lowered to a fold when the backend takes the fold's
  // op: in the open group, which computes or reads its operand, when its
  // class is the group's and the group has no reductions and folds of the
  // same axes only; else in a new group (which reads the operand from
  // memory).
  auto fold = [&](int index) {
    const Node& node = region.nodes[index];
    const int operand = node.inputs[0];
    if (!may_fold(region, index)) return false;
    bool joins = have_open && open.group.reductions.empty() && open.group.shape == region.nodes[operand].shape &&
                 !reads_result(open.group, operand) && same_line(open.group, index);
    for (const Fold& f : open.group.folds) joins = joins && f.axes == node.axes;
    Node accumulator;
    accumulator.op = Op::input;
    accumulator.dtype = node.dtype;
    accumulator.compute = node.dtype;
    accumulator.shape = region.nodes[operand].shape;
    Node folded = node;
    folded.op = fold_op(op_info(node.op).combine);
    // Integer sums and products add up in their result's type (int32 in int64).
    const Combine combine = op_info(node.op).combine;
    if (is_int(node.dtype) && (combine == Combine::kAdd || combine == Combine::kMultiply)) {
      folded.compute = node.dtype;
    }
    folded.shape = accumulator.shape;
    folded.axes = 0;
    folded.keepdims = false;
    folded.inputs[0] = kernel_region->add(accumulator);
    folded.inputs[1] = operand;
    kernel_region->nodes[static_cast<std::size_t>(index)] = folded;
    const int cls = fuse_class(*kernel_region, index);
    if (cls < 0) {
      kernel_region->nodes[static_cast<std::size_t>(index)] = node;
      kernel_region->nodes.pop_back();
      return false;
    }
    if (!joins || !classes_meet(open.group.fuse_class, cls)) {
      close();
      have_open = true;
      open.group.shape = accumulator.shape;
      open.group.fuse_class = cls;
    }
    Group& group = open.group;
    join_class(group.fuse_class, cls);
    group.members.push_back(index);
    group.folds.push_back({index, folded.inputs[0], node.axes});
    return true;
  };
  for (std::size_t i = 0; i < region.nodes.size(); ++i) {
    const Node& node = region.nodes[i];
    if (!needed[i] || node.op == Op::input) continue;
    const int index = static_cast<int>(i);
    if (kernel_region && fold(index)) continue;
    // A filled array that leaves the region is made by NumPy's own call
    // (np.zeros maps zeroed pages without touching them); inside, kernels
    // read its value as a constant.
    const int cls = (node.op == Op::full && leaves[i]) || numpy_loop_on_stepped(region, node) ? -1
                                                                                              : fuse_class(region, index);
    if (cls >= 0 && goes_aside(node)) {
      if (!have_side || side.group.shape != node.shape || !classes_meet(side.group.fuse_class, cls) ||
          !same_line(side.group, index)) {
        close_side();
        have_side = true;
        side.group.shape = node.shape;
        side.group.fuse_class = cls;
      }
      join_class(side.group.fuse_class, cls);
      side.group.members.push_back(index);
      continue;
    }
    if (cls >= 0) {
      const bool reduction = is_reduction(node);
      const Shape& loop = reduction ? region.nodes[node.inputs[0]].shape : node.shape;
      const int reduced = reduction ? suffix_reduction_dims(region, index) : 0;
      if (reduction) {
        if (Group* earlier = earlier_loop_for(index, cls, loop, reduced)) {
          join_class(earlier->fuse_class, cls);
          earlier->members.push_back(index);
          earlier->reductions.push_back(index);
          earlier->reduced_dims = reduced;
          continue;
        }
      }
      bool joins = have_open && open.group.shape == loop && classes_meet(open.group.fuse_class, cls) &&
                   (!reduction || may_take_reduction(open.group, node, reduced)) && same_line(open.group, index);
      for (int a = 0; joins && a < op_info(node.op).arity; ++a) joins = !reads_result(open.group, node.inputs[a]);
      if (!joins) {
        close();
        have_open = true;
        open.group.shape = loop;
        open.group.fuse_class = cls;
      }
      join_class(open.group.fuse_class, cls);
      open.group.members.push_back(index);
      if (reduction) {
        open.group.reductions.push_back(index);
        open.group.reduced_dims = reduced;
      }
      continue;
    }
    if (have_open && reads_any(node, open.group.members)) close();
    if (have_side && reads_any(node, side.group.members)) close_side();
    Step eager;
    eager.eager = true;
    eager.node = index;
    steps.push_back(std::move(eager));
  }
  close();
  // Inputs and outputs of each group, and whether it is quiet.
  auto wire = [&] {
    for (std::size_t s = 0; s < steps.size(); ++s) {
      if (steps[s].eager) continue;
      Group& g = steps[s].group;
      g.inputs.clear();
      g.outputs.clear();
      g.quiet = true;
      for (int m : g.members) {
        g.quiet = g.quiet && op_info(region.nodes[m].op).quiet;
        for (int a = 0; a < op_info(seen.nodes[m].op).arity; ++a) {
          const int in = seen.nodes[m].inputs[a];
          if (!contains(g.members, in) && !contains(g.inputs, in)) g.inputs.push_back(in);
        }
        if (is_reduction(seen.nodes[m])) continue;
        bool used_outside = leaves[m] || is_reduction(region.nodes[m]);
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
  };
  wire();
  // A loop passes a kernel at most kMaxLoopSlots arrays (inputs, outputs,
  // reductions' results and ordered sums' operands): one that would need
  // more (a sum of 80 arrays) is cut in two, the second half reading what
  // the first computes, until every loop fits.
  auto slots = [&](const Group& g) {
    std::size_t ordered = 0;
    for (int r : g.reductions) ordered += sums_in_numpy_order(region.nodes[static_cast<std::size_t>(r)]);
    return g.inputs.size() + g.outputs.size() + g.reductions.size() + ordered;
  };
  for (std::size_t s = 0; s < steps.size();) {
    Group& g = steps[s].group;
    if (steps[s].eager || steps[s].chain || slots(g) <= kMaxLoopSlots || g.members.size() < 2) {
      ++s;
      continue;
    }
    Step second;
    second.group.shape = g.shape;
    second.group.fuse_class = g.fuse_class;
    // Cut near the middle where the fewest values pass from the first part
    // to the second (each one is written out and read back).
    auto crossing = [&](std::size_t cut) {
      std::vector<int> passed;
      for (std::size_t k = cut; k < g.members.size(); ++k) {
        const Node& n = seen.nodes[static_cast<std::size_t>(g.members[k])];
        for (int a = 0; a < op_info(n.op).arity; ++a) {
          const auto from = std::find(g.members.begin(), g.members.begin() + static_cast<std::ptrdiff_t>(cut), n.inputs[a]);
          if (from != g.members.begin() + static_cast<std::ptrdiff_t>(cut) && !contains(passed, *from)) passed.push_back(*from);
        }
      }
      return passed.size();
    };
    const std::size_t middle = g.members.size() / 2;
    std::size_t cut = middle;
    std::size_t fewest = crossing(middle);
    for (std::size_t d = 1; d <= 8; ++d) {
      for (std::size_t c : {middle - std::min(d, middle - 1), std::min(middle + d, g.members.size() - 1)}) {
        const std::size_t passing = crossing(c);
        if (passing < fewest) fewest = passing, cut = c;
      }
    }
    second.group.members.assign(g.members.begin() + static_cast<std::ptrdiff_t>(cut), g.members.end());
    g.members.resize(cut);
    auto moves = [&](int node) { return contains(second.group.members, node); };
    for (int r : g.reductions) {
      if (moves(r)) second.group.reductions.push_back(r);
    }
    g.reductions.erase(std::remove_if(g.reductions.begin(), g.reductions.end(), moves), g.reductions.end());
    for (const Fold& f : g.folds) {
      if (moves(f.node)) second.group.folds.push_back(f);
    }
    g.folds.erase(std::remove_if(g.folds.begin(), g.folds.end(), [&](const Fold& f) { return moves(f.node); }),
                  g.folds.end());
    second.group.reduced_dims = second.group.reductions.empty() ? 0 : g.reduced_dims;
    if (g.reductions.empty()) g.reduced_dims = 0;
    steps.insert(steps.begin() + static_cast<std::ptrdiff_t>(s) + 1, std::move(second));
    wire();
  }
  return chain_reductions(region, leaves, std::move(steps));
}

}  // namespace npy::jit
