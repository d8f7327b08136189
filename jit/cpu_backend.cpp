// The CPU backend (backend.h): lays a step's loop out for its run (the
// loop's order, sums that NumPy's iterator walks), picks its kernel's
// options for the run's sizes and layout (leaf sums, rows of results,
// stores past the caches), sums or scans inputs where they lie without a
// kernel, and runs kernels of the x86-64 code generator (cpu_kernels.h) on
// OpenMP threads (cpu_driver.h); a step's kernels stay in the plan. Also
// the CPU kernels' caches: in the process and on disk.
#include <algorithm>
#include <memory>
#include <vector>

#include "common/stats.h"
#include "jit/backend.h"
#include "jit/cpu_counting.h"
#include "jit/cpu_driver.h"
#include "jit/cpu_kernels.h"
#include "jit/kernel_cache.h"
#include "jit/numpy_loops.h"
#include "jit/plan_cache.h"

namespace npy::jit {

// A Kernel's facts, in this order; the paired function as its offset from
// the entry (-1: none).
enum KernelFact {
  kLanes,
  kLaneBytes,
  kUsesIndex,
  kLeafSums,
  kStreamingStores,
  kRowResults,
  kNotesTies,
  kPairedOffset,
  kKernelFacts
};

StoredCode stored_form(const Kernel& kernel) {
  std::vector<std::int64_t> facts(kKernelFacts);
  facts[kLanes] = kernel.lanes;
  facts[kLaneBytes] = kernel.lane_bytes;
  facts[kUsesIndex] = kernel.uses_index;
  facts[kLeafSums] = kernel.leaf_sums;
  facts[kStreamingStores] = kernel.streaming_stores;
  facts[kRowResults] = kernel.row_results;
  facts[kNotesTies] = kernel.notes_ties;
  facts[kPairedOffset] = kernel.paired ? reinterpret_cast<std::intptr_t>(kernel.paired) -
                                             reinterpret_cast<std::intptr_t>(kernel.entry)
                                       : -1;
  return {kernel.image, facts};
}

StoredCode stored_form(const ChainKernel& kernel) { return {kernel.image, {kernel.points}}; }

namespace {

bool is_flag(std::int64_t fact) { return fact == 0 || fact == 1; }

}  // namespace

void from_stored_form(KernelCompiler& compiler, const StoredCode& stored, const Kernel& expected,
                      std::unique_ptr<Kernel>& kernel) {
  const std::vector<std::int64_t>& facts = stored.facts;
  // The paired function starts inside the code, after the entry's, and only
  // kernels that add leaf by leaf have one.
  const auto size = static_cast<std::int64_t>(stored.code.size());
  const bool fits = facts.size() == kKernelFacts && facts[kLanes] == expected.lanes &&
                    facts[kLaneBytes] == expected.lane_bytes && is_flag(facts[kUsesIndex]) &&
                    facts[kLeafSums] == expected.leaf_sums && facts[kStreamingStores] == expected.streaming_stores &&
                    facts[kRowResults] == expected.row_results && facts[kNotesTies] == expected.notes_ties &&
                    (facts[kPairedOffset] == -1 ||
                     (expected.leaf_sums && facts[kPairedOffset] > 0 && facts[kPairedOffset] < size));
  if (fits) kernel = compiler.place(stored.code);
  if (!kernel) {
    note_stored_code_rejected();
    return;
  }
  kernel->lanes = expected.lanes;
  kernel->lane_bytes = expected.lane_bytes;
  kernel->uses_index = facts[kUsesIndex] != 0;
  kernel->leaf_sums = expected.leaf_sums;
  kernel->streaming_stores = expected.streaming_stores;
  kernel->row_results = expected.row_results;
  kernel->notes_ties = expected.notes_ties;
  if (facts[kPairedOffset] >= 0) {
    kernel->paired = reinterpret_cast<Kernel::Entry>(reinterpret_cast<std::intptr_t>(kernel->entry) +
                                                     facts[kPairedOffset]);
  }
}

void from_stored_form(KernelCompiler& compiler, const StoredCode& stored, const ChainKernel& expected,
                      std::unique_ptr<ChainKernel>& kernel) {
  if (stored.facts.size() == 1 && stored.facts[0] == expected.points) kernel = compiler.place_chain(stored.code);
  if (!kernel) {
    note_stored_code_rejected();
    return;
  }
  kernel->points = expected.points;
}

std::shared_ptr<const Kernel> kernel_for(KernelCompiler& compiler, const LoopNest& nest, KernelOptions options) {
  static CodeCache<Kernel> cache;
  // The compiler's name says its vector width too; the lanes a vector holds
  // say it again. NPY_MATH=fast kernels compute functions differently.
  const std::string key = std::string(compiler.name()) + (fast_math() ? "|fastmath" : "") + "|c" +
                          std::to_string(nest.fuse_class) + "|l" +
                          std::to_string(compiler.lanes(nest)) + (options.leaf_sums ? "|leaves" : "") +
                          (options.streaming_stores ? "|streaming" : "") + (options.row_results ? "|rows" : "") +
                          (options.notes_ties ? "|ties" : "") + "|" + nest_key(nest);
  // What the key fixes of the kernel, as compile() sets it.
  Kernel expected;
  expected.lanes = compiler.lanes(nest);
  expected.lane_bytes = compiler.lane_bytes(nest);
  expected.leaf_sums = options.leaf_sums;
  expected.streaming_stores = options.streaming_stores;
  expected.row_results = options.row_results;
  expected.notes_ties = options.notes_ties;
  return cached_code(
      cache, compiler, key, expected, [&] { return compiler.compile(nest, options); },
      [](const Kernel& k) { return std::to_string(k.lanes) + " lanes"; });
}

std::shared_ptr<const ChainKernel> chain_kernel_for(KernelCompiler& compiler, const LoopNest& nest) {
  static CodeCache<ChainKernel> cache;
  const std::string key = std::string(compiler.name()) + "|chain|p" + std::to_string(compiler.chain_points(nest)) +
                          "|" + nest_key(nest);
  ChainKernel expected;  // what the key fixes of the kernel
  expected.points = compiler.chain_points(nest);
  return cached_code(
      cache, compiler, key, expected, [&] { return compiler.compile_chain(nest); },
      [](const ChainKernel& k) { return std::to_string(k.points) + " points a step"; });
}


namespace {

// What the CPU backend keeps of a step: a fused step's kernels, one per
// input layout and options; a chain step's, one per ChainRun, with the
// nest each was compiled for.
struct CpuStepCode : StepCode {
  struct Variant {
    PerOperand<bool> broadcast_inner;
    PerOperand<bool> every_other_inner;
    KernelOptions options;
    std::shared_ptr<const Kernel> kernel;
  };
  std::vector<Variant> kernels;
  struct ChainVariant {
    std::unique_ptr<LoopNest> nest;
    std::shared_ptr<const ChainKernel> kernel;
  };
  std::vector<ChainVariant> chains;
};

CpuStepCode& code_of(CachedPlan& plan, std::size_t step) {
  std::unique_ptr<StepCode>& code = plan.code[step];
  if (!code) code = std::make_unique<CpuStepCode>();
  return static_cast<CpuStepCode&>(*code);
}

// The kernel of fused step `step` for `inputs` as laid out (which stay put
// along the innermost dimension, which it reads every other item of),
// compiled as `options` say (kernel_for the first time).
const Kernel* step_kernel(KernelCompiler& compiler, CachedPlan& plan, std::size_t step,
                          const std::vector<LoopInput>& inputs, KernelOptions options) {
  const PerOperand<bool> broadcast = broadcast_inner(inputs);
  PerOperand<bool> every_other;
  for (const LoopInput& in : inputs) every_other.push_back(in.every_other);
  CpuStepCode& code = code_of(plan, step);
  for (const CpuStepCode::Variant& v : code.kernels) {
    if (v.options == options && v.broadcast_inner == broadcast && v.every_other_inner == every_other) {
      return v.kernel.get();
    }
  }
  LoopNest nest = plan.nests[step];
  nest.broadcast_inner = broadcast;
  nest.every_other_inner = every_other;
  std::shared_ptr<const Kernel> kernel = kernel_for(compiler, nest, options);
  const Kernel* held = kernel.get();
  code.kernels.push_back({broadcast, every_other, options, std::move(kernel)});
  return held;
}

// Marks the inputs of an element-wise run that lie two items apart along
// the innermost dimension for the kernel to read where they lie
// (LoopInput::every_other) where the compiler can; the driver packs the
// others that are neither contiguous nor one value.
void read_every_other_where_lying(const KernelCompiler& compiler, const LoopNest& nest, StepRun& run) {
  const bool elementwise = run.reductions.empty() &&
                           std::none_of(run.outputs.begin(), run.outputs.end(), [](const LoopOutput& out) {
                             return out.fold != Combine::kNone || out.read_nearby;
                           });
  for (std::size_t i = 0; i < run.inputs.size(); ++i) {
    LoopInput& in = run.inputs[i];
    in.every_other = elementwise && in.gather_shape.empty() && !in.strides.empty() &&
                     in.strides.back() == 2 * itemsize(in.dtype) &&
                     compiler.reads_every_other(nest, static_cast<int>(i));
  }
}

// The kernels' options for a laid-out run (cpu_driver.h says which fit).
KernelOptions options_for(const KernelCompiler& compiler, const LoopNest& nest, const StepRun& run) {
  KernelOptions options;
  options.notes_ties = run.notes_ties;
  const bool folds = std::any_of(run.outputs.begin(), run.outputs.end(),
                                 [](const LoopOutput& out) { return out.fold != Combine::kNone; });
  if (folds) return options;
  options.leaf_sums = fits_leaf_sums(run.shape, run.reduced_dims, run.inputs, run.outputs, run.reductions);
  const int lanes = compiler.lanes(nest);
  options.streaming_stores = wants_streaming_stores(run.shape, run.outputs, run.reductions, lanes);
  options.row_results =
      !options.leaf_sums && fits_row_results(run.shape, run.reduced_dims, run.inputs, run.outputs, run.reductions, lanes);
  return options;
}

class CpuBackend : public Backend {
 public:
  explicit CpuBackend(KernelCompiler& compiler) : compiler_(compiler) {}

  const char* name() const override { return compiler_.name(); }
  int fuse_class(const Region& region, int node) const override { return compiler_.fuse_class(region, node); }

  bool lay_out(const CachedPlan&, std::size_t, StepRun& run) const override {
    // Sums of all of inputs laid out otherwise than C-contiguous add in the
    // order NumPy's iterator walks them; other sums of inputs NumPy walks
    // otherwise than a kernel are NumPy's. A fold's loop stays in the
    // group's order: the driver orders it for its folds.
    if (run.reduced_dims == static_cast<int>(run.shape.size()) &&
        sums_in_iterator_order(run.shape, run.inputs, run.outputs, run.reductions)) {
      run.summed_inputs = true;
      return true;
    }
    const bool folds = std::any_of(run.outputs.begin(), run.outputs.end(),
                                   [](const LoopOutput& out) { return out.fold != Combine::kNone; });
    if (folds) return true;
    if (!sums_in_kernel_order(run.shape, run.reduced_dims, run.inputs, run.reductions)) return false;
    order_loop(run.shape, run.reduced_dims, run.inputs, run.outputs, run.reductions, run.from_indices);
    return true;
  }

  int run_step(CachedPlan& plan, std::size_t step, StepRun& run) override {
    if (run.summed_inputs) return run_full_sums(run.shape, run.inputs, run.outputs, run.reductions);
    const KernelOptions options = options_for(compiler_, plan.nests[step], run);
    const bool folds = std::any_of(run.outputs.begin(), run.outputs.end(),
                                   [](const LoopOutput& out) { return out.fold != Combine::kNone; });
    if (!folds && !options.leaf_sums) {
      // Sums of inputs as they are need no kernel, unless one adds their leaves.
      int flags = run_input_sums(run.shape, run.reduced_dims, run.inputs, run.outputs, run.reductions);
      if (flags < 0) flags = run_input_scans(run.shape, run.reduced_dims, run.inputs, run.outputs, run.reductions);
      if (flags >= 0) {
        run.summed_inputs = true;
        return flags;
      }
    }
    read_every_other_where_lying(compiler_, plan.nests[step], run);
    const Kernel* kernel = step_kernel(compiler_, plan, step, run.inputs, options);
    if (!kernel) return -1;
    return run_kernel(*kernel, run.shape, run.reduced_dims, run.inputs, run.outputs, run.reductions,
                      run.stops_when_known, run.samples);
  }

  int run_block_run(CachedPlan& plan, const BlockRun& run, std::vector<BlockStepRun>& full,
                    std::vector<BlockStepRun>& last, const std::vector<std::int64_t>& tile_bytes) override {
    std::vector<BlockStep> steps[2];
    std::vector<BlockStepRun>* laid_out[2] = {&full, &last};
    for (int kind = 0; kind < 2; ++kind) {
      std::size_t s = run.first;
      for (BlockStepRun& b : *laid_out[kind]) {
        while (plan.steps[s].eager) ++s;  // views of the run need no step of their own
        BlockStep step;
        KernelOptions options = options_for(compiler_, plan.nests[s], b.run);
        options.streaming_stores = false;
        step.kernel = step_kernel(compiler_, plan, s, b.run.inputs, options);
        if (!step.kernel) return -1;
        step.shape = b.run.shape;
        step.reduced_dims = b.run.reduced_dims;
        step.inputs = b.run.inputs;
        step.outputs = b.run.outputs;
        step.reductions = b.run.reductions;
        step.input_row_bytes = b.input_row_bytes;
        step.output_row_bytes = b.output_row_bytes;
        step.reduction_row_bytes = b.reduction_row_bytes;
        step.input_tiles = b.input_tiles;
        step.output_tiles = b.output_tiles;
        step.input_sums = !options.leaf_sums;
        steps[kind].push_back(std::move(step));
        ++s;
      }
    }
    return run_blocks(steps[0], steps[1], run.rows, run.block_rows, tile_bytes);
  }

  int run_chain(CachedPlan& plan, std::size_t step, const std::vector<LoopInput>& inputs,
                const std::vector<int>& value_layout, char* result, DType result_dtype) override {
    std::vector<Dims> strides;
    for (const LoopInput& in : inputs) strides.push_back(in.strides);
    ChainRun laid;
    if (!schedule_chain_run(plan.nests[step], strides, value_layout, laid)) return -1;
    CpuStepCode& code = code_of(plan, step);
    const CpuStepCode::ChainVariant* variant = nullptr;
    for (const CpuStepCode::ChainVariant& v : code.chains) {
      if (v.nest->run == laid) variant = &v;
    }
    if (!variant) {
      auto nest = std::make_unique<LoopNest>(plan.nests[step]);
      nest->run = laid;
      std::shared_ptr<const ChainKernel> kernel = chain_kernel_for(compiler_, *nest);
      code.chains.push_back({std::move(nest), std::move(kernel)});
      variant = &code.chains.back();
    }
    if (!variant->kernel) return -1;
    return jit::run_chain(*variant->kernel, *variant->nest, inputs, result, result_dtype);
  }

  int column_sums(const char* data, const Shape& shape, const Dims& strides, int outer,
                  int reduced_dims, DType dtype, DType result, bool mean, char* out) override {
    return run_column_sums(data, shape, strides, outer, reduced_dims, dtype, result, mean, out);
  }
  int scan(const char* data, const Shape& shape, const Dims& strides, int axis, DType dtype, DType result,
           Combine combine, char* out) override {
    return run_scan(data, shape, strides, axis, dtype, result, combine, out);
  }
  bool counts_values_of(DType dtype) const override { return jit::counts_values_of(dtype); }
  void value_range(const char* data, std::int64_t count, std::int64_t step, DType dtype, std::int64_t& least,
                   std::int64_t& greatest) override {
    run_value_range(data, count, step, dtype, least, greatest);
  }
  void count_bins(const char* data, std::int64_t count, std::int64_t step, DType dtype, std::int64_t bins,
                  std::int64_t* out) override {
    run_count_bins(data, count, step, dtype, bins, out);
  }
  int equal_bins(const char* data, std::int64_t count, std::int64_t step, const char* weights,
                 std::int64_t weight_step, double first, double last, const double* edges, std::int64_t bins,
                 char* out) override {
    return run_equal_bins(data, count, step, weights, weight_step, first, last, edges, bins, out);
  }
  int row_norms(const char* data, const Shape& shape, const Dims& strides, DType dtype,
                char* out) override {
    return run_row_norms(data, shape, strides, dtype, out);
  }
  int stepped_numpy_loop(Op op, DType dtype, char* out, const char* a, std::int64_t a_step,
                         std::int64_t count) override {
    return run_stepped_numpy_loop(op, dtype, out, a, a_step, count);
  }

 private:
  KernelCompiler& compiler_;
};

}  // namespace

Backend* cpu_backend() {
  static Backend* backend = [] () -> Backend* {
    KernelCompiler* compiler = cpu_compiler();
    return compiler ? new CpuBackend(*compiler) : nullptr;  // lives as long as the kernels it ran
  }();
  return backend;
}

}  // namespace npy::jit
