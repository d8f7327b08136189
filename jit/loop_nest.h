// Loop nests: what one fused step of a plan computes, in the terms a
// backend compiles from. A nest stands on its own: its body holds a copy
// of the nodes it computes, renumbered, behind one input node per buffer
// it reads, so that a backend sees neither the rest of the region nor
// fusion's groups. Each buffer read has an index map over the nest's
// domain, each reduction its combine (which gives its identity: fold.h's
// fill_fold_start) and the order its operands must be combined in, and
// each value a placement (a register, a tile the schedule keeps per
// thread, or memory). The scheduler's decisions that concern one nest are
// written into it; the dump is what NPY_JIT_LOG=output_code shows of each
// step.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "jit/fusion.h"
#include "jit/region.h"

namespace npy::jit {

// In which order a reduction must take its operands to give NumPy's bits.
enum class ReductionOrder : std::uint8_t {
  // NumPy's pairwise sum (float sums and means): eight running sums over
  // blocks of 128 operands, a tree of blocks above that.
  kPairwise,
  // One operand after another, from the identity: a fold (fold.h), whose
  // every result element takes its operands in C order; float products.
  kSequential,
  // Any order gives the same bits: integer arithmetic wraps, min, max,
  // argmin, argmax (first index kept), any, all.
  kAny,
};

// Where a value of the nest lives while the nest runs.
enum class Placement : std::uint8_t {
  kRegister,  // computed and read within one element's work
  kTile,      // a block of it per thread, for later steps of a block run (schedule.h)
  kMemory,    // an array: a buffer read, or a value leaving the nest
};

struct NestReduction {
  int statement = -1;  // body index: a reduction node, or a fold's element-wise op
  Combine combine = Combine::kNone;  // a norm's: kAdd, of its operands' squares
  ReductionOrder order = ReductionOrder::kAny;
  std::uint32_t axes = 0;  // the domain dimensions it reduces
  bool fold = false;       // computed as a fold (fold.h) over `axes`, not over the last dims
};

// How a chain nest's input is read along the vector dimension, as laid out
// for a run: one element for every lane (it does not move along it), or
// lanes from consecutive elements, or from elements a stride apart.
enum class VectorRead : std::uint8_t { kOne, kContiguous, kStrided };

// The parts of a chain nest's schedule that depend on the run's layout and
// sizes (schedule_chain_run), each kernel compiled for one: per input its
// VectorRead and the loop (an index into loop_order, from 1) over which it
// is packed once per step, its lanes for every index of that loop side by
// side in scratch memory (0: not packed); per level, the order it takes its
// operands in, as NumPy's reduction walks its operand as NumPy lays it out
// for this run; and per level (bit L), whether its pairwise sum has fewer
// than 8 operands, which NumPy adds one by one.
struct ChainRun {
  std::vector<VectorRead> reads;
  std::vector<int> packed_loop;
  std::vector<ReductionOrder> orders;
  std::uint32_t short_sums = 0;
  bool operator==(const ChainRun& o) const {
    return reads == o.reads && packed_loop == o.packed_loop && orders == o.orders && short_sums == o.short_sums;
  }
};

struct LoopNest {
  // The iteration domain: this instance's extents (a nest's kernel does not
  // depend on them). Reductions that are not folds reduce its last
  // `reduced_dims` dimensions.
  Shape domain;
  int reduced_dims = 0;
  // The lane class fusion grouped the nest by (fusion.h FuseClass).
  int fuse_class = -1;
  // Buffers read (input nodes, body indices 0..inputs.size()-1), then the
  // statements, in order; each node's operands name body indices.
  Region body;
  std::vector<int> inputs;
  std::vector<int> members;
  std::vector<int> outputs;     // statements whose values are stored
  std::vector<int> reductions;  // reduction statements (not folds)
  std::vector<NestReduction> reduced;  // every reduction and fold, in statement order
  // Per input: the domain dimensions its index moves along (bit d for
  // dimension d), from broadcasting; and whether, as laid out for this
  // run, it stays put along the innermost dimension (a stride of 0, or one
  // element there), which the kernel reads as one value per row.
  std::vector<std::uint32_t> moves;
  PerOperand<bool> broadcast_inner;
  // Per input, as laid out for this run: whether it lies two items apart
  // along the innermost dimension and the kernel reads it there
  // (LoopInput::every_other).
  PerOperand<bool> every_other_inner;
  // Per body node: where its value lives.
  std::vector<Placement> placement;
  // Per body node: the plan region's node it stands for (for the dump).
  std::vector<int> origin;

  // A nest of a reduction chain (lower_chain), else empty: its levels,
  // innermost first, in body indices; the statement the innermost reduction
  // reads; per body node, the domain dimensions its value varies along;
  // the loop order, outermost first: the vector dimension (which every
  // level keeps, its lanes side by side), then each level's axis, the
  // outermost level's first. Other dimensions every level keeps run
  // outside the kernel. `run`: as laid out for this run.
  std::vector<ChainLevel> levels;
  int value = -1;
  std::vector<std::uint32_t> dims;
  std::vector<int> loop_order;
  ChainRun run;

  // The order reduction statement `statement` takes its operands in.
  ReductionOrder order_of(int statement) const;
  // The order a chain nest's level `level` takes its operands in, as laid
  // out for its run (ChainRun::orders; before a run, for C order).
  ReductionOrder chain_order(std::size_t level) const {
    return level < run.orders.size() ? run.orders[level] : reduced[level].order;
  }
};

// Per node of a plan's kernel region (`steps` planned over it): the
// dimensions along which its value stays put, though its shape spans them:
// the result of a fold, and the fold's accumulator, over the folded axes.
std::vector<std::uint32_t> folded_axes(const Region& region, const std::vector<Step>& steps);

// The nest of `group`, a fused step of a plan over `region` (the plan's
// kernel region: folds lowered; `folded` from folded_axes). `tiles`:
// region nodes the schedule keeps in tiles. Inputs are taken as moving
// along the innermost dimension; set broadcast_inner for the run's layout.
LoopNest lower_group(const Region& region, const Group& group, const std::vector<std::uint32_t>& folded = {},
                     const std::vector<int>& tiles = {});

// The nest of a reduction chain (fusion.h) of `region`. Each level reduces
// in NumPy's order for values in C order (the run's may differ:
// schedule_chain_run): a float sum or norm along its operand's last axis
// pairwise, along another axis one operand after another (NumPy folds rows
// into the result), as a float product or min or max always so; argmin and
// argmax keep the first best.
LoopNest lower_chain(const Region& region, const ReductionChain& chain);

// The ChainRun of the nest for inputs whose strides along the domain
// (bytes, 0 where an input does not move) are `strides`, and the chain's
// value laid out by NumPy as `value_layout` says (the domain's dimensions,
// outermost in memory first): what a kernel for the run is compiled for.
// NumPy reduces a float sum along its operand's innermost dimension of
// more than one element pairwise (its reduction's inner loop runs along
// it), along another one operand after another; its result keeps the
// operand's order of the other dimensions. False where a level would take
// its operands as the kernels cannot (a float min or max along the
// innermost dimension: which of equal values NumPy gives depends on its
// loop's lanes).
bool schedule_chain_run(const LoopNest& nest, const std::vector<Dims>& strides,
                        const std::vector<int>& value_layout, ChainRun& run);

// The loop of a chain nest's loop order (from 1) that level `level` runs.
int chain_loop_of_level(const LoopNest& nest, std::size_t level);

// A text that identifies what the nest computes (ops, dtypes, the layout
// of its inputs), so that equal keys compile to the same kernel whatever
// the sizes.
std::string nest_key(const LoopNest& nest);

// The nest as text, one line per buffer and statement, e.g.
//   for i0 < 4000, i1 < 1000, reducing i1:
//     b0 = %0[i0,i1]        float64 memory
//     %3 = exp(%2)          float64 tile
//     %4 = sum over i1 of %3, pairwise from 0   float64 memory
std::string dump_nest(const LoopNest& nest);

}  // namespace npy::jit
