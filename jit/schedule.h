// The scheduler: how a plan's fused steps run together. Fusion (fusion.h)
// makes one loop nest per step; a reduction ends its step, so that a
// softmax is three steps (the row maxima; exp and the row sums; the
// division), and run one after another each sweeps whole arrays through
// memory. Steps that share their outer dimension, each reading the earlier
// ones' values only at its own rows, may instead run block by block of
// rows, every step over one block before the next block: a block's values
// stay in the caches between the steps, and a value that only later steps
// of the run read needs no array at all, only a tile of one block per
// thread. Whether that pays is the cost model's call: when the run's
// arrays together fit the last-level cache, the steps run as they are.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "jit/fusion.h"
#include "jit/host.h"
#include "jit/region.h"

namespace npy::jit {

// Steps first..last of a plan, run block by block over their loops' first
// dimension (`rows` of it), `block_rows` rows a block. `tiles`: the nodes
// the steps compute that only later steps of the run read (not results of
// the region): each thread keeps one block of each in a tile, and they get
// no array.
struct BlockRun {
  std::size_t first = 0;
  std::size_t last = 0;
  std::int64_t rows = 0;
  std::int64_t block_rows = 0;
  std::vector<int> tiles;
};

// Leaves to NumPy the folds of `steps` (a plan of `region`) that would run
// on too few threads: a fold's loop runs on one thread per block of a row
// (kMinFoldBlockBytes at least), its reduced rows in order, so that on
// many threads and narrow rows the loop that computes the operand runs
// faster without it, and NumPy's reduction after it. A fold stays when its
// loop gets at least a quarter of the `threads` its work would (folds that
// may run in any order are cut into pieces of rows too). A fold
// left goes after its loop as a step of its own; `declined` (when not
// null) gets why.
void keep_folds_that_pay(const Region& region, std::vector<Step>& steps, int threads,
                         std::vector<std::string>* declined);

// The block runs of `steps` (a plan of `region`; `leaves` as plan_region
// takes them) on `threads` threads with caches `caches`: each a longest run
// of two or more consecutive fused steps that may run block by block and,
// as the cost model says, should. `declined` (when not null) gets why each
// run that may was left step by step.
std::vector<BlockRun> schedule_blocks(const Region& region, const std::vector<Step>& steps,
                                      const std::vector<bool>& leaves, int threads, const CacheSizes& caches,
                                      std::vector<std::string>* declined);

// The schedule as text for NPY_JIT_LOG=output_code: each step's loop, and
// how steps run together and why.
std::string describe_schedule(const Region& region, const std::vector<Step>& steps,
                              const std::vector<BlockRun>& runs, const std::vector<std::string>& declined);

// The schedule in a few words, for npython --explain: how many loops
// compile, how many nodes NumPy computes, which steps run block by block,
// e.g. "planned as 3 compiled loops (steps 1-3 block by block) and 1 NumPy
// call".
std::string summarize_schedule(const std::vector<Step>& steps, const std::vector<BlockRun>& runs);

}  // namespace npy::jit
