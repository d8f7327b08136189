#include "numpy_shim/output_memory.h"

#include <sys/mman.h>

#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <unordered_map>
#include <vector>

#define NO_IMPORT_ARRAY
#define PY_ARRAY_UNIQUE_SYMBOL npy_numpy_shim_ARRAY_API
#define NPY_NO_DEPRECATED_API NPY_2_0_API_VERSION
#include <numpy/arrayobject.h>

#include "numpy_shim/numpy_dtypes.h"
#include "numpy_shim/py_ref.h"

namespace npy::numpy_shim {
namespace {

constexpr std::size_t kPooledMin = std::size_t{1} << 20;   // smaller: plain malloc
constexpr std::size_t kGranule = std::size_t{2} << 20;     // one huge page
constexpr std::size_t kPoolMax = std::size_t{1} << 30;     // bytes kept for reuse at most

// Big blocks: mapped with huge pages where the kernel gives them, kept
// after use up to kPoolMax bytes. All access under `mutex` (arrays may die
// on any thread).
struct Pool {
  std::mutex mutex;
  std::multimap<std::size_t, void*> idle;           // size -> block
  std::unordered_map<void*, std::size_t> in_use;    // block -> size
  std::size_t idle_bytes = 0;

  void* take(std::size_t size) {
    const std::size_t rounded = (size + kGranule - 1) / kGranule * kGranule;
    {
      std::lock_guard<std::mutex> lock(mutex);
      // The smallest idle block that fits without wasting more than a quarter.
      const auto found = idle.lower_bound(rounded);
      if (found != idle.end() && found->first <= rounded + rounded / 4) {
        void* block = found->second;
        in_use[block] = found->first;
        idle_bytes -= found->first;
        idle.erase(found);
        return block;
      }
    }
    void* block = mmap(nullptr, rounded, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (block == MAP_FAILED) return nullptr;
    madvise(block, rounded, MADV_HUGEPAGE);
    std::lock_guard<std::mutex> lock(mutex);
    in_use[block] = rounded;
    return block;
  }

  // Returns false when `block` is not one of the pool's.
  bool give_back(void* block) {
    std::size_t size = 0;
    {
      std::lock_guard<std::mutex> lock(mutex);
      const auto found = in_use.find(block);
      if (found == in_use.end()) return false;
      size = found->second;
      in_use.erase(found);
      if (idle_bytes + size <= kPoolMax) {
        idle.emplace(size, block);
        idle_bytes += size;
        return true;
      }
    }
    munmap(block, size);
    return true;
  }

  std::size_t size_of(void* block) {
    std::lock_guard<std::mutex> lock(mutex);
    const auto found = in_use.find(block);
    return found == in_use.end() ? 0 : found->second;
  }
};

Pool& pool() {
  static Pool* p = new Pool();  // lives as long as arrays may free into it
  return *p;
}

void* pooled_malloc(void*, std::size_t size) {
  return size >= kPooledMin ? pool().take(size) : std::malloc(size ? size : 1);
}

void* pooled_calloc(void* ctx, std::size_t nelem, std::size_t elsize) {
  const std::size_t size = nelem * elsize;
  if (elsize && size / elsize != nelem) return nullptr;
  if (size < kPooledMin) return std::calloc(nelem ? nelem : 1, elsize ? elsize : 1);
  void* block = pooled_malloc(ctx, size);
  if (block) std::memset(block, 0, size);
  return block;
}

void pooled_free(void*, void* ptr, std::size_t) {
  if (ptr && !pool().give_back(ptr)) std::free(ptr);
}

void* pooled_realloc(void* ctx, void* ptr, std::size_t new_size) {
  const std::size_t old_size = ptr ? pool().size_of(ptr) : 0;
  if (!old_size) return std::realloc(ptr, new_size ? new_size : 1);  // malloc's block, or none
  if (old_size >= new_size) return ptr;
  void* block = pooled_malloc(ctx, new_size);
  if (block) {
    std::memcpy(block, ptr, old_size);
    pooled_free(ctx, ptr, 0);
  }
  return block;
}

PyDataMem_Handler g_handler = {
    "npython_output_pool", 1, {nullptr, pooled_malloc, pooled_calloc, pooled_realloc, pooled_free}};

PyObject* handler_capsule() {
  static PyObject* capsule = PyCapsule_New(&g_handler, "mem_handler", nullptr);
  return capsule;
}

// While alive, arrays NumPy allocates take their data from the pool.
class PooledOutputs {
 public:
  PooledOutputs() {
    PyObject* capsule = handler_capsule();
    if (!capsule) {
      PyErr_Clear();
      return;
    }
    previous_ = PyDataMem_SetHandler(capsule);
    if (!previous_) PyErr_Clear();
  }
  ~PooledOutputs() {
    if (!previous_ || !holds_gil()) return;
    PyObject* mine = PyDataMem_SetHandler(previous_);
    Py_XDECREF(mine);
    Py_DECREF(previous_);
  }
  PooledOutputs(const PooledOutputs&) = delete;
  PooledOutputs& operator=(const PooledOutputs&) = delete;

 private:
  PyObject* previous_ = nullptr;  // NumPy's handler before (owned)
};

}  // namespace

PyObject* new_output_array(const jit::Shape& shape, jit::DType dtype, const jit::Dims& strides) {
  std::vector<npy_intp> dims(shape.begin(), shape.end());
  std::vector<npy_intp> steps(strides.begin(), strides.end());
  // A size past size_t wraps here: NumPy refuses it on either path.
  std::size_t bytes = static_cast<std::size_t>(jit::itemsize(dtype));
  for (npy_intp d : dims) bytes *= static_cast<std::size_t>(d);
  auto make = [&] {
    return PyArray_NewFromDescr(&PyArray_Type, PyArray_DescrFromType(typenum_of(dtype)), static_cast<int>(dims.size()),
                                dims.data(), steps.empty() ? nullptr : steps.data(), nullptr, 0, nullptr);
  };
  if (bytes < kPooledMin) return make();
  PooledOutputs pooled;
  return make();
}

}  // namespace npy::numpy_shim
