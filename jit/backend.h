// The one interface a backend implements: which region nodes it can fuse,
// and how it runs a plan's steps from their loop nests (loop_nest.h): a
// fused loop for one run's layout (a StepRun: laid out, then run), the
// steps of a block run together (schedule.h), a reduction chain. What it
// compiles for a step (its kernels, per layout) is its own, kept in the
// plan (CachedPlan::code). The region runner uses backends only through it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "jit/region.h"
#include "jit/schedule.h"
#include "jit/step_run.h"

namespace npy::jit {

class CachedPlan;

// What a backend keeps of a plan's step: its code, compiled for the
// layouts the step ran in, held as long as the plan lives.
struct StepCode {
  virtual ~StepCode() = default;
};

class Backend {
 public:
  virtual ~Backend() = default;
  virtual const char* name() const = 0;
  // FuseClass (fusion.h); a group of kAnyClass nodes alone is the
  // backend's to lay out.
  virtual int fuse_class(const Region& region, int node) const = 0;
  // Lays fused step `step`'s loop out for `run` (the loop's order, its
  // outputs' strides) as the backend runs it; false where its float sums
  // would not come out in NumPy's order (NumPy computes the step).
  virtual bool lay_out(const CachedPlan& plan, std::size_t step, StepRun& run) const = 0;
  // Runs the laid-out step: returns the floating-point flags it raised
  // (kNumpyFpFlags, and kOrderDecides), or -1 where it could not (no code
  // for it, or sizes it does not run; its outputs may be partly written).
  virtual int run_step(CachedPlan& plan, std::size_t step, StepRun& run) = 0;
  // The steps of block run `run` block by block, each laid out for a block
  // of run.block_rows rows (`full`) and for a last block of fewer (`last`,
  // empty where the rows divide); `tile_bytes`: per tile, the bytes of a
  // block of it. Flags, or -1 (outputs partly written).
  virtual int run_block_run(CachedPlan& plan, const BlockRun& run, std::vector<BlockStepRun>& full,
                            std::vector<BlockStepRun>& last, const std::vector<std::int64_t>& tile_bytes) = 0;
  // Reduction chain step `step` over `inputs` (strides along the chain's
  // domain), the chain's value laid out by NumPy as `value_layout` says
  // (the domain's dimensions, outermost in memory first), its result
  // (C-contiguous over the dimensions every level keeps, of
  // `result_dtype`) to `result`. Flags, or -1: not run.
  virtual int run_chain(CachedPlan& plan, std::size_t step, const std::vector<LoopInput>& inputs,
                        const std::vector<int>& value_layout, char* result, DType result_dtype) = 0;

  // Nodes a plan leaves to NumPy (eager steps) that the backend may compute
  // from their operand as it lies (`data`, `shape`, byte `strides`, of
  // `dtype`) into the C-contiguous `out`; each returns the floating-point
  // flags raised, or -1 where it does not (NumPy computes the node).
  // The sum or mean (`mean`) of float values of their own type, or the sum
  // of integers and bools into int64 or uint64 (`result`), over the
  // `reduced_dims` dimensions after the first `outer` ones with kept
  // dimensions inside them, the array's dimensions in the order NumPy
  // walks them (walk_order), in NumPy's order: each row added to the
  // running sums, from +0.0, one after another.
  virtual int column_sums(const char* data, const Shape& shape, const Dims& strides, int outer,
                          int reduced_dims, DType dtype, DType result, bool mean, char* out) = 0;
  // np.linalg.norm along the last dimension of an array of two or more
  // dimensions, of float64 or float32: the root of the pairwise sum of
  // the squares.
  virtual int row_norms(const char* data, const Shape& shape, const Dims& strides, DType dtype,
                        char* out) = 0;
  // A running sum or product (`combine`: kAdd, kMultiply), np.cumsum and
  // np.cumprod, of an array of `dtype` as it lies into results of `result`
  // (float of their own type, integers and bools into int64 or uint64,
  // wrapping): along dimension `axis`, or along every element in C order
  // where `axis` is -1, into the C-contiguous `out` of the array's shape
  // (flat for -1), each element the one before it along the axis combined
  // with the operand's (running value first, from the first operand, as
  // NumPy's accumulate).
  virtual int scan(const char* data, const Shape& shape, const Dims& strides, int axis, DType dtype, DType result,
                   Combine combine, char* out) = 0;
  // NumPy's own loop of the unary `op` on `count` elements of `dtype` at
  // `a`, `a_step` bytes apart, handed the loop as NumPy's own call hands it
  // (the same step, so the same code of NumPy's for every element).
  virtual int stepped_numpy_loop(Op op, DType dtype, char* out, const char* a, std::int64_t a_step,
                                 std::int64_t count) = 0;

  // np.bincount and np.histogram, which end a region (a bincount's length
  // is its values' greatest), computed from arrays as they lie: `count`
  // values of `dtype` at `data`, `step` bytes apart.
  // Whether value_range and count_bins take values of `dtype`.
  virtual bool counts_values_of(DType dtype) const = 0;
  // The least and greatest of one or more values.
  virtual void value_range(const char* data, std::int64_t count, std::int64_t step, DType dtype,
                           std::int64_t& least, std::int64_t& greatest) = 0;
  // np.bincount of values in [0, bins) without weights: the int64 count
  // of each into `out`.
  virtual void count_bins(const char* data, std::int64_t count, std::int64_t step, DType dtype, std::int64_t bins,
                          std::int64_t* out) = 0;
  // np.histogram's counts (int64) or sums of float64 `weights`
  // (`weight_step` bytes apart), in NumPy's order: per block of 65,536
  // values, then block after block) of float64 values in `bins` equal bins
  // over [first, last] with NumPy's `edges`;
  // 0, or -1 where a floating-point flag was raised (NumPy computes it).
  virtual int equal_bins(const char* data, std::int64_t count, std::int64_t step, const char* weights,
                         std::int64_t weight_step, double first, double last, const double* edges,
                         std::int64_t bins, char* out) = 0;
};

// The CPU backend: kernels of the x86-64 code generator (cpu_kernels.h)
// on OpenMP threads (cpu_driver.h).
Backend* cpu_backend();

}  // namespace npy::jit
