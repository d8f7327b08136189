#include "jit/loop_nest.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <sstream>

#include "jit/fold.h"

namespace npy::jit {
namespace {

bool contains(const std::vector<int>& v, int x) { return std::find(v.begin(), v.end(), x) != v.end(); }

// The combine a fold's element-wise op stands for (the inverse of fold_op).
Combine combine_folded_by(Op op) {
  for (Combine c : {Combine::kAdd, Combine::kMultiply, Combine::kMin, Combine::kMax, Combine::kOr, Combine::kAnd}) {
    if (fold_op(c) == op) return c;
  }
  return Combine::kNone;
}

ReductionOrder reduction_order(const Node& node) {
  if (sums_in_numpy_order(node)) return ReductionOrder::kPairwise;
  const Combine c = op_info(node.op).combine;
  return c == Combine::kMultiply && is_float(node.compute) ? ReductionOrder::kSequential : ReductionOrder::kAny;
}

// The dimensions of `domain` an operand of shape `shape` moves along,
// NumPy's broadcasting: aligned at the last dimension, extents of 1 stay.
std::uint32_t broadcast_moves(const Shape& shape, const Shape& domain) {
  std::uint32_t moves = 0;
  const std::size_t offset = domain.size() - std::min(domain.size(), shape.size());
  for (std::size_t d = offset; d < domain.size(); ++d) {
    if (shape[d - offset] != 1 || domain[d] == 1) moves |= 1u << d;
  }
  return moves;
}

template <typename T>
void write_element(std::ostringstream& out, const unsigned char* bytes) {
  T value;
  std::memcpy(&value, bytes, sizeof value);
  if constexpr (sizeof(T) == 1) {
    out << static_cast<int>(value);
  } else {
    out << value;
  }
}

// The value a reduction of `combine` in `dtype` starts from, as text: the
// one fill_fold_start writes.
std::string identity_text(Combine combine, DType dtype) {
  if (fold_op(combine) == Op::input) return "no value (the first operand's index)";
  unsigned char bytes[8] = {};
  fill_fold_start(reinterpret_cast<char*>(bytes), 1, dtype, combine);
  std::ostringstream out;
  switch (dtype) {
    case DType::kBool: out << (bytes[0] ? "true" : "false"); break;
    case DType::kInt8: write_element<std::int8_t>(out, bytes); break;
    case DType::kInt16: write_element<std::int16_t>(out, bytes); break;
    case DType::kInt32: write_element<std::int32_t>(out, bytes); break;
    case DType::kInt64: write_element<std::int64_t>(out, bytes); break;
    case DType::kUInt8: write_element<std::uint8_t>(out, bytes); break;
    case DType::kUInt16: write_element<std::uint16_t>(out, bytes); break;
    case DType::kUInt32: write_element<std::uint32_t>(out, bytes); break;
    case DType::kUInt64: write_element<std::uint64_t>(out, bytes); break;
    case DType::kFloat32: write_element<float>(out, bytes); break;
    case DType::kFloat64: write_element<double>(out, bytes); break;
    case DType::kComplex128: out << "none (no complex reductions)"; break;
  }
  return out.str();
}

const char* order_text(ReductionOrder order) {
  switch (order) {
    case ReductionOrder::kPairwise: return "NumPy's pairwise order";
    case ReductionOrder::kSequential: return "in order";
    case ReductionOrder::kAny: return "any order";
  }
  return "?";
}

const char* placement_text(Placement placement) {
  switch (placement) {
    case Placement::kRegister: return "register";
    case Placement::kTile: return "tile";
    case Placement::kMemory: return "memory";
  }
  return "?";
}

std::string axes_text(std::uint32_t axes) {
  std::string text;
  for (int d = 0; d < 32; ++d) {
    if (axes & (1u << d)) text += (text.empty() ? "i" : ",i") + std::to_string(d);
  }
  return text;
}

}  // namespace

ReductionOrder LoopNest::order_of(int statement) const {
  for (const NestReduction& r : reduced) {
    if (r.statement == statement) return r.order;
  }
  return ReductionOrder::kAny;
}

std::vector<std::uint32_t> folded_axes(const Region& region, const std::vector<Step>& steps) {
  std::vector<std::uint32_t> axes(region.nodes.size(), 0);
  for (const Step& step : steps) {
    if (step.eager || step.chain) continue;
    for (const Fold& fold : step.group.folds) {
      axes[static_cast<std::size_t>(fold.node)] = fold.axes;
      axes[static_cast<std::size_t>(fold.accumulator)] = fold.axes;
    }
  }
  return axes;
}

LoopNest lower_group(const Region& region, const Group& group, const std::vector<std::uint32_t>& folded,
                     const std::vector<int>& tiles) {
  LoopNest nest;
  nest.domain = group.shape;
  nest.reduced_dims = group.reduced_dims;
  nest.fuse_class = group.fuse_class;
  std::vector<int> local(region.nodes.size(), -1);
  for (int in : group.inputs) {
    Node node = region.nodes[static_cast<std::size_t>(in)];
    node.inputs[0] = node.inputs[1] = node.inputs[2] = -1;
    if (node.op != Op::input) {
      // A value an earlier step computed: read as a buffer here.
      node.op = Op::input;
      node.axes = 0;
      node.keepdims = false;
    }
    local[static_cast<std::size_t>(in)] = nest.body.add(node);
    nest.inputs.push_back(local[static_cast<std::size_t>(in)]);
    nest.origin.push_back(in);
    // A Python number is a value the kernel holds, not a buffer it reads.
    nest.placement.push_back(node.is_scalar_constant ? Placement::kRegister : Placement::kMemory);
    std::uint32_t moves = node.is_scalar_constant ? 0 : broadcast_moves(node.shape, group.shape);
    for (const Fold& fold : group.folds) {
      if (fold.accumulator == in) moves &= ~fold.axes;
    }
    if (static_cast<std::size_t>(in) < folded.size()) moves &= ~folded[static_cast<std::size_t>(in)];
    nest.moves.push_back(moves);
  }
  nest.broadcast_inner.assign(group.inputs.size(), false);
  nest.every_other_inner.assign(group.inputs.size(), false);
  for (int m : group.members) {
    Node node = region.nodes[static_cast<std::size_t>(m)];
    for (int a = 0; a < op_info(node.op).arity; ++a) node.inputs[a] = local[static_cast<std::size_t>(node.inputs[a])];
    const int at = nest.body.add(node);
    local[static_cast<std::size_t>(m)] = at;
    nest.members.push_back(at);
    nest.origin.push_back(m);
    const bool leaves = contains(group.outputs, m) || contains(group.reductions, m);
    nest.placement.push_back(!leaves ? Placement::kRegister
                             : contains(tiles, m) ? Placement::kTile
                                                  : Placement::kMemory);
    if (contains(group.outputs, m)) nest.outputs.push_back(at);
    if (contains(group.reductions, m)) {
      nest.reductions.push_back(at);
      nest.reduced.push_back({at, op_info(node.op).combine, reduction_order(node), node.axes, false});
    }
    for (const Fold& fold : group.folds) {
      if (fold.node != m) continue;
      const Combine combine = combine_folded_by(node.op);
      nest.reduced.push_back({at, combine,
                              folds_in_any_order(combine, node.dtype) ? ReductionOrder::kAny
                                                                       : ReductionOrder::kSequential,
                              fold.axes, true});
    }
  }
  return nest;
}

LoopNest lower_chain(const Region& region, const ReductionChain& chain) {
  const Shape& domain = chain.loop.shape;
  LoopNest nest;
  nest.domain = domain;
  nest.fuse_class = chain.loop.fuse_class;
  std::map<int, int> local;
  auto add = [&](int node, std::uint32_t dims, Placement placement) {
    Node n = region.nodes[static_cast<std::size_t>(node)];
    for (int a = 0; a < op_info(n.op).arity; ++a) n.inputs[a] = local.at(n.inputs[a]);
    const int at = nest.body.add(n);
    local[node] = at;
    nest.origin.push_back(node);
    nest.placement.push_back(placement);
    nest.dims.push_back(dims);
    return at;
  };
  for (int in : chain.loop.inputs) {
    Node node = region.nodes[static_cast<std::size_t>(in)];
    node.inputs[0] = node.inputs[1] = node.inputs[2] = -1;
    if (node.op != Op::input) {  // a value an earlier step computed: read as a buffer here
      node.op = Op::input;
      node.axes = 0;
      node.keepdims = false;
    }
    const std::uint32_t moves = node.is_scalar_constant ? 0 : broadcast_moves(node.shape, domain);
    local[in] = nest.body.add(node);
    nest.inputs.push_back(local[in]);
    nest.origin.push_back(in);
    nest.placement.push_back(node.is_scalar_constant ? Placement::kRegister : Placement::kMemory);
    nest.moves.push_back(moves);
    nest.dims.push_back(moves);
  }
  nest.broadcast_inner.assign(nest.inputs.size(), false);
  nest.every_other_inner.assign(nest.inputs.size(), false);
  auto operand_dims = [&](const Node& n) {
    std::uint32_t dims = 0;
    for (int a = 0; a < op_info(n.op).arity; ++a) dims |= nest.dims[static_cast<std::size_t>(local.at(n.inputs[a]))];
    return dims;
  };
  for (int m : chain.loop.members) {
    const int at = add(m, operand_dims(region.nodes[static_cast<std::size_t>(m)]), Placement::kRegister);
    nest.members.push_back(at);
  }
  nest.value = local.at(chain.value);
  const std::vector<int> level_dims = chain_level_dims(region, chain);
  for (std::size_t l = 0; l < chain.levels.size(); ++l) {
    const ChainLevel& level = chain.levels[l];
    const Node& r = region.nodes[static_cast<std::size_t>(level.reduction)];
    const int dim = level_dims[l];
    const std::uint32_t operand = nest.dims[static_cast<std::size_t>(local.at(r.inputs[0]))];
    // Along the last dimension its operand spans (C order: innermost).
    const bool along_last = (operand >> dim) == 1u;
    const bool result = l + 1 == chain.levels.size();
    ChainLevel lowered;
    lowered.reduction = add(level.reduction, operand & ~(1u << dim), result ? Placement::kMemory : Placement::kRegister);
    nest.members.push_back(lowered.reduction);
    const Combine combine = r.op == Op::norm ? Combine::kAdd : op_info(r.op).combine;
    ReductionOrder order = ReductionOrder::kAny;
    if (combine == Combine::kAdd) {
      order = along_last ? ReductionOrder::kPairwise : ReductionOrder::kSequential;
    } else if (combine == Combine::kMultiply || combine == Combine::kMin || combine == Combine::kMax) {
      order = ReductionOrder::kSequential;
    }
    nest.reduced.push_back({lowered.reduction, combine, order, 1u << dim, false});
    if (result) nest.reductions.push_back(lowered.reduction);
    for (int b : level.between) {
      lowered.between.push_back(add(b, operand_dims(region.nodes[static_cast<std::size_t>(b)]), Placement::kRegister));
      nest.members.push_back(lowered.between.back());
    }
    nest.levels.push_back(std::move(lowered));
  }
  // The vector dimension: the last one every level keeps (the result's
  // innermost, so that results are stored side by side).
  nest.loop_order.push_back(chain_vector_dim(region, chain));
  for (auto dim = level_dims.rbegin(); dim != level_dims.rend(); ++dim) nest.loop_order.push_back(*dim);
  return nest;
}

int chain_loop_of_level(const LoopNest& nest, std::size_t level) {
  return static_cast<int>(nest.levels.size() - level);
}

bool schedule_chain_run(const LoopNest& nest, const std::vector<Dims>& strides,
                        const std::vector<int>& value_layout, ChainRun& run) {
  run = ChainRun{};
  const int vector_dim = nest.loop_order[0];
  const int loops = static_cast<int>(nest.loop_order.size());
  for (std::size_t i = 0; i < nest.inputs.size(); ++i) {
    const Node& in = nest.body.nodes[static_cast<std::size_t>(nest.inputs[i])];
    const std::int64_t along = strides[i].empty() ? 0 : strides[i][static_cast<std::size_t>(vector_dim)];
    const VectorRead read = along == 0 ? VectorRead::kOne
                            : along == itemsize(in.dtype) ? VectorRead::kContiguous
                                                          : VectorRead::kStrided;
    run.reads.push_back(read);
    // Lanes a stride apart that one loop alone moves, below a loop they do
    // not move along, are gathered once per step instead of at every index
    // of that outer loop.
    int moving = 0, loop = 0;
    for (int l = 1; l < loops; ++l) {
      if (nest.moves[i] & (1u << nest.loop_order[static_cast<std::size_t>(l)])) {
        ++moving;
        loop = l;
      }
    }
    run.packed_loop.push_back(read == VectorRead::kStrided && moving == 1 && loop >= 2 ? loop : 0);
  }
  // Each level's operand as NumPy lays it out: the value's order, less the
  // dimensions the levels below reduced.
  std::vector<int> layout = value_layout;
  for (std::size_t l = 0; l < nest.levels.size(); ++l) {
    const NestReduction& r = nest.reduced[l];
    int dim = 0;
    while (!(r.axes & (1u << dim))) ++dim;
    int innermost = -1;
    for (int d : layout) innermost = nest.domain[static_cast<std::size_t>(d)] > 1 ? d : innermost;
    const bool along_innermost = innermost == dim;
    ReductionOrder order = r.order;
    if (r.combine == Combine::kAdd && r.order != ReductionOrder::kAny) {
      order = along_innermost ? ReductionOrder::kPairwise : ReductionOrder::kSequential;
    } else if ((r.combine == Combine::kMin || r.combine == Combine::kMax) && along_innermost) {
      return false;
    }
    run.orders.push_back(order);
    if (order == ReductionOrder::kPairwise && nest.domain[static_cast<std::size_t>(dim)] < 8) {
      run.short_sums |= 1u << l;
    }
    layout.erase(std::remove(layout.begin(), layout.end(), dim), layout.end());
  }
  return true;
}

std::string nest_key(const LoopNest& nest) {
  // Built by appending, not through a stream: a region's first run waits
  // for the keys of its kernels.
  std::string key = "r" + std::to_string(nest.reduced_dims) + ";";
  auto name = [&](int node) {
    const std::size_t n = static_cast<std::size_t>(node);
    return n < nest.inputs.size() ? "i" + std::to_string(n) : "m" + std::to_string(n - nest.inputs.size());
  };
  for (std::size_t i = 0; i < nest.inputs.size(); ++i) {
    const Node& in = nest.body.nodes[i];
    // A Python number is held as a double or an int64, whatever its dtype:
    // it loads apart from a 0-d array of that dtype.
    // A 0-d input is one value over the whole loop, which kernels may pass
    // on as a scalar (NumPy's loops take other paths for one).
    key += "in" + std::to_string(i) + ":" + dtype_name(in.dtype) + (in.is_scalar_constant ? "c" : "") +
           (in.shape.empty() ? "0" : "") + (nest.broadcast_inner[i] ? "b" : nest.every_other_inner[i] ? "e" : "v");
    // Constants are run-time arguments, except a power's exponent, which
    // decides the code (x**2 is x*x, an integer power squares and
    // multiplies): its bits, exactly, as a double and as an integer.
    for (int m : nest.members) {
      const Node& n = nest.body.nodes[static_cast<std::size_t>(m)];
      if (n.op == Op::power && n.inputs[1] == static_cast<int>(i)) {
        std::uint64_t bits = 0;
        std::memcpy(&bits, &in.constant_float, sizeof bits);
        key += "=" + std::to_string(bits) + "/" + std::to_string(in.constant_int);
      }
    }
    key += ";";
  }
  for (int m : nest.members) {
    const Node& n = nest.body.nodes[static_cast<std::size_t>(m)];
    key += std::string(op_info(n.op).name) + ":" + dtype_name(n.compute) + ">" + dtype_name(n.dtype) + "(";
    for (int a = 0; a < op_info(n.op).arity; ++a) key += name(n.inputs[a]) + ",";
    key += ")";
    if (contains(nest.outputs, m)) key += "!";
    key += ";";
  }
  if (nest.levels.empty()) return key;
  // A chain's loops, which of them each input moves along and how the run
  // reads it, and each level's order.
  key += "chain " + name(nest.value) + " loops";
  for (int d : nest.loop_order) key += " " + std::to_string(d);
  key += ";";
  for (std::size_t i = 0; i < nest.inputs.size(); ++i) {
    key += "i" + std::to_string(i) + ":";
    for (std::size_t l = 1; l < nest.loop_order.size(); ++l) {
      key += (nest.moves[i] & (1u << nest.loop_order[l])) ? "m" : "-";
    }
    const VectorRead read = nest.run.reads.empty() ? VectorRead::kOne : nest.run.reads[i];
    key += read == VectorRead::kOne ? "o" : read == VectorRead::kContiguous ? "c" : "s";
    key += nest.run.packed_loop.empty() ? "0" : std::to_string(nest.run.packed_loop[i]);
    key += ";";
  }
  for (std::size_t l = 0; l < nest.levels.size(); ++l) {
    key += "L" + name(nest.levels[l].reduction) + ":" + order_text(nest.chain_order(l)) +
           ((nest.run.short_sums & (1u << l)) ? " short" : "") + ";";
  }
  return key;
}

std::string dump_nest(const LoopNest& nest) {
  std::ostringstream out;
  out << "for";
  if (!nest.levels.empty()) {
    // A chain's loops in their order, the vector dimension's first.
    for (std::size_t l = 0; l < nest.loop_order.size(); ++l) {
      const int d = nest.loop_order[l];
      out << (l ? ", i" : " i") << d << " < " << nest.domain[static_cast<std::size_t>(d)] << (l ? "" : " in lanes");
    }
    out << ":\n";
  }
  for (std::size_t d = 0; d < nest.domain.size() && nest.levels.empty(); ++d) {
    out << (d ? ", i" : " i") << d << " < " << nest.domain[d];
  }
  if (nest.domain.empty()) out << " one element";
  if (nest.reduced_dims > 0) {
    std::uint32_t reduced = 0;
    for (std::size_t d = nest.domain.size() - static_cast<std::size_t>(nest.reduced_dims); d < nest.domain.size(); ++d) {
      reduced |= 1u << d;
    }
    out << ", reducing " << axes_text(reduced);
  }
  if (nest.levels.empty()) out << ":\n";
  auto name = [&](int body) { return "%" + std::to_string(nest.origin[static_cast<std::size_t>(body)]); };
  for (std::size_t i = 0; i < nest.body.nodes.size(); ++i) {
    const Node& node = nest.body.nodes[i];
    const int at = static_cast<int>(i);
    std::ostringstream line;
    line << "  " << name(at) << " = ";
    if (i < nest.inputs.size()) {
      if (node.is_scalar_constant) {
        line << "constant " << node.constant_float;
      } else if (node.shape.empty()) {
        line << "load one value";
      } else {
        line << "load [";
        std::uint32_t moves = nest.moves[i];
        if (nest.broadcast_inner[i] && !nest.domain.empty()) moves &= ~(1u << (nest.domain.size() - 1));
        for (std::size_t d = 0; d < nest.domain.size(); ++d) {
          line << (d ? "," : "") << ((moves & (1u << d)) ? "i" + std::to_string(d) : std::string("0"));
        }
        line << "]";
        if (nest.every_other_inner[i]) line << " every other item";
        if (!nest.run.reads.empty()) {
          const VectorRead read = nest.run.reads[i];
          line << (read == VectorRead::kOne ? ", one for all lanes" : read == VectorRead::kContiguous ? ", lanes side by side" : ", lanes a stride apart");
          if (nest.run.packed_loop[i]) line << ", packed over i" << nest.loop_order[static_cast<std::size_t>(nest.run.packed_loop[i])];
        }
      }
    } else {
      const OpInfo& info = op_info(node.op);
      const NestReduction* reduction = nullptr;
      for (const NestReduction& r : nest.reduced) {
        if (r.statement == at) reduction = &r;
      }
      if (reduction && reduction->fold) {
        line << "fold of " << name(node.inputs[1]) << " into " << name(node.inputs[0]) << " by " << info.name
             << " over " << axes_text(reduction->axes);
      } else {
        line << info.name << "(";
        for (int a = 0; a < info.arity; ++a) line << (a ? ", " : "") << name(node.inputs[a]);
        line << ")";
        if (reduction) line << " over " << axes_text(reduction->axes);
      }
      if (reduction) {
        line << ", " << order_text(reduction->order) << " from "
             << identity_text(reduction->combine, node.dtype);
      }
    }
    std::string text = line.str();
    text.resize(std::max<std::size_t>(text.size() + 2, 44), ' ');
    out << text << dtype_name(node.dtype) << " " << placement_text(nest.placement[i]) << "\n";
  }
  return out.str();
}

}  // namespace npy::jit
