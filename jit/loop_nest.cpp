#include "jit/loop_nest.h"

#include <algorithm>
#include <cstring>
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
    if (step.eager || step.staged) continue;
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
           (in.shape.empty() ? "0" : "") + (nest.broadcast_inner[i] ? "b" : "v");
    // Constants are run-time arguments, except a power's exponent, which
    // decides the code (x**2 is x*x): its bits, exactly.
    for (int m : nest.members) {
      const Node& n = nest.body.nodes[static_cast<std::size_t>(m)];
      if (n.op == Op::power && n.inputs[1] == static_cast<int>(i)) {
        std::uint64_t bits = 0;
        std::memcpy(&bits, &in.constant_float, sizeof bits);
        key += "=" + std::to_string(bits);
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
  return key;
}

std::string dump_nest(const LoopNest& nest) {
  std::ostringstream out;
  out << "for";
  for (std::size_t d = 0; d < nest.domain.size(); ++d) out << (d ? ", i" : " i") << d << " < " << nest.domain[d];
  if (nest.domain.empty()) out << " one element";
  if (nest.reduced_dims > 0) {
    std::uint32_t reduced = 0;
    for (std::size_t d = nest.domain.size() - static_cast<std::size_t>(nest.reduced_dims); d < nest.domain.size(); ++d) {
      reduced |= 1u << d;
    }
    out << ", reducing " << axes_text(reduced);
  }
  out << ":\n";
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
