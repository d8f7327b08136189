// The x86 backend's 128-bit (SSE2), 256-bit (AVX2) and 512-bit (AVX-512)
// kernels give the same bytes. Regions are built through the jit IR (no Python), planned and
// fused as the runtime plans them, compiled by both backends and run
// through the CPU driver on the same inputs; every value a kernel writes
// and the floating-point flags it raises must be bitwise identical. Where
// this CPU has no AVX-512 the 512-bit kernels are still generated (so that
// code generation is checked everywhere) and the comparison is skipped.
// SSE2 kernels run on every x86-64 CPU; programs whose plan at SSE2 differs
// (float min and max reductions are left to NumPy there) are not compared
// at that width.
//
// Leaf-sum kernels with a paired function (Kernel::paired) are also run
// without it at the host's widths, which must give the same bytes too.
//
// DISABLED_Timing times a few kernels at both widths (run it with
// --gtest_also_run_disabled_tests --gtest_filter='*Timing*'); it asserts
// nothing about speed.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "jit/cpu_kernels.h"
#include "jit/cpu_driver.h"
#include "jit/fusion.h"
#include "jit/host.h"
#include "jit/loop_nest.h"
#include "jit/numpy_loops.h"
#include "jit/trace_log.h"

namespace npy::jit {
namespace {

constexpr DType kAllTypes[] = {DType::kBool,   DType::kInt8,   DType::kInt16,   DType::kInt32,
                               DType::kInt64,  DType::kUInt8,  DType::kUInt16,  DType::kUInt32,
                               DType::kUInt64, DType::kFloat32, DType::kFloat64};

// Lengths from empty through one and a few vectors (4, 8 or 16 lanes) with
// odd tails, to a few spans.
constexpr std::int64_t kLengths[] = {0, 1, 2, 3, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 47, 64, 65, 100, 127, 129, 1000, 4099};

// Stand-ins for NumPy's inner loops (numpy_loops.h), which kernels call by
// default: libm's functions, and for // and % formulas of the same kind as
// NumPy's. Every width calls the same loop on the same lanes, so results
// must agree to the bit.
template <typename T>
T stand_in(Op op, T a, T b) {
  switch (op) {
    case Op::power: return std::pow(a, b);
    case Op::arctan2: return std::atan2(a, b);
    case Op::floor_divide: return std::floor(a / b);
    case Op::remainder: return a - std::floor(a / b) * b;
    case Op::exp: return std::exp(a);
    case Op::exp2: return std::exp2(a);
    case Op::expm1: return std::expm1(a);
    case Op::log: return std::log(a);
    case Op::log2: return std::log2(a);
    case Op::log10: return std::log10(a);
    case Op::log1p: return std::log1p(a);
    case Op::sin: return std::sin(a);
    case Op::cos: return std::cos(a);
    case Op::tan: return std::tan(a);
    case Op::arcsin: return std::asin(a);
    case Op::arccos: return std::acos(a);
    case Op::arctan: return std::atan(a);
    case Op::sinh: return std::sinh(a);
    case Op::cosh: return std::cosh(a);
    case Op::tanh: return std::tanh(a);
    default: return a;
  }
}

// For integers: truncating // and %, 0 for a zero divisor.
template <typename T>
T int_stand_in(Op op, T a, T b) {
  const bool divides = b != 0 && !(std::is_signed_v<T> && b == T(-1));
  switch (op) {
    case Op::floor_divide: return divides ? T(a / b) : T(0);
    case Op::remainder: return divides ? T(a % b) : T(0);
    case Op::fmin: return std::min(a, b);
    case Op::fmax: return std::max(a, b);
    case Op::sign: return T((a > 0) - (a < T(0)));
    default: return a;
  }
}

// The stand-in as NumPy's loop signature: floats by stand_in, integers by
// int_stand_in.
template <typename T, int OpIndex>
void stand_in_loop(char** args, const std::intptr_t* dimensions, const std::intptr_t* steps, void*) {
  const auto op = static_cast<Op>(OpIndex);
  const bool binary = op_info(op).arity == 2;
  char* out = args[binary ? 2 : 1];
  for (std::intptr_t i = 0; i < dimensions[0]; ++i) {
    T a, b = T();
    std::memcpy(&a, args[0] + i * steps[0], sizeof a);
    if (binary) std::memcpy(&b, args[1] + i * steps[1], sizeof b);
    T r;
    if constexpr (std::is_floating_point_v<T>) {
      r = stand_in(op, a, b);
    } else {
      r = int_stand_in(op, a, b);
    }
    std::memcpy(out + i * steps[binary ? 2 : 1], &r, sizeof r);
  }
}

template <int... Index>
void register_stand_ins(std::integer_sequence<int, Index...>) {
  ((set_numpy_loop(static_cast<Op>(Index), DType::kFloat64, {&stand_in_loop<double, Index>, nullptr}),
    set_numpy_loop(static_cast<Op>(Index), DType::kFloat32, {&stand_in_loop<float, Index>, nullptr}),
    set_numpy_loop(static_cast<Op>(Index), DType::kInt64, {&stand_in_loop<std::int64_t, Index>, nullptr}),
    set_numpy_loop(static_cast<Op>(Index), DType::kInt32, {&stand_in_loop<std::int32_t, Index>, nullptr}),
    set_numpy_loop(static_cast<Op>(Index), DType::kUInt64, {&stand_in_loop<std::uint64_t, Index>, nullptr}),
    set_numpy_loop(static_cast<Op>(Index), DType::kUInt32, {&stand_in_loop<std::uint32_t, Index>, nullptr})),
   ...);
}

class StandInLoops : public ::testing::Environment {
 public:
  void SetUp() override { register_stand_ins(std::make_integer_sequence<int, kOpCount>()); }
};
::testing::Environment* const kStandInLoops = ::testing::AddGlobalTestEnvironment(new StandInLoops);

// How an array's values are drawn.
enum class Fill {
  kMixed,     // anything: for floats ordinary values with zeros of both signs, NaNs, infinities, subnormals, huge
  kPositive,  // floats: mostly positive ordinary values (sqrt, log)
  kZeros,     // floats: 0.0 and -0.0, ordinary values, NaNs of several payloads (min, max)
  kSigned0,   // floats: only 0.0, -0.0 and a few ordinary values (min, max without NaN)
  kSmall,     // small integers (ties in argmin, shift counts, k-means distances)
};

struct Array {
  DType dtype = DType::kFloat64;
  Shape shape;
  std::vector<std::int64_t> strides;  // bytes
  std::vector<unsigned char> bytes;
  std::size_t offset = 0;  // of element 0 in bytes
  const char* data() const { return reinterpret_cast<const char*>(bytes.data() + offset); }
};

std::vector<std::int64_t> c_strides(const Shape& shape, int size) {
  std::vector<std::int64_t> s(shape.size(), size);
  for (int d = static_cast<int>(shape.size()) - 2; d >= 0; --d) s[d] = s[d + 1] * shape[d + 1];
  return s;
}

template <typename T>
void put(unsigned char* at, T value) {
  std::memcpy(at, &value, sizeof value);
}

// One element of `t` drawn as `fill` says.
void draw(std::mt19937_64& rng, DType t, Fill fill, unsigned char* at) {
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const double u = unit(rng);
  if (is_float(t)) {
    const bool f32 = t == DType::kFloat32;
    double v = (unit(rng) - 0.5) * 200.0;
    auto nan_with_payload = [&] {
      if (f32) {
        const std::uint32_t bits = 0x7fc00000u | (static_cast<std::uint32_t>(rng()) & 0x3fffffu) |
                                   (rng() & 1 ? 0x80000000u : 0u);
        put(at, bits);
      } else {
        const std::uint64_t bits = 0x7ff8000000000000ull | (rng() & 0x7ffffffffffffull) |
                                   (rng() & 1 ? 0x8000000000000000ull : 0ull);
        put(at, bits);
      }
    };
    switch (fill) {
      case Fill::kMixed:
        if (u < 0.04) v = 0.0;
        else if (u < 0.08) v = -0.0;
        else if (u < 0.11) { nan_with_payload(); return; }
        else if (u < 0.13) v = HUGE_VAL;
        else if (u < 0.15) v = -HUGE_VAL;
        else if (u < 0.17) v = f32 ? 1e-40 : 1e-310;
        else if (u < 0.19) v = f32 ? 3e38 : 1e308;
        else if (u < 0.21) v = std::floor(v) + 0.5;
        break;
      case Fill::kPositive:
        v = std::fabs(v) * (u < 0.5 ? 0.01 : 1.0);
        if (u < 0.03) v = -1.0;
        break;
      case Fill::kZeros:
        if (u < 0.35) v = 0.0;
        else if (u < 0.7) v = -0.0;
        else if (u < 0.8) { nan_with_payload(); return; }
        break;
      case Fill::kSigned0:
        if (u < 0.45) v = 0.0;
        else if (u < 0.9) v = -0.0;
        else v = 1.0 + std::floor(u * 4);
        break;
      case Fill::kSmall:
        v = std::floor(unit(rng) * 7) - 3;
        break;
    }
    f32 ? put(at, static_cast<float>(v)) : put(at, v);
    return;
  }
  std::uint64_t bits = rng();
  if (t == DType::kBool) {
    bits &= 1;
  } else if (fill == Fill::kSmall || u < 0.3) {
    bits = static_cast<std::uint64_t>(static_cast<std::int64_t>(rng() % 80) - 8);  // shift counts past the width too
  } else if (u < 0.4) {
    bits = 0;
  }
  std::memcpy(at, &bits, itemsize(t));  // little-endian: the low bytes
}

// A region and the arrays its inputs read.
class Program {
 public:
  explicit Program(std::uint64_t seed = 1) : rng_(seed) {}

  Region region;
  std::map<int, Array> arrays;  // input nodes with data
  std::vector<bool> leaves;

  // An array input; `strides_in_items` (empty: C order) may step unevenly,
  // as views do.
  int array(DType t, Shape shape, Fill fill = Fill::kMixed, std::vector<std::int64_t> strides_in_items = {}) {
    Node node;
    node.op = Op::input;
    node.dtype = node.compute = t;
    node.shape = shape;
    const int size = itemsize(t);
    Array a;
    a.dtype = t;
    a.shape = shape;
    if (strides_in_items.empty()) {
      a.strides = c_strides(shape, size);
    } else {
      for (std::int64_t s : strides_in_items) a.strides.push_back(s * size);
    }
    // The elements' span (strides may be negative), plus an offset off any alignment.
    std::int64_t low = 0, high = 0;
    for (std::size_t d = 0; d < shape.size(); ++d) {
      if (shape[d] == 0) continue;
      const std::int64_t reach = (shape[d] - 1) * a.strides[d];
      (reach < 0 ? low : high) += reach;
    }
    a.offset = static_cast<std::size_t>(-low) + size;
    a.bytes.assign(static_cast<std::size_t>(high - low + 2 * size), 0);
    const std::int64_t n = element_count(shape);
    std::vector<std::int64_t> index(shape.size(), 0);
    for (std::int64_t e = 0; e < n; ++e) {
      std::int64_t at = static_cast<std::int64_t>(a.offset);
      for (std::size_t d = 0; d < shape.size(); ++d) at += index[d] * a.strides[d];
      draw(rng_, t, fill, a.bytes.data() + at);
      for (int d = static_cast<int>(shape.size()) - 1; d >= 0; --d) {
        if (++index[d] < shape[d]) break;
        index[d] = 0;
      }
    }
    const int id = add(node);
    arrays[id] = std::move(a);
    return id;
  }

  // A 0-d array holding `value` (converted to t).
  int zero_d(DType t, double value) {
    const int id = array(t, {});
    unsigned char* at = arrays[id].bytes.data() + arrays[id].offset;
    switch (t) {
      case DType::kFloat64: put(at, value); break;
      case DType::kFloat32: put(at, static_cast<float>(value)); break;
      default: {
        const auto i = static_cast<std::int64_t>(value);
        std::memcpy(at, &i, itemsize(t));
      }
    }
    return id;
  }

  // A Python float (float64 constant) or int (int64 constant).
  int python_float(double value) {
    Node node;
    node.op = Op::input;
    node.dtype = node.compute = DType::kFloat64;
    node.is_scalar_constant = true;
    node.constant_float = value;
    node.constant_int = static_cast<std::int64_t>(value);
    return add(node);
  }

  int python_int(std::int64_t value) {
    Node node;
    node.op = Op::input;
    node.dtype = node.compute = DType::kInt64;
    node.is_scalar_constant = true;
    node.constant_int = value;
    node.constant_float = static_cast<double>(value);
    return add(node);
  }

  // An element-wise op over broadcast operands.
  int op(Op o, std::vector<int> inputs, DType compute, DType result) {
    Node node;
    node.op = o;
    node.compute = compute;
    node.dtype = result;
    for (std::size_t i = 0; i < inputs.size(); ++i) {
      node.inputs[i] = inputs[i];
      const Shape& s = region.nodes[inputs[i]].shape;
      if (s.size() > node.shape.size()) node.shape.insert(node.shape.begin(), s.size() - node.shape.size(), 1);
      for (std::size_t d = 0; d < s.size(); ++d) {
        std::int64_t& mine = node.shape[node.shape.size() - s.size() + d];
        if (mine == 1) mine = s[d];
      }
    }
    return add(node);
  }

  int reduce(Op o, int input, std::uint32_t axes, DType result, bool keepdims = false) {
    Node node;
    node.op = o;
    node.dtype = result;
    node.compute = region.nodes[input].dtype;
    node.axes = axes;
    node.keepdims = keepdims;
    node.inputs[0] = input;
    const Shape& in = region.nodes[input].shape;
    for (std::size_t d = 0; d < in.size(); ++d) {
      if (axes & (1u << d)) {
        if (keepdims) node.shape.push_back(1);
      } else {
        node.shape.push_back(in[d]);
      }
    }
    return add(node);
  }

  // np.arange(start, start + n * delta, delta) as the tracer records it.
  int arange(DType t, std::int64_t n, double start, double delta) {
    const int a = zero_d(t, start), b = zero_d(t, start + delta), c = zero_d(t, delta);
    Node node;
    node.op = Op::arange;
    node.dtype = node.compute = t;
    node.shape = {n};
    node.inputs[0] = a;
    node.inputs[1] = b;
    node.inputs[2] = c;
    return add(node);
  }

  void result(int node) { leaves[node] = true; }

 private:
  int add(const Node& node) {
    leaves.push_back(false);
    return region.add(node);
  }
  std::mt19937_64 rng_;
};

// X86_WIDTHS_LISTING=1 prints every kernel's code as it is compiled.
const bool g_listing = [] {
  if (!std::getenv("X86_WIDTHS_LISTING")) return false;
  unsigned mask = 0;
  parse_log_channels("output_code", mask);
  set_log_channels(mask);
  return true;
}();

// What a run produced: every value a step wrote, and the flags each raised.
struct Outcome {
  std::map<int, std::vector<unsigned char>> values;
  std::vector<int> flags;
  std::vector<std::string> kernels;  // "lanes,leaf_sums" per fused step
};

// A value's memory: its bytes start 64-byte aligned (so that streaming
// stores find aligned vectors) in `bytes`, which has room for that.
struct Buffer {
  std::vector<unsigned char> bytes;
  std::size_t size = 0;  // of the value
  Shape shape;
  unsigned char* data() {
    const auto at = reinterpret_cast<std::uintptr_t>(bytes.data());
    return bytes.data() + (64 - at % 64) % 64;
  }
  std::vector<unsigned char> value() { return std::vector<unsigned char>(data(), data() + size); }
};

class Runner {
 public:
  // `paired`: whether the driver may call Kernel::paired functions;
  // `streaming`: whether element-wise kernels store past the caches.
  Runner(KernelCompiler& backend, const Program& program, bool paired = true, bool streaming = false)
      : backend_(backend), program_(program), paired_(paired), streaming_(streaming) {}

  // Whether the backend fuses every step of the program.
  bool fuses_all() const {
    const Region& region = program_.region;
    const std::vector<bool> needed(region.nodes.size(), true);
    const std::vector<Step> steps = plan_region(region, needed, program_.leaves, [this](const Region& r, int node) {
      return backend_.fuse_class(r, node);
    });
    return std::none_of(steps.begin(), steps.end(), [](const Step& s) { return s.eager; });
  }

  // Plans the program, compiles every step (on the first run) and, unless
  // `compile_only`, runs it.
  Outcome run(bool compile_only) {
    Outcome out;
    step_ = 0;
    const Region& region = program_.region;
    const std::vector<bool> needed(region.nodes.size(), true);
    const std::vector<Step> steps = plan_region(region, needed, program_.leaves, [this](const Region& r, int node) {
      return backend_.fuse_class(r, node);
    });
    for (const Step& step : steps) {
      if (step.eager) {
        ADD_FAILURE() << "not fused: %" << step.node << " " << op_info(region.nodes[step.node].op).name << "\n"
                      << dump_region(region, program_.leaves);
        return out;
      }
      if (step.chain) {
        run_chain_step(step.reduction_chain, compile_only, out);
      } else {
        run_group(step.group, compile_only, out);
      }
      ++step_;
      if (::testing::Test::HasFatalFailure() || ::testing::Test::HasNonfatalFailure()) return out;
    }
    return out;
  }

  // Seconds the driver spent running kernels, over all runs.
  double kernel_seconds() const { return kernel_seconds_; }

 private:
  template <typename Run>
  int timed(Run run) {
    const auto start = std::chrono::steady_clock::now();
    const int flags = run();
    kernel_seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return flags;
  }

  // A buffer of `bytes` for a value (kept between runs).
  static void make(Buffer& b, const Shape& shape, std::size_t bytes) {
    b.shape = shape;
    b.size = bytes;
    if (b.bytes.size() != bytes + 64) b.bytes.assign(bytes + 64, 0xa5);
  }

  LoopInput loop_input(int node, const Shape& shape) {
    const Node& n = program_.region.nodes[node];
    LoopInput in;
    in.dtype = n.dtype;
    in.strides.assign(shape.size(), 0);
    if (n.is_scalar_constant) {
      auto bits = std::make_unique<std::int64_t>(n.constant_int);
      if (n.dtype == DType::kFloat64) std::memcpy(bits.get(), &n.constant_float, 8);
      in.data = reinterpret_cast<const char*>(bits.get());
      constants_.push_back(std::move(bits));
      return in;
    }
    const Shape* dims;
    std::vector<std::int64_t> strides;
    const auto found = program_.arrays.find(node);
    if (found != program_.arrays.end()) {
      in.data = found->second.data();
      dims = &found->second.shape;
      strides = found->second.strides;
    } else {
      Buffer& b = buffers_.at(node);
      in.data = reinterpret_cast<const char*>(b.data());
      dims = &b.shape;
      strides = c_strides(b.shape, itemsize(n.dtype));
    }
    const std::size_t offset = shape.size() - dims->size();
    for (std::size_t d = 0; d < dims->size(); ++d) {
      if ((*dims)[d] != 1) in.strides[offset + d] = strides[d];
    }
    return in;
  }

  void run_group(const Group& group, bool compile_only, Outcome& out) {
    const Region& region = program_.region;
    std::vector<LoopInput> inputs;
    for (int i : group.inputs) inputs.push_back(loop_input(i, group.shape));
    std::vector<LoopOutput> outputs;
    for (int o : group.outputs) {
      Buffer& b = buffers_[o];
      make(b, group.shape, static_cast<std::size_t>(element_count(group.shape) * itemsize(region.nodes[o].dtype)));
      outputs.push_back({reinterpret_cast<char*>(b.data()), region.nodes[o].dtype, {}});
    }
    std::vector<LoopReduction> reductions;
    for (int r : group.reductions) {
      const Node& n = region.nodes[r];
      Buffer& b = buffers_[r];
      make(b, n.shape, static_cast<std::size_t>(std::max<std::int64_t>(1, element_count(n.shape)) * itemsize(n.dtype)));
      // As the region runner describes them.
      const bool extreme = n.op == Op::min || n.op == Op::max || n.op == Op::argmin || n.op == Op::argmax;
      const DType compute = is_float(n.compute) || extreme ? n.compute
                            : (n.op == Op::any || n.op == Op::all) ? DType::kBool
                                                                   : DType::kInt64;
      reductions.push_back({n.op, compute, n.dtype, reinterpret_cast<char*>(b.data())});
    }
    Shape loop_shape = group.shape;
    const bool from_indices = std::any_of(group.members.begin(), group.members.end(), [&](int m) {
      return op_info(region.nodes[m].op).kind == OpKind::kIndex;
    });
    int reduced_dims = group.reduced_dims;
    order_loop(loop_shape, reduced_dims, inputs, outputs, reductions, from_indices);
    LoopNest nest = lower_group(region, group);
    KernelOptions options;
    options.leaf_sums = fits_leaf_sums(loop_shape, reduced_dims, inputs, outputs, reductions);
    options.streaming_stores = streaming_ && reductions.empty();
    options.row_results = !options.leaf_sums && fits_row_results(loop_shape, reduced_dims, inputs, outputs,
                                                                 reductions, backend_.lanes(nest));
    const bool leaf_sums = options.leaf_sums;
    std::unique_ptr<Kernel>& kernel = kernels_[step_];
    if (!kernel) {
      nest.broadcast_inner = broadcast_inner(inputs);
      kernel = backend_.compile(nest, options);
    }
    if (!kernel) {
      ADD_FAILURE() << backend_.name() << " made no kernel for:\n" << dump_region(region, program_.leaves);
      return;
    }
    if (!paired_) kernel->paired = nullptr;
    out.kernels.push_back(std::to_string(kernel->lanes) + (leaf_sums ? ",leaves" : "") +
                          (kernel->paired ? ",paired" : "") + (kernel->streaming_stores ? ",streaming" : "") +
                          (kernel->row_results ? ",rows" : ""));
    if (g_listing) std::printf("%s, %d lanes:\n%s\n", backend_.name(), kernel->lanes, kernel->listing.c_str());
    if (compile_only) return;
    const int flags =
        timed([&] { return run_kernel(*kernel, loop_shape, reduced_dims, inputs, outputs, reductions); });
    EXPECT_GE(flags, 0) << "the driver did not run the kernel";
    out.flags.push_back(flags);
    for (int o : group.outputs) out.values[o] = buffers_[o].value();
    for (int r : group.reductions) out.values[r] = buffers_[r].value();
  }

  void run_chain_step(const ReductionChain& chain, bool compile_only, Outcome& out) {
    std::vector<LoopInput> inputs;
    std::vector<Dims> strides;
    for (int i : chain.loop.inputs) {
      inputs.push_back(loop_input(i, chain.loop.shape));
      strides.push_back(inputs.back().strides);
    }
    LoopNest& nest = chain_nests_[step_];
    std::unique_ptr<ChainKernel>& kernel = chain_kernels_[step_];
    if (!kernel) {
      nest = lower_chain(program_.region, chain);
      std::vector<int> c_order(chain.loop.shape.size());
      for (std::size_t d = 0; d < c_order.size(); ++d) c_order[d] = static_cast<int>(d);
      if (!schedule_chain_run(nest, strides, c_order, nest.run)) {
        ADD_FAILURE() << "no run for the chain of:\n" << dump_region(program_.region, program_.leaves);
        return;
      }
      kernel = backend_.compile_chain(nest);
    }
    if (!kernel) {
      ADD_FAILURE() << backend_.name() << " made no chain kernel for:\n" << dump_region(program_.region, program_.leaves);
      return;
    }
    out.kernels.push_back("chain " + std::to_string(kernel->points));
    if (g_listing) std::printf("%s, chain:\n%s\n", backend_.name(), kernel->listing.c_str());
    if (compile_only) return;
    const int result = chain_result(chain);
    const Node& node = program_.region.nodes[result];
    Buffer& b = buffers_[result];
    make(b, node.shape, static_cast<std::size_t>(element_count(node.shape) * itemsize(node.dtype)));
    const int flags =
        timed([&] { return run_chain(*kernel, nest, inputs, reinterpret_cast<char*>(b.data()), node.dtype); });
    EXPECT_GE(flags, 0) << "the driver did not run the chain kernel";
    out.flags.push_back(flags);
    out.values[result] = b.value();
  }

  KernelCompiler& backend_;
  const Program& program_;
  const bool paired_;
  const bool streaming_;
  std::size_t step_ = 0;
  std::map<std::size_t, std::unique_ptr<Kernel>> kernels_;
  std::map<std::size_t, std::unique_ptr<ChainKernel>> chain_kernels_;
  std::map<std::size_t, LoopNest> chain_nests_;
  std::map<int, Buffer> buffers_;
  std::vector<std::unique_ptr<std::int64_t>> constants_;
  double kernel_seconds_ = 0;
};

KernelCompiler& sse2() {
  static const std::unique_ptr<KernelCompiler> backend = make_x86_compiler(VectorIsa::kSse2);
  return *backend;
}

KernelCompiler& avx2() {
  static const std::unique_ptr<KernelCompiler> backend = make_x86_compiler(VectorIsa::kAvx2);
  return *backend;
}

KernelCompiler& avx512() {
  static const std::unique_ptr<KernelCompiler> backend = make_x86_compiler(VectorIsa::kAvx512);
  return *backend;
}

bool host_has_avx512() { return host_vector_isa() == VectorIsa::kAvx512; }

std::string hex(const std::vector<unsigned char>& bytes, std::size_t from, std::size_t count) {
  std::ostringstream s;
  for (std::size_t i = from; i < std::min(bytes.size(), from + count); ++i) {
    char b[4];
    std::snprintf(b, sizeof b, "%02x", bytes[i]);
    s << b;
  }
  return s.str();
}

// Cases the test compared at both widths, with and without paired
// functions, and with and without streaming stores.
int g_compared = 0;
int g_sse2_compared = 0;
int g_paired_compared = 0;
int g_streaming_compared = 0;

// Whether `node` is a float min or max whose bits a run left to NumPy
// (kOrderDecides): kernels of other widths meet its equal values (zeros of
// both signs, NaNs) in other lanes.
bool left_to_numpy(const Program& program, const Outcome& outcome, int node) {
  const Node& n = program.region.nodes[static_cast<std::size_t>(node)];
  const bool ordered = std::any_of(outcome.flags.begin(), outcome.flags.end(),
                                   [](int f) { return f >= 0 && (f & kOrderDecides); });
  return ordered && is_min_max(n.op) && op_info(n.op).kind == OpKind::kReduce && is_float(n.dtype);
}

// Requires two runs of `program` (named `a` and `b`) to give the same bytes
// and flags, but for float min and max results both runs left to NumPy.
bool expect_same(const Program& program, const Outcome& first, const char* a, const Outcome& second, const char* b) {
  if (first.kernels.size() != second.kernels.size()) {
    ADD_FAILURE() << a << " ran " << first.kernels.size() << " kernels, " << b << " " << second.kernels.size();
    return false;
  }
  EXPECT_EQ(first.flags, second.flags) << "floating-point flags differ (" << a << ", " << b << ")\n"
                                       << dump_region(program.region, program.leaves);
  for (const auto& [node, bytes] : first.values) {
    if (left_to_numpy(program, first, node) && left_to_numpy(program, second, node)) continue;
    const std::vector<unsigned char>& other = second.values.at(node);
    EXPECT_EQ(bytes.size(), other.size());
    const auto diff = std::mismatch(bytes.begin(), bytes.end(), other.begin(), other.end());
    if (diff.first != bytes.end()) {
      const std::size_t at = static_cast<std::size_t>(diff.first - bytes.begin());
      const int size = itemsize(program.region.nodes[node].dtype);
      const std::size_t element = at / size;
      ADD_FAILURE() << "%" << node << " differs at element " << element << ": " << a << " "
                    << hex(bytes, element * size, size) << ", " << b << " " << hex(other, element * size, size) << "\n"
                    << dump_region(program.region, program.leaves);
      return false;
    }
  }
  return !::testing::Test::HasFailure();
}

// Whether a kernel of the run was compiled with `what` (",paired", ",streaming").
bool uses(const Outcome& outcome, const char* what) {
  return std::any_of(outcome.kernels.begin(), outcome.kernels.end(),
                     [&](const std::string& k) { return k.find(what) != std::string::npos; });
}

// Runs `program` at 128, 256 and 512 bits and requires the same bytes.
// Without AVX-512 here, the 512-bit kernels are only generated. Programs
// whose kernels have paired functions also run without them, and those
// with element-wise kernels with streaming stores.
void check(const Program& program, const std::string& what) {
  SCOPED_TRACE(what);
  const Outcome narrow = Runner(avx2(), program).run(false);
  if (::testing::Test::HasFailure()) return;
  if (uses(narrow, ",paired")) {
    if (!expect_same(program, narrow, "avx2", Runner(avx2(), program, false).run(false), "avx2 unpaired")) return;
    ++g_paired_compared;
  }
  const Outcome streamed = Runner(avx2(), program, true, true).run(false);
  if (uses(streamed, ",streaming")) {
    if (!expect_same(program, narrow, "avx2", streamed, "avx2 streaming")) return;
    ++g_streaming_compared;
  }
  if (Runner(sse2(), program).fuses_all()) {
    if (!expect_same(program, narrow, "avx2", Runner(sse2(), program).run(false), "sse2")) return;
    const Outcome sse2_streamed = Runner(sse2(), program, true, true).run(false);
    if (uses(sse2_streamed, ",streaming") && !expect_same(program, narrow, "avx2", sse2_streamed, "sse2 streaming")) {
      return;
    }
    ++g_sse2_compared;
  }
  const bool run_wide = host_has_avx512();
  const Outcome wide = Runner(avx512(), program).run(!run_wide);
  if (::testing::Test::HasFailure() || !run_wide) return;
  if (!expect_same(program, narrow, "avx2", wide, "avx512")) return;
  if (uses(wide, ",paired")) {
    if (!expect_same(program, wide, "avx512", Runner(avx512(), program, false).run(false), "avx512 unpaired")) return;
  }
  const Outcome wide_streamed = Runner(avx512(), program, true, true).run(false);
  if (uses(wide_streamed, ",streaming")) {
    if (!expect_same(program, wide, "avx512", wide_streamed, "avx512 streaming")) return;
  }
  ++g_compared;
}

void finish() {
  if (!host_has_avx512()) GTEST_SKIP() << "no AVX-512 on this CPU: 512-bit kernels generated, not run";
}

std::string name_of(Op o, DType t, std::int64_t n) {
  return std::string(op_info(o).name) + " " + dtype_name(t) + " n=" + std::to_string(n);
}

// ---------------------------------------------------------------- element-wise

const Op kFloatUnary[] = {Op::negative, Op::positive, Op::absolute, Op::sqrt,  Op::square, Op::reciprocal,
                          Op::floor,    Op::ceil,     Op::trunc,    Op::rint,  Op::isnan,  Op::isinf,
                          Op::isfinite, Op::sin,      Op::cos,      Op::tan,   Op::exp,    Op::exp2,
                          Op::expm1,    Op::log,      Op::log2,     Op::log10, Op::log1p,  Op::logical_not,
                          Op::arcsin,   Op::arccos,   Op::arctan,   Op::sinh,  Op::cosh,   Op::tanh,
                          Op::conjugate};

const Op kFloatBinary[] = {Op::add,       Op::subtract,   Op::multiply,   Op::divide,        Op::minimum,
                           Op::maximum,   Op::equal,      Op::not_equal,  Op::less,          Op::less_equal,
                           Op::greater,   Op::greater_equal, Op::logical_and, Op::logical_or, Op::logical_xor,
                           Op::power,     Op::arctan2,    Op::floor_divide, Op::remainder, Op::signaling_greater_equal};

bool gives_bool(Op o) {
  switch (o) {
    case Op::isnan: case Op::isinf: case Op::isfinite: case Op::logical_not: case Op::equal: case Op::not_equal:
    case Op::less: case Op::less_equal: case Op::greater: case Op::greater_equal: case Op::logical_and:
    case Op::logical_or: case Op::logical_xor: case Op::signaling_greater_equal:
      return true;
    default: return false;
  }
}

// Each function NumPy computes with an algorithm of its own, as kernels
// compute it: through NumPy's loop (here its stand-in), and with
// NPY_MATH=fast through npython's own vector code where it has some.
void check_both_ways(const Program& p, Op o, const std::string& what) {
  if (!op_info(o).numpy_loop) {
    check(p, what);
    return;
  }
  set_fast_math(false);
  check(p, what + " (NumPy's loop)");
  set_fast_math(true);
  if (!::testing::Test::HasFailure()) check(p, what + " (NPY_MATH=fast)");
  set_fast_math(false);
}

TEST(X86Widths, FloatElementwise) {
  const int streaming_before = g_streaming_compared;
  for (DType t : {DType::kFloat32, DType::kFloat64}) {
    for (std::int64_t n : kLengths) {
      for (Op o : kFloatUnary) {
        Program p(n * 31 + static_cast<int>(o));
        const Fill fill = (o == Op::sqrt || o == Op::log || o == Op::log2 || o == Op::log10) && n % 2 ? Fill::kPositive
                                                                                                         : Fill::kMixed;
        const int x = p.array(t, {n}, fill);
        p.result(p.op(o, {x}, t, gives_bool(o) ? DType::kBool : t));
        check_both_ways(p, o, name_of(o, t, n));
      }
      for (Op o : kFloatBinary) {
        Program p(n * 17 + static_cast<int>(o));
        const Fill fill = o == Op::minimum || o == Op::maximum ? Fill::kZeros : Fill::kMixed;
        const int x = p.array(t, {n}, fill), y = p.array(t, {n}, fill);
        p.result(p.op(o, {x, y}, t, gives_bool(o) ? DType::kBool : t));
        check_both_ways(p, o, name_of(o, t, n));
      }
      {  // x**2, x * a Python float, x + a 0-d array, where, clip, full, astype(bool)
        Program p(n);
        const int x = p.array(t, {n}), y = p.array(t, {n}, Fill::kZeros);
        const int squared = p.op(Op::power, {x, p.python_float(2.0)}, t, t);
        const int scaled = p.op(Op::multiply, {squared, p.python_float(1.2345678901234)}, t, t);
        const int shifted = p.op(Op::add, {scaled, p.zero_d(t, -0.75)}, t, t);
        const int above = p.op(Op::greater, {x, y}, t, DType::kBool);
        const int picked = p.op(Op::where, {above, shifted, y}, t, t);
        p.result(p.op(Op::clip, {picked, p.python_float(-3.5), p.python_float(40.0)}, t, t));
        const int filled = p.op(Op::full, {p.zero_d(t, 2.5)}, t, t);
        Node& f = p.region.nodes[filled];
        f.shape = {n};
        p.result(p.op(Op::subtract, {x, filled}, t, t));
        p.result(p.op(Op::astype, {y}, DType::kBool, DType::kBool));
        check(p, "float mix " + std::string(dtype_name(t)) + " n=" + std::to_string(n));
      }
    }
  }
  EXPECT_GT(g_streaming_compared, streaming_before) << "no program ran a streaming kernel";
  finish();
}

// The integer compute types (lanes of 32 or 64 bits) and the array types
// that convert into each as they are loaded.
struct IntCompute {
  DType compute;
  std::vector<DType> from;
};

const IntCompute kIntComputes[] = {
    {DType::kInt32, {DType::kInt32, DType::kInt8, DType::kInt16, DType::kUInt8, DType::kUInt16, DType::kBool}},
    {DType::kUInt32, {DType::kUInt32, DType::kUInt8, DType::kUInt16, DType::kBool}},
    {DType::kInt64, {DType::kInt64, DType::kInt8, DType::kInt16, DType::kInt32, DType::kUInt8, DType::kUInt16,
                     DType::kUInt32}},
    {DType::kUInt64, {DType::kUInt64, DType::kUInt8, DType::kUInt16, DType::kUInt32, DType::kBool}},
};

TEST(X86Widths, IntegerElementwise) {
  const Op binary[] = {Op::add,     Op::subtract,   Op::multiply, Op::bitwise_and, Op::bitwise_or,
                       Op::bitwise_xor, Op::left_shift, Op::right_shift, Op::minimum, Op::maximum,
                       Op::equal,   Op::not_equal,  Op::less,     Op::less_equal,  Op::greater,
                       Op::greater_equal};
  for (const IntCompute& ic : kIntComputes) {
    const DType c = ic.compute;
    for (std::int64_t n : kLengths) {
      for (DType from : ic.from) {
        for (Op o : binary) {
          const bool ordered = o == Op::less || o == Op::less_equal || o == Op::greater || o == Op::greater_equal;
          if (ordered && is_unsigned(c)) continue;  // compared by NumPy
          Program p(n * 7 + static_cast<int>(o) * 3 + static_cast<int>(from));
          const int a = p.array(from, {n}), b = p.array(c, {n});
          const bool compare = o == Op::equal || o == Op::not_equal || ordered;
          p.result(p.op(o, {a, b}, c, compare ? DType::kBool : c));
          check(p, name_of(o, c, n) + " from " + dtype_name(from));
        }
      }
      Program p(n + 5);
      const int a = p.array(ic.from.back(), {n}), b = p.array(c, {n}, Fill::kSmall);
      p.result(p.op(Op::negative, {a}, c, c));
      p.result(p.op(Op::positive, {b}, c, c));
      p.result(p.op(Op::add, {b, p.python_int(7)}, c, c));
      p.result(p.op(Op::square, {a}, c, c));
      p.result(p.op(Op::where, {p.op(Op::not_equal, {a, b}, c, DType::kBool), a, b}, c, c));
      if (is_signed_int(c)) p.result(p.op(Op::clip, {a, p.python_int(-3), p.python_int(50)}, c, c));
      check(p, "integer mix " + std::string(dtype_name(c)) + " n=" + std::to_string(n));
    }
  }
  finish();
}

// 64-bit integers (every bit pattern, so every rounding case) into float64
// lanes, loaded and computed, give C's cast at every width; unsigned ones
// compare as unsigned, and ~ inverts them.
TEST(X86Widths, SixtyFourBitIntegers) {
  for (std::int64_t n : kLengths) {
    for (DType t : {DType::kInt64, DType::kUInt64}) {
      Program p(n * 3 + static_cast<int>(t));
      const int i = p.array(t, {n}), j = p.array(t, {n});
      const int as_double = p.op(Op::astype, {i}, DType::kFloat64, DType::kFloat64);
      p.result(as_double);
      const int sum = p.op(Op::add, {i, j}, t, t);
      p.result(p.op(Op::multiply, {sum, p.python_float(0.5)}, DType::kFloat64, DType::kFloat64));
      p.result(p.op(Op::less, {i, j}, t, DType::kBool));
      p.result(p.op(Op::greater_equal, {i, j}, t, DType::kBool));
      p.result(p.op(Op::invert, {j}, t, t));
      check(p, std::string("64-bit ints ") + dtype_name(t) + " n=" + std::to_string(n));
      if (::testing::Test::HasFailure()) return;
      const Outcome out = Runner(avx2(), p).run(false);
      const std::vector<unsigned char>& doubles = out.values.at(as_double);
      const Array& in = p.arrays.at(i);
      for (std::int64_t e = 0; e < n; ++e) {
        std::uint64_t bits;
        std::memcpy(&bits, in.data() + e * 8, 8);
        const double expected = t == DType::kInt64 ? static_cast<double>(static_cast<std::int64_t>(bits))
                                                   : static_cast<double>(bits);
        double got;
        std::memcpy(&got, doubles.data() + e * 8, 8);
        ASSERT_EQ(std::memcmp(&got, &expected, 8), 0) << dtype_name(t) << " " << bits << ": " << got << " vs " << expected;
      }
    }
  }
  finish();
}

TEST(X86Widths, BoolsAndConversions) {
  for (std::int64_t n : kLengths) {
    {
      Program p(n);
      const int a = p.array(DType::kBool, {n}), b = p.array(DType::kBool, {n}), c = p.array(DType::kBool, {n});
      for (Op o : {Op::logical_and, Op::logical_or, Op::logical_xor, Op::bitwise_and, Op::bitwise_or,
                   Op::bitwise_xor, Op::equal, Op::not_equal}) {
        p.result(p.op(o, {a, b}, DType::kBool, DType::kBool));
      }
      p.result(p.op(Op::logical_not, {a}, DType::kBool, DType::kBool));
      p.result(p.op(Op::invert, {b}, DType::kBool, DType::kBool));
      p.result(p.op(Op::where, {a, b, c}, DType::kBool, DType::kBool));
      check(p, "bool ops n=" + std::to_string(n));
    }
    {  // conversions into float lanes: int32 -> float32, bool -> float, a Python int -> float
      Program p(n + 1);
      const int i = p.array(DType::kInt32, {n}), b = p.array(DType::kBool, {n});
      const int f = p.array(DType::kFloat32, {n});
      p.result(p.op(Op::astype, {i}, DType::kFloat32, DType::kFloat32));
      p.result(p.op(Op::add, {f, b}, DType::kFloat32, DType::kFloat32));
      p.result(p.op(Op::multiply, {f, p.python_int(3)}, DType::kFloat32, DType::kFloat32));
      p.result(p.op(Op::astype, {i}, DType::kBool, DType::kBool));
      p.result(p.op(Op::astype, {f}, DType::kInt32, DType::kInt32));
      const int large = p.op(Op::multiply, {f, p.python_float(1e9)}, DType::kFloat32, DType::kFloat32);
      p.result(p.op(Op::astype, {large}, DType::kInt32, DType::kInt32));
      check(p, "conversions 32 n=" + std::to_string(n));
    }
    {
      Program p(n + 2);
      const int d = p.array(DType::kFloat64, {n}), b = p.array(DType::kBool, {n});
      const int u = p.array(DType::kUInt16, {n}), s = p.array(DType::kInt8, {n});
      p.result(p.op(Op::add, {d, b}, DType::kFloat64, DType::kFloat64));
      p.result(p.op(Op::subtract, {d, p.python_int(-12)}, DType::kFloat64, DType::kFloat64));
      p.result(p.op(Op::astype, {u}, DType::kInt64, DType::kInt64));
      p.result(p.op(Op::astype, {s}, DType::kInt64, DType::kInt64));
      p.result(p.op(Op::astype, {b}, DType::kUInt64, DType::kUInt64));
      p.result(p.op(Op::astype, {d}, DType::kBool, DType::kBool));
      p.result(p.op(Op::logical_and, {d, b}, DType::kFloat64, DType::kBool));
      // float64 -> float32 in 64-bit lanes, stored as floats; scaled, some
      // overflow (the flag) or become subnormal.
      p.result(p.op(Op::astype, {d}, DType::kFloat32, DType::kFloat32));
      const int huge = p.op(Op::multiply, {d, p.python_float(1e37)}, DType::kFloat64, DType::kFloat64);
      p.result(p.op(Op::astype, {huge}, DType::kFloat32, DType::kFloat32));
      const int tiny = p.op(Op::multiply, {d, p.python_float(1e-39)}, DType::kFloat64, DType::kFloat64);
      p.result(p.op(Op::astype, {tiny}, DType::kFloat32, DType::kFloat32));
      // float64 -> int64 truncated (AVX2 and SSE2 from the double's fields),
      // in range and out of it (the invalid flag).
      p.result(p.op(Op::astype, {d}, DType::kInt64, DType::kInt64));
      const int large = p.op(Op::multiply, {d, p.python_float(1e18)}, DType::kFloat64, DType::kFloat64);
      p.result(p.op(Op::astype, {large}, DType::kInt64, DType::kInt64));
      // 64-bit integers -> 32-bit ones (their low halves), stored and read on.
      const int wide_int = p.array(DType::kInt64, {n});
      const int narrowed = p.op(Op::astype, {wide_int}, DType::kInt32, DType::kInt32);
      p.result(narrowed);
      p.result(p.op(Op::astype, {wide_int}, DType::kUInt32, DType::kUInt32));
      p.result(p.op(Op::add, {narrowed, wide_int}, DType::kInt64, DType::kInt64));
      check(p, "conversions 64 n=" + std::to_string(n));
    }
  }
  finish();
}

// ---------------------------------------------------------------- layouts

TEST(X86Widths, BroadcastAndStrided) {
  const Shape shapes[] = {{1, 1}, {3, 5}, {7, 33}, {64, 9}, {2, 100}, {5, 1000}, {1000, 3}, {17, 17}};
  for (const Shape& s : shapes) {
    const std::int64_t R = s[0], C = s[1];
    for (DType t : {DType::kFloat32, DType::kFloat64}) {
      const std::string shape = std::to_string(R) + "x" + std::to_string(C) + " " + dtype_name(t);
      {
        Program p(R * 100 + C);
        const int x = p.array(t, {R, C}), row = p.array(t, {C}), col = p.array(t, {R, 1});
        const int sum = p.op(Op::add, {x, row}, t, t);
        p.result(p.op(Op::multiply, {sum, col}, t, t));
        p.result(p.op(Op::less, {row, col}, t, DType::kBool));
        check(p, "broadcast " + shape);
      }
      {  // every other column, a transposed view, a reversed one
        Program p(R * 101 + C);
        const int every_other = p.array(t, {R, C}, Fill::kMixed, {2 * C, 2});
        const int transposed = p.array(t, {R, C}, Fill::kMixed, {1, R});
        const int reversed = p.array(t, {R, C}, Fill::kMixed, {C, -1});
        const int a = p.op(Op::subtract, {every_other, transposed}, t, t);
        p.result(p.op(Op::maximum, {a, reversed}, t, t));
        p.result(p.op(Op::sqrt, {transposed}, t, t));
        check(p, "strided " + shape);
      }
      {  // integers of another width broadcast along rows, bools along columns
        Program p(R * 102 + C);
        const DType it = t == DType::kFloat32 ? DType::kInt32 : DType::kInt64;
        const int x = p.array(it, {R, C}), row = p.array(DType::kInt16, {C}), mask = p.array(DType::kBool, {R, 1});
        const int sum = p.op(Op::add, {x, row}, it, it);
        p.result(p.op(Op::where, {mask, sum, x}, it, it));
        check(p, "integer broadcast " + shape);
      }
    }
  }
  {  // three dimensions, the middle one broadcast
    Program p(3);
    const int x = p.array(DType::kFloat64, {4, 1, 37}), y = p.array(DType::kFloat64, {4, 9, 37});
    p.result(p.op(Op::divide, {y, x}, DType::kFloat64, DType::kFloat64));
    check(p, "3-d broadcast");
  }
  finish();
}

// ---------------------------------------------------------------- reductions

DType sum_type(DType t) {
  if (is_float(t)) return t;
  if (t == DType::kBool || is_signed_int(t)) return DType::kInt64;
  return DType::kUInt64;
}

// The reductions of one input of type t over `axes`, each a program.
void check_reductions(DType t, const Shape& shape, std::uint32_t axes, const std::string& what, bool keepdims) {
  const std::int64_t reduced = [&] {
    std::int64_t n = 1;
    for (std::size_t d = 0; d < shape.size(); ++d) n *= (axes >> d) & 1 ? shape[d] : 1;
    return n;
  }();
  struct R {
    Op op;
    DType result;
  };
  std::vector<R> ops = {{Op::sum, sum_type(t)}, {Op::any, DType::kBool}, {Op::all, DType::kBool}};
  // NumPy raises on empty min, max and argmin; the tracer leaves those to it,
  // and bools' to NumPy.
  if (reduced > 0 && t != DType::kBool) {
    ops.push_back({Op::min, t});
    ops.push_back({Op::max, t});
    // argmin and argmax take one axis, or all (flattened).
    const std::uint32_t all = (1u << shape.size()) - 1;
    if ((axes & (axes - 1)) == 0 || axes == all) {
      ops.push_back({Op::argmin, DType::kInt64});
      ops.push_back({Op::argmax, DType::kInt64});
    }
  }
  if (reduced > 0) {
    if (is_float(t)) ops.push_back({Op::mean, t});
    if (t == DType::kBool || (!is_float(t) && itemsize(t) <= 2)) ops.push_back({Op::mean, DType::kFloat64});
  }
  const Fill fills[] = {Fill::kMixed, Fill::kZeros, Fill::kSigned0, Fill::kSmall};
  for (const R& r : ops) {
    for (Fill fill : fills) {
      if (!is_float(t) && fill != Fill::kMixed && fill != Fill::kSmall) continue;
      Program p(static_cast<int>(r.op) * 1000 + static_cast<int>(fill) * 10 + static_cast<int>(t));
      const int x = p.array(t, shape, fill);
      p.result(p.reduce(r.op, x, axes, r.result, keepdims));
      check(p, std::string(op_info(r.op).name) + " " + dtype_name(t) + " " + what + " fill " +
                   std::to_string(static_cast<int>(fill)));
    }
  }
}

TEST(X86Widths, ReductionsOverVectors) {
  for (DType t : kAllTypes) {
    for (std::int64_t n : kLengths) check_reductions(t, {n}, 1u, "n=" + std::to_string(n), false);
  }
  finish();
}

TEST(X86Widths, ReductionsOverAxes) {
  const std::vector<std::pair<Shape, std::uint32_t>> cases = {
      {{3, 5}, 2u},   {{7, 33}, 2u},    {{7, 33}, 3u},      {{64, 9}, 2u},      {{5, 1000}, 2u},
      {{2, 3, 17}, 6u}, {{4, 8, 16}, 4u}, {{300, 130}, 2u}, {{9, 128}, 2u}};
  for (DType t : kAllTypes) {
    for (const auto& [shape, axes] : cases) {
      std::string what;
      for (std::int64_t d : shape) what += std::to_string(d) + ",";
      what += " axes " + std::to_string(axes);
      check_reductions(t, shape, axes, what, false);
      if (is_float(t)) check_reductions(t, shape, axes, what + " keepdims", true);
    }
  }
  finish();
}

// Float sums in NumPy's pairwise order: whole leaves added by the kernel
// (leaf_sums), short rows, and long runs shared by the threads.
TEST(X86Widths, OrderedSums) {
  const int paired_before = g_paired_compared;
  const std::vector<std::pair<Shape, std::uint32_t>> cases = {
      {{128}, 1u},      {{256}, 1u},      {{1024}, 1u},       {{131072}, 1u},    {{8, 1024}, 2u},
      {{256, 16}, 3u},  {{16, 256}, 3u},  {{64, 2048}, 2u},  {{2, 4, 128}, 6u}, {{100003}, 1u},
      {{3, 40000}, 2u}, {{50, 24}, 2u},   {{2000, 7}, 2u},    {{1000}, 1u},      {{40, 1040}, 2u},
      {{33, 128}, 2u},  {{6, 64, 64}, 6u}, {{3, 6, 64}, 6u},  {{2, 3, 384}, 6u}, {{4, 3, 96}, 6u}};
  for (DType t : {DType::kFloat32, DType::kFloat64}) {
    for (const auto& [shape, axes] : cases) {
      std::string what = dtype_name(t) + std::string(" ");
      for (std::int64_t d : shape) what += std::to_string(d) + ",";
      for (Fill fill : {Fill::kMixed, Fill::kSmall}) {
        Program p(shape[0] + axes);
        const int x = p.array(t, shape, fill == Fill::kSmall ? Fill::kSmall : Fill::kPositive);
        const int y = p.array(t, shape, fill);
        const int product = p.op(Op::multiply, {x, y}, t, t);
        p.result(p.reduce(Op::sum, product, axes, t));
        p.result(p.reduce(Op::mean, x, axes, t));
        check(p, "sum(x*y), mean(x) " + what);
      }
      {  // several reductions of one loop
        Program p(shape.back());
        const int x = p.array(t, shape, Fill::kZeros);
        p.result(p.reduce(Op::sum, x, axes, t));
        p.result(p.reduce(Op::min, x, axes, t));
        p.result(p.reduce(Op::max, x, axes, t));
        p.result(p.reduce(Op::any, x, axes, DType::kBool));
        if (axes == (1u << (shape.size() - 1))) p.result(p.reduce(Op::argmax, x, axes, DType::kInt64));
        check(p, "sum, min, max, any " + what);
      }
    }
  }
  {  // np.var as the tracer records it: mean, deviation, squares, their mean
    for (std::int64_t n : {5, 128, 1000, 4096, 65536}) {
      Program p(n);
      const DType t = DType::kFloat64;
      const int x = p.array(t, {n});
      const int total = p.reduce(Op::sum, x, 1u, t, true);
      const int mean = p.op(Op::divide, {total, p.python_float(static_cast<double>(n))}, t, t);
      const int deviation = p.op(Op::subtract, {x, mean}, t, t);
      const int squared = p.op(Op::multiply, {deviation, deviation}, t, t);
      p.result(p.reduce(Op::mean, squared, 1u, t));
      check(p, "var n=" + std::to_string(n));
    }
  }
  {  // sums of comparisons and of narrow integers (int32 lanes carried into int64)
    for (std::int64_t n : {1, 33, 1000, 70001}) {
      Program p(n);
      const int x = p.array(DType::kFloat32, {n}), y = p.array(DType::kFloat32, {n});
      p.result(p.reduce(Op::any, p.op(Op::greater, {x, y}, DType::kFloat32, DType::kBool), 1u, DType::kBool));
      p.result(p.reduce(Op::sum, p.array(DType::kUInt16, {n}), 1u, DType::kUInt64));
      p.result(p.reduce(Op::mean, p.array(DType::kInt8, {n}), 1u, DType::kFloat64));
      check(p, "comparisons and narrow sums n=" + std::to_string(n));
    }
  }
  EXPECT_GT(g_paired_compared, paired_before) << "no program ran a paired function";
  finish();
}

// ---------------------------------------------------------------- arange

// NumPy's loops called a block of vectors at a time: a loop whose operand
// is another's result, operands only loops use, indices, rows of a 2-D
// array with a broadcast column, a sum in NumPy's order of a loop's
// results; every width must give the same bytes and flags.
TEST(X86Widths, NumpyLoopBlocks) {
  set_fast_math(false);
  for (DType t : {DType::kFloat64, DType::kFloat32}) {
    for (std::int64_t n : {1, 7, 33, 257, 1000, 4099, 70000}) {
      Program p(n);
      const int x = p.array(t, {n});
      const int scaled = p.op(Op::multiply, {x, p.python_float(0.125)}, t, t);
      const int inner = p.op(Op::sin, {scaled}, t, t);
      const int outer = p.op(Op::exp, {inner}, t, t);
      const int index = p.arange(t, n, 0.5, 0.001);
      const int angle = p.op(Op::arctan2, {inner, index}, t, t);
      p.result(p.op(Op::add, {outer, angle}, t, t));
      p.result(p.reduce(Op::sum, p.op(Op::log1p, {p.op(Op::absolute, {x}, t, t)}, t, t), 1u, t));
      check(p, "nested loops " + std::string(dtype_name(t)) + " n=" + std::to_string(n));
    }
    for (std::int64_t cols : {3, 64, 301}) {
      Program p(cols);
      const int a = p.array(t, {50, cols}, Fill::kPositive);
      const int column = p.array(t, {50, 1});
      const int ratio = p.op(Op::divide, {a, column}, t, t);
      p.result(p.op(Op::power, {ratio, p.python_float(1.5)}, t, t));
      p.result(p.reduce(Op::sum, p.op(Op::tanh, {ratio}, t, t), 2u, t));
      check(p, "rows " + std::string(dtype_name(t)) + " cols=" + std::to_string(cols));
    }
  }
  for (DType t : {DType::kInt64, DType::kInt32, DType::kUInt64, DType::kUInt32}) {
    for (std::int64_t n : {1, 9, 257, 4099}) {
      Program p(n + static_cast<int>(t));
      const int a = p.array(t, {n}), b = p.array(t, {n}, Fill::kSmall);
      const int quotient = p.op(Op::floor_divide, {a, b}, t, t);
      const int rest = p.op(Op::remainder, {quotient, b}, t, t);
      p.result(p.op(Op::add, {rest, p.op(Op::fmin, {a, b}, t, t)}, t, t));
      p.result(p.op(Op::sign, {p.op(Op::subtract, {a, b}, t, t)}, t, t));
      check(p, std::string("integer loops ") + dtype_name(t) + " n=" + std::to_string(n));
    }
  }
  finish();
}

TEST(X86Widths, Arange) {
  for (DType t : {DType::kFloat64, DType::kFloat32, DType::kInt64, DType::kInt32}) {
    for (std::int64_t n : kLengths) {
      Program p(n);
      const int a = p.arange(t, n, 3.0, is_float(t) ? 0.37 : 5.0);
      p.result(a);
      const int x = p.array(t, {n});
      p.result(p.op(Op::multiply, {a, x}, t, t));
      check(p, name_of(Op::arange, t, n));
    }
    for (std::int64_t n : {128, 1024, 65536, 70000}) {  // a sum of indices, leaf by leaf where it can
      if (!is_float(t)) continue;
      Program p(n);
      p.result(p.reduce(Op::sum, p.arange(t, n, -1.5, 0.25), 1u, t));
      check(p, "sum(arange) " + std::string(dtype_name(t)) + " n=" + std::to_string(n));
    }
  }
  finish();
}

// ---------------------------------------------------------------- reduction chains: k-means

// argmin(norm(X - means[:, None], axis=2), axis=0) over X (N, J), means (K, J).
Program kmeans(DType t, std::int64_t K, std::int64_t N, std::int64_t J, bool x_transposed, bool argmax, Fill fill,
               std::uint64_t seed) {
  Program p(seed);
  const int x = x_transposed ? p.array(t, {N, J}, fill, {1, N}) : p.array(t, {N, J}, fill);
  const int means = p.array(t, {K, 1, J}, fill);
  const int diff = p.op(Op::subtract, {x, means}, t, t);
  Node norm;
  norm.op = Op::norm;
  norm.dtype = norm.compute = t;
  norm.shape = {K, N};
  norm.axes = 4u;
  norm.inputs[0] = diff;
  const int distances = p.region.add(norm);
  p.leaves.push_back(false);
  const int labels = p.reduce(argmax ? Op::argmax : Op::argmin, distances, 1u, DType::kInt64);
  p.result(labels);
  return p;
}

TEST(X86Widths, ChainKMeans) {
  for (DType t : {DType::kFloat64, DType::kFloat32}) {
    for (std::int64_t K : {1, 3, 5}) {
      for (std::int64_t J : {1, 2, 3, 7, 8, 17, 130}) {
        for (std::int64_t N : {64, 65, 71, 100, 129, 4099, 5000}) {
          for (int variant = 0; variant < 4; ++variant) {
            const bool transposed = variant & 1, argmax = variant & 2;
            const Fill fill = N % 2 ? Fill::kSmall : Fill::kMixed;  // ties, or NaNs and infinities
            const Program p = kmeans(t, K, N, J, transposed, argmax, fill, K * 1000 + J * 100 + N + variant);
            check(p, "k-means " + std::string(dtype_name(t)) + " K=" + std::to_string(K) + " N=" +
                         std::to_string(N) + " J=" + std::to_string(J) + " variant " + std::to_string(variant));
          }
        }
      }
    }
  }
  finish();
}

// Other reduction chains, their lanes along the last dimension: a sum
// (in order) then a max, a mean then a product, a norm then an argmax, three
// levels; values with ties, zeros of both signs and NaNs.
Program chain(DType t, int form, std::int64_t N, Fill fill, std::uint64_t seed) {
  Program p(seed);
  if (form == 3) {
    const int x = p.array(t, {3, 2, 5, N}, fill);
    const int squares = p.op(Op::multiply, {x, x}, t, t);
    const int sums = p.reduce(Op::sum, squares, 1u, t);
    const int largest = p.reduce(Op::max, sums, 1u, t);
    p.result(p.reduce(Op::argmin, largest, 1u, DType::kInt64));
    return p;
  }
  const int x = p.array(t, {4, 7, N}, fill);
  const int y = p.array(t, {7, N}, fill);
  switch (form) {
    case 0: {
      const int d = p.op(Op::subtract, {x, y}, t, t);
      p.result(p.reduce(Op::max, p.reduce(Op::sum, d, 2u, t), 1u, t));
      break;
    }
    case 1: {
      const int m = p.reduce(Op::mean, x, 1u, t);
      p.result(p.reduce(Op::prod, m, 1u, t));
      break;
    }
    default: {
      const int d = p.op(Op::add, {x, y}, t, t);
      Node norm;
      norm.op = Op::norm;
      norm.dtype = norm.compute = t;
      norm.shape = {4, N};
      norm.axes = 2u;
      norm.inputs[0] = d;
      const int lengths = p.region.add(norm);
      p.leaves.push_back(false);
      p.result(p.reduce(Op::argmax, lengths, 1u, DType::kInt64));
      break;
    }
  }
  return p;
}

TEST(X86Widths, ChainLevels) {
  for (DType t : {DType::kFloat64, DType::kFloat32}) {
    for (int form = 0; form < 4; ++form) {
      for (std::int64_t N : {64, 67, 129, 4099}) {
        for (Fill fill : {Fill::kMixed, Fill::kSmall, Fill::kZeros}) {
          const Program p = chain(t, form, N, fill, form * 10000 + N * 7 + static_cast<int>(fill));
          EXPECT_TRUE(uses(Runner(avx2(), p).run(true), "chain")) << "form " << form << " not one chain";
          check(p, "chain " + std::string(dtype_name(t)) + " form " + std::to_string(form) + " N=" +
                       std::to_string(N) + " fill " + std::to_string(static_cast<int>(fill)));
        }
      }
    }
  }
  finish();
}

TEST(X86Widths, ComparedSomethingWhereItCould) {
  EXPECT_GT(g_sse2_compared, 1000);
  if (!host_has_avx512()) GTEST_SKIP() << "no AVX-512 on this CPU";
  EXPECT_GT(g_compared, 1000);
}

// ---------------------------------------------------------------- timing

// Seconds the driver takes to run `program`'s kernels (the best of
// `repeats` runs after one that compiles them and warms up), for a backend.
double seconds(KernelCompiler& backend, const Program& program, int repeats) {
  Runner runner(backend, program);
  runner.run(false);
  double best = 1e9;
  for (int r = 0; r < repeats; ++r) {
    const double before = runner.kernel_seconds();
    runner.run(false);
    best = std::min(best, runner.kernel_seconds() - before);
  }
  return best;
}

TEST(X86Widths, DISABLED_Timing) {
  if (!host_has_avx512()) GTEST_SKIP() << "no AVX-512 on this CPU";
  const std::int64_t n = 10000000;
  struct Item {
    std::string name;
    Program program;
  };
  std::vector<Item> items;
  {
    Program p(1);
    p.result(p.reduce(Op::sum, p.array(DType::kFloat64, {n}, Fill::kSmall), 1u, DType::kFloat64));
    items.push_back({"sum f64 1e7", std::move(p)});
  }
  {
    Program p(2);
    p.result(p.reduce(Op::sum, p.array(DType::kFloat32, {n}, Fill::kSmall), 1u, DType::kFloat32));
    items.push_back({"sum f32 1e7", std::move(p)});
  }
  {
    Program p(3);
    const int x = p.array(DType::kFloat32, {n}, Fill::kSmall), y = p.array(DType::kFloat32, {n}, Fill::kSmall);
    p.result(p.op(Op::multiply, {x, y}, DType::kFloat32, DType::kFloat32));
    items.push_back({"multiply f32 1e7", std::move(p)});
  }
  {
    Program p(4);
    const int x = p.array(DType::kFloat64, {n}, Fill::kPositive);
    p.result(p.reduce(Op::min, x, 1u, DType::kFloat64));
    items.push_back({"min f64 1e7", std::move(p)});
  }
  items.push_back({"k-means f64 K=8 N=1e6 J=4", kmeans(DType::kFloat64, 8, 1000000, 4, false, false, Fill::kSmall, 5)});
  items.push_back({"k-means f32 K=8 N=1e6 J=4", kmeans(DType::kFloat32, 8, 1000000, 4, false, false, Fill::kSmall, 6)});
  std::printf("threads %d\n", host_threads());
  for (const Item& item : items) {
    const double t256 = seconds(avx2(), item.program, 5);
    const double t512 = seconds(avx512(), item.program, 5);
    std::printf("%-28s avx2 %8.3f ms  avx512 %8.3f ms  ratio %.2f\n", item.name.c_str(), t256 * 1e3, t512 * 1e3,
                t256 / t512);
  }
}

}  // namespace
}  // namespace npy::jit
