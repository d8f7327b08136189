#include "jit/numpy_loops.h"

namespace npy::jit {
namespace {

// Index: the op, then the dtype's place in kLoopTypes.
NumpyLoop g_loops[kOpCount * kLoopTypeCount];
bool g_fast_math = false;

int slot_of(Op op, DType dtype) { return static_cast<int>(op) * kLoopTypeCount + loop_type_index(dtype); }

bool takes_loops(DType dtype) { return loop_type_index(dtype) >= 0; }

}  // namespace

int loop_type_index(DType dtype) {
  for (int i = 0; i < kLoopTypeCount; ++i) {
    if (kLoopTypes[i] == dtype) return i;
  }
  return -1;
}

void set_numpy_loop(Op op, DType dtype, NumpyLoop loop) {
  if (takes_loops(dtype) && op_info(op).numpy_loop) g_loops[slot_of(op, dtype)] = loop;
}

const NumpyLoop* numpy_loop(Op op, DType dtype) {
  if (!takes_loops(dtype)) return nullptr;
  const NumpyLoop& loop = g_loops[slot_of(op, dtype)];
  return loop.function ? &loop : nullptr;
}

void run_numpy_loop(Op op, DType dtype, void* out, const void* a, const void* b, std::int64_t count, bool a_one,
                    bool b_one) {
  const NumpyLoop& loop = g_loops[slot_of(op, dtype)];
  const std::intptr_t size = itemsize(dtype);
  const std::intptr_t dimensions[1] = {static_cast<std::intptr_t>(count)};
  const bool unary = op_info(op).arity == 1;
  const std::intptr_t steps[3] = {a_one ? 0 : size, b_one && !unary ? 0 : size, size};
  char* args[3] = {static_cast<char*>(const_cast<void*>(a)), static_cast<char*>(const_cast<void*>(b)),
                   static_cast<char*>(out)};
  if (op_info(op).arity == 1) args[1] = static_cast<char*>(out);
  loop.function(args, dimensions, steps, loop.data);
}

void run_numpy_loop_stepped(Op op, DType dtype, void* out, const char* a, std::int64_t a_step, std::int64_t count) {
  const NumpyLoop& loop = g_loops[slot_of(op, dtype)];
  const std::intptr_t dimensions[1] = {static_cast<std::intptr_t>(count)};
  const std::intptr_t steps[2] = {static_cast<std::intptr_t>(a_step), itemsize(dtype)};
  char* args[2] = {const_cast<char*>(a), static_cast<char*>(out)};
  loop.function(args, dimensions, steps, loop.data);
}

void set_fast_math(bool fast) { g_fast_math = fast; }

bool fast_math() { return g_fast_math; }

}  // namespace npy::jit
