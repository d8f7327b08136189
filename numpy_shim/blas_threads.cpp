#include "numpy_shim/blas_threads.h"

#include <Python.h>

#include <cstdlib>
#include <cstring>

namespace npy::numpy_shim {
namespace {

constexpr const char* kVariable = "OPENBLAS_THREAD_TIMEOUT";
constexpr const char* kShortest = "4";  // 2^4 cycles; OpenBLAS takes 4 to 30

enum class State { kBeforeNumpy, kSetForNumpy, kDone };
State g_state = State::kBeforeNumpy;

// NumPy's extension module, which links OpenBLAS, has loaded.
bool blas_loaded() {
  return PyDict_GetItemString(PyImport_GetModuleDict(), "numpy._core._multiarray_umath") != nullptr;
}

}  // namespace

void note_import(const char* module) {
  if (g_state == State::kBeforeNumpy && std::strcmp(module, "numpy") == 0) {
    g_state = State::kDone;
    if (!std::getenv(kVariable) && setenv(kVariable, kShortest, 0) == 0) g_state = State::kSetForNumpy;
    return;
  }
  if (g_state == State::kSetForNumpy && blas_loaded()) {
    unsetenv(kVariable);
    g_state = State::kDone;
  }
}

}  // namespace npy::numpy_shim
