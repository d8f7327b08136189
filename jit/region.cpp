#include "jit/region.h"

#include <sstream>

namespace npy::jit {

const OpInfo& op_info(Op op) {
  static const OpInfo kInfos[] = {
#define NPY_REGION_OP_INFO(name, kind, arity, quiet, numpy_loop, combine) \
  {#name, OpKind::kind, arity, quiet, numpy_loop, Combine::combine},
      NPY_REGION_OPS(NPY_REGION_OP_INFO)
#undef NPY_REGION_OP_INFO
  };
  return kInfos[static_cast<int>(op)];
}

std::int64_t element_count(const Shape& shape) {
  std::int64_t n = 1;
  for (std::int64_t d : shape) n *= d;
  return n;
}

namespace {

void write_shape(std::ostringstream& out, const Shape& shape) {
  out << '[';
  for (std::size_t i = 0; i < shape.size(); ++i) out << (i ? "," : "") << shape[i];
  out << ']';
}

}  // namespace

std::string dump_region(const Region& region, const std::vector<bool>& results) {
  std::ostringstream out;
  for (std::size_t i = 0; i < region.nodes.size(); ++i) {
    const Node& node = region.nodes[i];
    const OpInfo& info = op_info(node.op);
    out << "  %" << i << " = ";
    if (node.op == Op::input) {
      if (node.is_scalar_constant) {
        out << "scalar " << node.constant_float;
      } else {
        out << "input";
      }
    } else {
      out << info.name << '(';
      for (int a = 0; a < info.arity; ++a) out << (a ? ", %" : "%") << node.inputs[a];
      if (info.kind == OpKind::kReduce || info.kind == OpKind::kNorm || info.kind == OpKind::kScan) {
        out << "; axes=";
        bool first = true;
        for (int d = 0; d < 32; ++d) {
          if (node.axes & (1u << d)) {
            out << (first ? "" : ",") << d;
            first = false;
          }
        }
        if (node.keepdims) out << " keepdims";
      }
      out << ')';
    }
    out << " : " << dtype_name(node.dtype);
    write_shape(out, node.shape);
    if (!results.empty() && results[i]) out << "  -> result";
    out << '\n';
  }
  return out.str();
}

}  // namespace npy::jit
