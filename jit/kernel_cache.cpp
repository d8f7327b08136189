#include "jit/kernel_cache.h"

#include "common/stats.h"
#include "jit/numpy_loops.h"
#include "jit/trace_log.h"

namespace npy::jit {

namespace {

// Registered together, so that the stats list all three from the first kernel on.
struct KernelCounters {
  Counter& compiled = counter("jit.kernels_compiled");
  Counter& reused = counter("jit.kernels_reused");
  Counter& compile_us = counter("jit.compile_us");
  Counter& loaded = counter("jit.kernels_loaded");
  Counter& load_us = counter("jit.kernel_load_us");
};

KernelCounters& kernel_counters() {
  static KernelCounters counters;
  return counters;
}

}  // namespace

void note_kernel_reused() { kernel_counters().reused.add(); }

void note_kernel_loaded(std::chrono::microseconds took) {
  KernelCounters& counters = kernel_counters();
  counters.loaded.add();
  counters.load_us.add(static_cast<std::uint64_t>(took.count()));
}

bool uses_disk_cache() { return disk_cache_is_on() && !log_enabled(LogChannel::kOutputCode); }

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

void from_stored_form(Backend& backend, const StoredCode& stored, const Kernel& expected,
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
  if (fits) kernel = backend.place(stored.code);
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

void from_stored_form(Backend& backend, const StoredCode& stored, const ChainKernel& expected,
                      std::unique_ptr<ChainKernel>& kernel) {
  if (stored.facts.size() == 1 && stored.facts[0] == expected.points) kernel = backend.place_chain(stored.code);
  if (!kernel) {
    note_stored_code_rejected();
    return;
  }
  kernel->points = expected.points;
}

void note_kernel_compiled(const Backend& backend, const std::string& key, std::chrono::microseconds took,
                          bool made, const std::string& shape, const std::string& listing) {
  KernelCounters& counters = kernel_counters();
  counters.compile_us.add(static_cast<std::uint64_t>(took.count()));
  if (!made) return;
  counters.compiled.add();
  if (log_enabled(LogChannel::kOutputCode)) {
    log_text(LogChannel::kOutputCode,
             std::string("kernel (") + backend.name() + ", " + shape + ") for " + key + "\n" + listing);
  }
}

std::shared_ptr<const Kernel> kernel_for(Backend& backend, const LoopNest& nest, KernelOptions options) {
  static CodeCache<Kernel> cache;
  // The backend's name says its vector width too; the lanes a vector holds
  // say it again. NPY_MATH=fast kernels compute functions differently.
  const std::string key = std::string(backend.name()) + (fast_math() ? "|fastmath" : "") + "|c" +
                          std::to_string(nest.fuse_class) + "|l" +
                          std::to_string(backend.lanes(nest)) + (options.leaf_sums ? "|leaves" : "") +
                          (options.streaming_stores ? "|streaming" : "") + (options.row_results ? "|rows" : "") +
                          (options.notes_ties ? "|ties" : "") + "|" + nest_key(nest);
  // What the key fixes of the kernel, as compile() sets it.
  Kernel expected;
  expected.lanes = backend.lanes(nest);
  expected.lane_bytes = backend.lane_bytes(nest);
  expected.leaf_sums = options.leaf_sums;
  expected.streaming_stores = options.streaming_stores;
  expected.row_results = options.row_results;
  expected.notes_ties = options.notes_ties;
  return cached_code(
      cache, backend, key, expected, [&] { return backend.compile(nest, options); },
      [](const Kernel& k) { return std::to_string(k.lanes) + " lanes"; });
}

std::shared_ptr<const ChainKernel> chain_kernel_for(Backend& backend, const LoopNest& nest) {
  static CodeCache<ChainKernel> cache;
  const std::string key = std::string(backend.name()) + "|chain|p" + std::to_string(backend.chain_points(nest)) +
                          "|" + nest_key(nest);
  ChainKernel expected;  // what the key fixes of the kernel
  expected.points = backend.chain_points(nest);
  return cached_code(
      cache, backend, key, expected, [&] { return backend.compile_chain(nest); },
      [](const ChainKernel& k) { return std::to_string(k.points) + " points a step"; });
}

}  // namespace npy::jit
