// NumPy's OpenBLAS starts its threads as it loads, and they spin for about
// 2^28 cycles after start-up and after every BLAS call before they sleep.
// On a machine of few cores they take the cores the JIT's threads need (on
// two cores the GA kernels ran 2x to 5x slower, and unevenly). OpenBLAS
// reads how long they spin once, as it loads, from OPENBLAS_THREAD_TIMEOUT:
// unless the user set it, npython sets it in the C environment (not in
// os.environ) only while NumPy's import loads OpenBLAS, to the shortest.
#pragma once

namespace npy::numpy_shim {

// Called for every module import that starts (the "import" audit event).
void note_import(const char* module);

}  // namespace npy::numpy_shim
