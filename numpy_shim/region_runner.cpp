#include "numpy_shim/region_runner.h"

#include <opcode.h>

#include <algorithm>
#include <cfenv>
#include <chrono>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/stats.h"
#include "jit/trace_log.h"
#include "numpy_shim/diagnostics.h"
#include "numpy_shim/errstate.h"
#include "numpy_shim/output_memory.h"
#include "numpy_shim/py_ref.h"
#include "numpy_shim/result_layout.h"
#include "numpy_shim/sites.h"
#include "numpy_shim/temporary_elision.h"
#include "numpy_shim/without_gil.h"
#include "jit/backend.h"
#include "jit/fold.h"
#include "jit/fusion.h"
#include "jit/plan_cache.h"

#define NO_IMPORT_ARRAY
#define PY_ARRAY_UNIQUE_SYMBOL npy_numpy_shim_ARRAY_API
#define NPY_NO_DEPRECATED_API NPY_2_0_API_VERSION
#include <numpy/arrayobject.h>

#include "numpy_shim/numpy_dtypes.h"
#include "numpy_shim/vocabulary.h"

namespace npy::numpy_shim {
namespace {

const char* reason_text(Reason reason) {
  switch (reason) {
#define NPY_REASON_TEXT(name, text) \
  case Reason::k_##name:            \
    return text;
    NPY_MATERIALIZE_REASONS(NPY_REASON_TEXT)
#undef NPY_REASON_TEXT
  }
  return "?";
}

Counter& reason_counter(Reason reason) {
  static Counter* counters[] = {
#define NPY_REASON_COUNTER(name, text) &counter("jit.materializations." #name),
      NPY_MATERIALIZE_REASONS(NPY_REASON_COUNTER)
#undef NPY_REASON_COUNTER
  };
  return *counters[static_cast<int>(reason)];
}

PyObject* call_in_place_operator(int nb_op, PyObject* a, PyObject* b) {
  switch (nb_op) {
    case NB_INPLACE_ADD: return PyNumber_InPlaceAdd(a, b);
    case NB_INPLACE_SUBTRACT: return PyNumber_InPlaceSubtract(a, b);
    case NB_INPLACE_MULTIPLY: return PyNumber_InPlaceMultiply(a, b);
    case NB_INPLACE_TRUE_DIVIDE: return PyNumber_InPlaceTrueDivide(a, b);
    case NB_INPLACE_FLOOR_DIVIDE: return PyNumber_InPlaceFloorDivide(a, b);
    case NB_INPLACE_REMAINDER: return PyNumber_InPlaceRemainder(a, b);
    case NB_INPLACE_POWER: return PyNumber_InPlacePower(a, b, Py_None);
    case NB_INPLACE_AND: return PyNumber_InPlaceAnd(a, b);
    case NB_INPLACE_OR: return PyNumber_InPlaceOr(a, b);
    case NB_INPLACE_XOR: return PyNumber_InPlaceXor(a, b);
    case NB_INPLACE_LSHIFT: return PyNumber_InPlaceLshift(a, b);
    case NB_INPLACE_RSHIFT: return PyNumber_InPlaceRshift(a, b);
    default:
      PyErr_SetString(PyExc_SystemError, "npython: operator not in the region vocabulary");
      return nullptr;
  }
}

PyObject* call_binary_operator(int nb_op, PyObject* a, PyObject* b) {
  switch (nb_op) {
    case NB_ADD: return PyNumber_Add(a, b);
    case NB_SUBTRACT: return PyNumber_Subtract(a, b);
    case NB_MULTIPLY: return PyNumber_Multiply(a, b);
    case NB_TRUE_DIVIDE: return PyNumber_TrueDivide(a, b);
    case NB_FLOOR_DIVIDE: return PyNumber_FloorDivide(a, b);
    case NB_REMAINDER: return PyNumber_Remainder(a, b);
    case NB_POWER: return PyNumber_Power(a, b, Py_None);
    case NB_AND: return PyNumber_And(a, b);
    case NB_OR: return PyNumber_Or(a, b);
    case NB_XOR: return PyNumber_Xor(a, b);
    case NB_LSHIFT: return PyNumber_Lshift(a, b);
    case NB_RSHIFT: return PyNumber_Rshift(a, b);
    case NB_MATRIX_MULTIPLY: return PyNumber_MatrixMultiply(a, b);
    default:
      PyErr_SetString(PyExc_SystemError, "npython: operator not in the region vocabulary");
      return nullptr;
  }
}

// The target of an in-place operator or an assignment, as the node writes
// it: the array itself when nothing else holds its old value (which other
// pending values may still read), else a copy in the same layout.
PyObject* writable_target(PyObject* target, bool target_is_dead) {
  if (target_is_dead || !PyArray_Check(target)) return Py_NewRef(target);
  return PyArray_NewCopy(reinterpret_cast<PyArrayObject*>(target), NPY_KEEPORDER);
}

// Whether two arrays' elements may share memory: their extents (first to
// last byte) intersect, as np.may_share_memory says.
bool arrays_overlap(PyArrayObject* a, PyArrayObject* b) {
  auto extent = [](PyArrayObject* x, const char*& low, const char*& high) {
    low = high = PyArray_BYTES(x);
    if (PyArray_SIZE(x) == 0) return false;
    high += PyArray_ITEMSIZE(x);
    for (int d = 0; d < PyArray_NDIM(x); ++d) {
      const npy_intp span = PyArray_STRIDE(x, d) * (PyArray_DIM(x, d) - 1);
      (span < 0 ? low : high) += span;
    }
    return true;
  };
  const char *a_low, *a_high, *b_low, *b_high;
  if (!extent(a, a_low, a_high) || !extent(b, b_low, b_high)) return false;
  return a_low < b_high && b_low < a_high;
}

// Whether the array's memory is a memory map (np.memmap, or a view of
// one): another map of the same file shares it at other addresses, which
// arrays_overlap cannot see.
bool mapped_from_file(PyArrayObject* a) {
  PyObject* base = reinterpret_cast<PyObject*>(a);
  while (PyArray_Check(base) && PyArray_BASE(reinterpret_cast<PyArrayObject*>(base))) {
    base = PyArray_BASE(reinterpret_cast<PyArrayObject*>(base));
  }
  return std::strcmp(Py_TYPE(base)->tp_name, "mmap.mmap") == 0;
}

// Whether `part` is laid out as rows of contiguous elements, one after
// another in memory, but not C-contiguous (u[1:-1, 1:-1]): a target the
// driver can write row by row (jit::LoopOutput::row_stride).
bool has_contiguous_rows(PyArrayObject* part) {
  if (PyArray_NDIM(part) != 2 || PyArray_IS_C_CONTIGUOUS(part)) return false;
  const npy_intp row = PyArray_DIM(part, 1) * PyArray_ITEMSIZE(part);
  return PyArray_DIM(part, 1) > 0 && PyArray_DIM(part, 1) <= jit::kNearbyRowElements &&
         PyArray_STRIDE(part, 1) == PyArray_ITEMSIZE(part) && PyArray_STRIDE(part, 0) >= row;
}

// Whether `read`, overlapping `part` (C-contiguous, or has_contiguous_rows),
// is `part` moved by a few bytes (u[2:] against u[1:-1], u[:-2, 1:-1]
// against u[1:-1, 1:-1]): of its shape, strides and item size, so that each
// element lies near the element of `part` of the same index, no further
// than kNearbyReadElements of its elements (C-contiguous) or a row stride
// (jit::LoopOutput::read_nearby).
bool reads_nearby(PyArrayObject* part, PyArrayObject* read) {
  const int rank = PyArray_NDIM(part);
  if (PyArray_NDIM(read) != rank || PyArray_ITEMSIZE(read) != PyArray_ITEMSIZE(part) ||
      !std::equal(PyArray_DIMS(part), PyArray_DIMS(part) + rank, PyArray_DIMS(read)) ||
      (PyArray_IS_C_CONTIGUOUS(part) ? !PyArray_IS_C_CONTIGUOUS(read)
                                     : !std::equal(PyArray_STRIDES(part), PyArray_STRIDES(part) + rank,
                                                   PyArray_STRIDES(read)))) {
    return false;
  }
  const std::ptrdiff_t apart = PyArray_BYTES(read) - PyArray_BYTES(part);
  const std::ptrdiff_t reach = PyArray_IS_C_CONTIGUOUS(part) ? jit::kNearbyReadElements * PyArray_ITEMSIZE(part)
                                                             : PyArray_STRIDE(part, 0);
  return apart <= reach && -apart <= reach;
}

// The node computed as eager NumPy computes it: the same call, operator or
// method on the same objects.
PyObject* compute_eagerly(Trace& trace, int index, bool target_is_dead) {
  const EagerForm& form = trace.eager[index];
  std::vector<PyObject*> args;
  for (std::size_t i = 0; i < form.arg_nodes.size(); ++i) {
    args.push_back(form.arg_nodes[i] >= 0 ? trace.objects[form.arg_nodes[i]] : form.constants[i]);
  }
  switch (form.kind) {
    case EagerForm::Kind::kCall: {
      PyObject* tuple = PyTuple_New(static_cast<Py_ssize_t>(args.size()));
      if (!tuple) return nullptr;
      for (std::size_t i = 0; i < args.size(); ++i) {
        PyTuple_SET_ITEM(tuple, static_cast<Py_ssize_t>(i), Py_NewRef(args[i]));
      }
      PyObject* result = PyObject_Call(form.callable, tuple, form.kwargs);
      Py_DECREF(tuple);
      return result;
    }
    case EagerForm::Kind::kBinaryOperator:
      return call_binary_operator(form.operator_code, args[0], args[1]);
    case EagerForm::Kind::kInPlaceOperator: {
      // In place, as the program asked (NumPy's casting and the target's layout).
      PyObject* target = writable_target(args[0], target_is_dead);
      if (!target) return nullptr;
      PyObject* result = call_in_place_operator(form.operator_code, target, args[1]);
      Py_DECREF(target);
      return result;
    }
    case EagerForm::Kind::kSetItem: {
      // The value was computed before the assignment (NumPy's copy semantics
      // even when it reads the target); NumPy casts and broadcasts it.
      PyObject* target = writable_target(args[0], target_is_dead);
      if (!target) return nullptr;
      if (PyObject_SetItem(target, args[1], args[2]) < 0) {
        Py_DECREF(target);
        return nullptr;
      }
      return target;
    }
    case EagerForm::Kind::kCompare:
      return PyObject_RichCompare(args[0], args[1], form.operator_code);
    case EagerForm::Kind::kSubscript:
      return PyObject_GetItem(args[0], args[1]);
    case EagerForm::Kind::kPartOfCall:
      PyErr_SetString(PyExc_SystemError, "npython: a step of a NumPy function computed on its own");
      return nullptr;
    case EagerForm::Kind::kUnaryOperator:
      switch (static_cast<UnaryOperator>(form.operator_code)) {
        case UnaryOperator::kNegative: return PyNumber_Negative(args[0]);
        case UnaryOperator::kPositive: return PyNumber_Positive(args[0]);
        case UnaryOperator::kInvert: return PyNumber_Invert(args[0]);
      }
  }
  return nullptr;
}

// NumPy's report of the floating-point flags an op raised, in its order of
// categories, as the state in force (`modes`) says: a warning from the line
// that recorded the op, or FloatingPointError.
int report_fp_flags(int flags, const FpMode modes[4], const std::string& ufunc_name, int site) {
  struct Category {
    int flag;
    FpCategory category;
    const char* text;
  };
  const Category categories[] = {{FE_DIVBYZERO, FpCategory::kDivide, "divide by zero"},
                                 {FE_OVERFLOW, FpCategory::kOverflow, "overflow"},
                                 {FE_UNDERFLOW, FpCategory::kUnderflow, "underflow"},
                                 {FE_INVALID, FpCategory::kInvalid, "invalid value"}};
  const SiteInfo* info = site_info(site);
  for (const Category& c : categories) {
    const FpMode mode = modes[static_cast<int>(c.category)];
    if (!(flags & c.flag) || (mode != FpMode::kWarn && mode != FpMode::kRaise)) continue;
    const std::string text = std::string(c.text) + " encountered in " + ufunc_name;
    if (mode == FpMode::kRaise) {
      PyErr_SetString(PyExc_FloatingPointError, text.c_str());
      return -1;
    }
    PyObject* message = PyUnicode_FromString(text.c_str());
    if (!message) return -1;
    int err;
    if (info) {
      PyObject* module = PyDict_GetItemString(info->globals, "__name__");  // borrowed
      PyObject* registry = PyDict_GetItemString(info->globals, "__warningregistry__");
      if (!registry) {
        registry = PyDict_New();
        if (registry) {
          PyDict_SetItemString(info->globals, "__warningregistry__", registry);
          Py_DECREF(registry);  // the globals hold it
        }
      }
      err = PyErr_WarnExplicitObject(PyExc_RuntimeWarning, message, info->filename, info->lineno,
                                     module, registry);
    } else {
      err = PyErr_WarnEx(PyExc_RuntimeWarning, text.c_str(), 1);
    }
    Py_DECREF(message);
    if (err < 0) return -1;
  }
  return 0;
}

// The nodes to compute: those a live lazy value names and what they read;
// all of them while NumPy reports floating-point errors, since eager NumPy
// would have computed (and warned or raised about) values nobody used.
std::vector<bool> needed_nodes(const Trace& trace, const std::vector<bool>& results) {
  const std::size_t n = trace.region.nodes.size();
  bool reports = false;
  for (int c = 0; c < 4; ++c) reports = reports || errstate_mode(static_cast<FpCategory>(c)) != FpMode::kIgnore;
  std::vector<bool> needed(n, false);
  for (std::size_t i = n; i-- > 0;) {
    if (results[i] || (reports && trace.region.nodes[i].op != jit::Op::input)) needed[i] = true;
    if (!needed[i]) continue;
    const jit::Node& node = trace.region.nodes[i];
    for (int input : node.inputs) {
      if (input >= 0) needed[input] = true;
    }
  }
  return needed;
}

// References a step's run holds (its inputs as arrays, the arrays it makes).
using Owned = jit::PerOperand<PyObject*>;

// Runs the steps of a trace: fused groups as compiled kernels, the other
// nodes through NumPy. Values are released after their last use, and
// NumPy's own reuse of temporaries (`a + b` computed into a dead `a`) is kept
// for nodes that run through NumPy.
class Runner {
 public:
  Runner(Trace& trace, StoreTarget* target) : trace_(trace), nodes_(trace.region.nodes), target_(target) {
    for (int c = 0; c < 4; ++c) {
      modes_[c] = errstate_mode(static_cast<FpCategory>(c));
      reported_[c] = modes_[c] != FpMode::kIgnore;
    }
  }

  // Runs the steps, NumPy's floating-point reports held back. Should any
  // operation raise a flag NumPy reports, the steps that raised it are run
  // again, op by op in the program's order, reporting as eager NumPy does
  // (with what they read that is no longer held); a float min or max whose
  // bits NumPy's order decides runs everything again.
  int run(jit::CachedPlan& plan, jit::Backend* backend) {
    const std::vector<jit::Step>& steps = plan.steps;
    // Set only once a step runs through NumPy: kernels and the driver call
    // nothing in NumPy that reports floating-point errors, and setting it
    // costs two context-variable sets a region.
    std::optional<FpErrorsIgnored> ignored_while_running;
    auto ignored = [&ignored_while_running]() -> const FpErrorsIgnored& {
      if (!ignored_while_running) ignored_while_running.emplace();
      return *ignored_while_running;
    };
    std::vector<std::vector<int>> sequence;  // what each step computes, in the steps' order
    for (const jit::Step& step : steps) sequence.push_back(jit::step_nodes(step));
    order_by(sequence);
    int flags = 0;
    std::vector<int> raised_by(steps.size(), 0);  // per step, the flags it (or its block run) raised
    // An operation no kernel computes, through NumPy (views and item
    // assignments are NumPy's to make anyway: not counted; matrix products
    // are the BLAS's, counted apart).
    static Counter& by_numpy = counter("jit.ops_run_by_numpy");
    static Counter& by_blas = counter("jit.matrix_products");
    // A node over a mask's shape (EagerForm::over_mask_shape) that a kernel
    // does not compute: NumPy's form of it reads compressed values, which
    // the kernels' are not. The region is then computed through NumPy.
    bool mixes_mask_shapes = false;
    auto run_by_numpy = [&](int node, int& raised) {
      if (backend && trace_.eager[static_cast<std::size_t>(node)].over_mask_shape()) {
        mixes_mask_shapes = true;
        return 0;
      }
      const jit::OpKind kind = jit::op_info(nodes_[static_cast<std::size_t>(node)].op).kind;
      if (kind == jit::OpKind::kProduct) {
        by_blas.add();
      } else if (kind != jit::OpKind::kView && kind != jit::OpKind::kAssign) {
        by_numpy.add();
      }
      return run_node(node, &raised, ignored(), false);
    };
    std::size_t next_run = 0;  // of plan.block_runs
    // A float min or max whose bits NumPy's order decides (kOrderDecides)
    // ends the steps: the region is computed through NumPy, before any
    // later step writes a target its steps read.
    for (std::size_t s = 0; s < steps.size() && !(flags & jit::kOrderDecides) && !mixes_mask_shapes; ++s) {
      const jit::Step& step = steps[s];
      earlier_flags_ = flags;
      int raised = 0;
      if (backend && next_run < plan.block_runs.size() && plan.block_runs[next_run].first == s) {
        const jit::BlockRun& block_run = plan.block_runs[next_run++];
        const int status = run_block_run(*backend, plan, block_run, raised, ignored());
        if (status < 0) return -1;
        if (status == 1) {
          for (std::size_t in_run = s; in_run <= block_run.last; ++in_run) raised_by[in_run] = raised;
          flags |= raised;
          s = block_run.last;
          continue;
        }
      }
      if (step.eager) {
        const int status = backend ? run_in_backend(*backend, step.node, raised) : 0;
        if (status < 0 || (status == 0 && run_by_numpy(step.node, raised) < 0)) return -1;
      } else if (step.chain) {
        const int status = backend ? run_chain_step(*backend, plan, s, raised) : 0;
        if (status < 0) return -1;
        for (std::size_t m = 0; status == 0 && m < sequence[s].size(); ++m) {
          if (run_by_numpy(sequence[s][m], raised) < 0) return -1;
        }
      } else {
        const int status = backend ? run_group(*backend, plan, s, raised) : 0;
        if (status < 0) return -1;
        if (status == 0) {  // not compiled, or not in NumPy's order
          for (int m : step.group.members) {
            const int done = backend ? run_in_backend(*backend, m, raised) : 0;
            if (done < 0 || (done == 0 && run_by_numpy(m, raised) < 0)) return -1;
          }
        }
      }
      raised_by[s] = raised;
      flags |= raised;
    }
    raised_reported_ = (flags & reported_flags()) != 0;
    for (std::size_t s = 0; s < steps.size(); ++s) {
      if (!(raised_by[s] & reported_flags()) || steps[s].eager || steps[s].chain) continue;
      const std::vector<int>& members = steps[s].group.members;
      raised_across_lines_ = raised_across_lines_ || std::any_of(members.begin(), members.end(), [&](int m) {
                               return jit::site_text(nodes_[m].site) != jit::site_text(nodes_[members[0]].site);
                             });
    }
    std::vector<int> again;  // the nodes computed again
    // A flag raised in work over a mask's shape may come from elements
    // outside the mask, which NumPy does not compute: NumPy says.
    auto over_mask_shape = [&] {
      return std::any_of(trace_.eager.begin(), trace_.eager.end(),
                         [](const EagerForm& form) { return form.over_mask_shape(); });
    };
    if (mixes_mask_shapes || (backend && (flags & reported_flags()) && over_mask_shape())) {
      static Counter& reruns_for_masks = counter("jit.reruns_for_compressed_values");
      reruns_for_masks.add();
      if (target_) target_->not_stored = "computed again through NumPy for work on x[mask] values";
      for (const std::vector<int>& nodes : sequence) again.insert(again.end(), nodes.begin(), nodes.end());
      return run_again_reporting(std::move(again), ignored());
    }
    if (flags & jit::kOrderDecides) {
      static Counter& reruns_for_order = counter("jit.reruns_for_numpy_order");
      reruns_for_order.add();
      plan.notes_ties = true;
      if (target_) target_->not_stored = "computed again through NumPy for a min or max NumPy's order decides";
      for (const std::vector<int>& nodes : sequence) again.insert(again.end(), nodes.begin(), nodes.end());
    } else {
      if (!(flags & reported_flags())) return 0;
      static Counter& reruns = counter("jit.reruns_for_fp_reports");
      reruns.add();
      if (!nearby_samples_.empty()) return rerun_nearby_step(steps.back().group, ignored());
      again = raising_nodes(sequence, raised_by);
      if (target_ && std::find(again.begin(), again.end(), target_->node) != again.end()) {
        target_->not_stored = "computed again through NumPy for its floating-point reports";
      }
    }
    static Counter& ops_again = counter("jit.ops_rerun_for_fp_reports");
    if (!(flags & jit::kOrderDecides)) ops_again.add(again.size());
    return run_again_reporting(std::move(again), ignored());
  }

  // After run(): whether an operation raised a flag the program's error
  // state reports; whether a loop over several program lines raised one.
  bool raised_reported() const { return raised_reported_; }
  bool raised_across_lines() const { return raised_across_lines_; }

 private:
  // Computes `nodes` again through NumPy, one by one in the program's
  // order, reporting floating-point errors as eager NumPy does.
  int run_again_reporting(std::vector<int> nodes, const FpErrorsIgnored& ignored) {
    std::sort(nodes.begin(), nodes.end());
    std::vector<std::vector<int>> sequence;
    for (int i : nodes) {
      Py_CLEAR(trace_.objects[i]);
      sequence.push_back({i});
    }
    order_by(sequence);
    for (int i : nodes) {
      if (run_node(i, nullptr, ignored, true) < 0) return -1;
    }
    return 0;
  }

  // What to compute again for the floating-point reports: the nodes of the
  // steps that raised a reported flag (`raised_by`, per step of
  // `sequence`), and, computed again with them, the values they read that
  // are no longer held (kept in a kernel's registers or a tile, or released
  // after their last use). Everything, where a NumPy function spelled out
  // in steps (EagerForm::kPartOfCall) is among them: its last node computes
  // the whole call.
  std::vector<int> raising_nodes(const std::vector<std::vector<int>>& sequence,
                                 const std::vector<int>& raised_by) const {
    std::vector<bool> again(nodes_.size(), false);
    std::vector<int> work;
    for (std::size_t s = 0; s < sequence.size(); ++s) {
      if (!(raised_by[s] & reported_flags())) continue;
      for (int n : sequence[s]) {
        again[static_cast<std::size_t>(n)] = true;
        work.push_back(n);
      }
    }
    auto needs = [&](int node) {
      if (node < 0 || nodes_[static_cast<std::size_t>(node)].op == jit::Op::input) return;
      if (again[static_cast<std::size_t>(node)] || trace_.objects[static_cast<std::size_t>(node)]) return;
      again[static_cast<std::size_t>(node)] = true;
      work.push_back(node);
    };
    auto read_again = [&] {  // what the work reads that is no longer held, computed again with it
      while (!work.empty()) {
        const int n = work.back();
        work.pop_back();
        for (int input : nodes_[static_cast<std::size_t>(n)].inputs) needs(input);
        for (int arg : trace_.eager[static_cast<std::size_t>(n)].arg_nodes) needs(arg);
      }
    };
    read_again();
    // Views of a value computed again, and assignments into it, are made
    // again from the new array (nodes follow their operands): the earlier
    // ones hold the array computed first, which the program's writes
    // through such a view would reach instead of the value it is given.
    for (std::size_t i = 0; i < nodes_.size(); ++i) {
      const jit::OpKind kind = jit::op_info(nodes_[i].op).kind;
      if (again[i] || (kind != jit::OpKind::kView && kind != jit::OpKind::kAssign)) continue;
      for (int input : nodes_[i].inputs) {
        if (input >= 0 && again[static_cast<std::size_t>(input)]) again[i] = true;
      }
      if (!again[i]) continue;
      work.push_back(static_cast<int>(i));
      read_again();
    }
    std::vector<int> nodes;
    for (std::size_t i = 0; i < again.size(); ++i) {
      if (!again[i]) continue;
      if (trace_.eager[i].kind == EagerForm::Kind::kPartOfCall) {
        std::vector<int> all;
        for (const std::vector<int>& step : sequence) all.insert(all.end(), step.begin(), step.end());
        return all;
      }
      nodes.push_back(static_cast<int>(i));
    }
    return nodes;
  }

  // Positions in the order nodes run (steps may run a node recorded later
  // before one recorded earlier), and the last position reading each node.
  // Each node has a position of its own, in the order a step lists them, so
  // that the members of a group run one by one (when it has no kernel) keep
  // what later members read.
  void order_by(const std::vector<std::vector<int>>& sequence) {
    position_.assign(nodes_.size(), 0);
    last_use_.assign(nodes_.size(), 0);
    std::size_t p = 0;
    for (const std::vector<int>& step : sequence) {
      for (int node : step) {
        position_[node] = ++p;
        for (int input : nodes_[node].inputs) {
          if (input >= 0) last_use_[input] = std::max(last_use_[input], p);
        }
        for (int arg : trace_.eager[node].arg_nodes) {  // what NumPy reads when it computes the node
          if (arg >= 0) last_use_[arg] = std::max(last_use_[arg], p);
        }
      }
    }
  }

  // A reduction chain's step (fusion.h) in one kernel. 1: ran; 0: not run
  // (no kernel, inputs NumPy would reduce in another order, or sizes the
  // driver does not run); -1: error.
  int run_chain_step(jit::Backend& backend, jit::CachedPlan& plan, std::size_t step, int& flags_raised) {
    const jit::ReductionChain& chain = plan.steps[step].reduction_chain;
    Owned keep;
    auto release = [&] {
      for (PyObject* o : keep) Py_DECREF(o);
    };
    c_order_inputs_ = true;
    std::vector<jit::LoopInput> inputs(chain.loop.inputs.size());
    for (std::size_t i = 0; i < inputs.size(); ++i) {
      if (!loop_input(chain.loop.inputs[i], chain.loop.shape, inputs[i], keep)) {
        release();
        return 0;
      }
    }
    // The levels reduce in the order NumPy's reductions take their operands
    // as NumPy lays them out (schedule_chain_run): the loop's value as NumPy
    // computes it from its inputs' layouts (result_layout.h), or the chain's
    // value read as it is, in C order and lying forwards (NumPy walks an
    // array that lies backwards in memory order).
    std::vector<int> value_layout;
    if (chain.loop.members.empty()) {
      bool forwards = c_order_inputs_;
      for (std::int64_t stride : inputs[0].strides) forwards = forwards && stride >= 0;
      if (forwards) {
        for (std::size_t d = 0; d < chain.loop.shape.size(); ++d) value_layout.push_back(static_cast<int>(d));
      }
    } else {
      value_layout = results_dims_order(chain.loop, inputs);
    }
    if (value_layout.empty() && !chain.loop.shape.empty()) {
      release();
      return 0;
    }
    const int result_node = jit::chain_result(chain);
    const jit::Node& result_info = nodes_[result_node];
    PyObject* result = new_output_array(result_info.shape, result_info.dtype);
    if (!result) {
      release();
      return -1;
    }
    char* data = static_cast<char*>(PyArray_DATA(reinterpret_cast<PyArrayObject*>(result)));
    const int flags = without_gil(jit::element_count(chain.loop.shape), [&] {
      return backend.run_chain(plan, step, inputs, value_layout, data, result_info.dtype);
    });
    release();
    if (flags < 0) {
      Py_DECREF(result);
      return 0;
    }
    flags_raised |= flags;
    if (trace_.eager[result_node].gives_scalar) {
      result = PyArray_Return(reinterpret_cast<PyArrayObject*>(result));  // a NumPy scalar, as eager NumPy gives
    }
    trace_.objects[result_node] = result;
    static Counter& chain_runs = counter("jit.reduction_chain_runs");
    chain_runs.add();
    for (int m : jit::chain_nodes(chain)) release_inputs_of(m, position_[result_node]);
    return 1;
  }

  // Whether the store target's part takes the target node's value from
  // fused step `step`, whose loop reads `read`: only in the region's last
  // step (nothing after it may see the part change, or fail once it has),
  // with the part laid out as kernels write (C order, the node's dtype and
  // shape), and sharing no memory with what the step reads but the part
  // itself moved by a few bytes (StoreTarget::read_nearby: the driver writes
  // each element once what reads it is computed, and it may write rows of
  // the part that lie apart). Otherwise the value goes through a temporary,
  // as in NumPy.
  bool into_target(const jit::CachedPlan& plan, std::size_t step, const Owned& read,
                   int flags_so_far) {
    const jit::Group& group = plan.steps[step].group;
    if (!target_ || step + 1 != plan.steps.size() ||
        std::find(group.outputs.begin(), group.outputs.end(), target_->node) == group.outputs.end()) {
      return false;
    }
    if (fp_reports_raise()) {
      // Eager NumPy raises before it stores.
      target_->not_stored = "a floating-point error would raise before the store";
      return false;
    }
    if (!group.folds.empty()) {
      // Folds write their results many times over, and the driver orders
      // their loop for them (not for a target it reads nearby).
      target_->not_stored = "the last step folds a reduction";
      return false;
    }
    auto* part = reinterpret_cast<PyArrayObject*>(target_->part);
    const jit::Node& node = nodes_[target_->node];
    const int rank = PyArray_NDIM(part);
    const char* differs = nullptr;
    if (!PyArray_ISWRITEABLE(part)) {
      differs = "the target is read-only";
    } else if (PyArray_TYPE(part) != typenum_of(node.dtype) || !PyArray_ISNBO(PyArray_DESCR(part)->byteorder)) {
      differs = "NumPy casts the value to the target's dtype";
    } else if (static_cast<std::size_t>(rank) != node.shape.size() ||
               !std::equal(node.shape.begin(), node.shape.end(), PyArray_DIMS(part))) {
      differs = "NumPy broadcasts the value to the target's shape";
    } else if ((!PyArray_IS_C_CONTIGUOUS(part) && !has_contiguous_rows(part)) || !PyArray_ISALIGNED(part)) {
      differs = "the target is not C-contiguous";
    }
    if (differs) {
      target_->not_stored = differs;
      return false;
    }
    // A rerun of earlier steps (for floating-point reports they raised, or
    // for a min or max of this step whose bits NumPy's order decides)
    // computes them again from the region's inputs they derive from: none
    // of those may have been overwritten by then. (Should this step alone
    // raise a flag, its rerun reads the values it read, which it keeps.)
    bool float_extremes = false;
    for (int r : group.reductions) {
      float_extremes = float_extremes || (jit::is_min_max(nodes_[r].op) && jit::is_float(nodes_[r].compute));
    }
    const bool earlier_may_rerun = (flags_so_far & reported_flags()) || float_extremes;
    std::vector<bool> seen(nodes_.size(), false);
    std::vector<int> work;
    for (std::size_t earlier = 0; earlier < step && earlier_may_rerun; ++earlier) {
      for (int n : jit::step_nodes(plan.steps[earlier])) work.push_back(n);
    }
    while (!work.empty()) {
      const auto n = static_cast<std::size_t>(work.back());
      work.pop_back();
      if (seen[n]) continue;
      seen[n] = true;
      PyObject* o = trace_.objects[n];
      if (nodes_[n].op == jit::Op::input && o && PyArray_Check(o) &&
          arrays_overlap(part, reinterpret_cast<PyArrayObject*>(o))) {
        target_->not_stored = "the target overlaps what an earlier step reads, which a rerun would read again";
        return false;
      }
      for (int r : nodes_[n].inputs) {
        if (r >= 0) work.push_back(r);
      }
      for (int r : trace_.eager[n].arg_nodes) {
        if (r >= 0) work.push_back(r);
      }
    }
    target_->read_nearby = false;
    // Reading the part itself, the step can report its floating-point flags
    // from its own inputs alone (Runner::rerun_nearby_step): so when it is
    // the only step that raises any, and its only output is the target.
    const bool alone = !(flags_so_far & reported_flags()) && group.outputs.size() == 1 && group.reductions.empty();
    const bool part_mapped = mapped_from_file(part);
    for (PyObject* array : read) {
      auto* a = reinterpret_cast<PyArrayObject*>(array);
      if (part_mapped && mapped_from_file(a) && !arrays_overlap(part, a)) {
        target_->not_stored = "the target and what the last step reads are maps of files, which may be the same";
        return false;
      }
      if (!arrays_overlap(part, a)) continue;
      if (!alone || !reads_nearby(part, a)) {
        target_->not_stored = "the target overlaps what the last step reads";
        return false;
      }
      target_->read_nearby = true;
    }
    if (!PyArray_IS_C_CONTIGUOUS(part) && !target_->read_nearby) {
      target_->not_stored = "the target is not C-contiguous";
      return false;
    }
    return true;
  }

  // The driver writes a target that the loop reads nearby in loops of one
  // dimension (a C-contiguous target), or of two as the target's rows: in
  // others (order_loop made the loop otherwise) the value goes to a new
  // array (a temporary, which NumPy assigns). false, with an exception,
  // when none can be made.
  bool to_temporary_unless_rows(const jit::Shape& loop_shape, std::vector<jit::LoopOutput>& outputs,
                                Owned& made) {
    for (std::size_t o = 0; o < outputs.size(); ++o) {
      if (!outputs[o].read_nearby) continue;
      const jit::Node& node = nodes_[target_->node];
      auto* part = reinterpret_cast<PyArrayObject*>(target_->part);
      if (loop_shape.size() == 1 && PyArray_IS_C_CONTIGUOUS(part)) continue;
      if (loop_shape.size() == 2 && loop_shape == node.shape) {
        outputs[o].row_stride = PyArray_STRIDE(part, 0);
        continue;
      }
      PyObject* a = new_output_array(node.shape, node.dtype);
      if (!a) {
        for (PyObject* m : made) Py_DECREF(m);
        made.clear();
        return false;
      }
      Py_SETREF(made[o], a);
      outputs[o].data = static_cast<char*>(PyArray_DATA(reinterpret_cast<PyArrayObject*>(a)));
      outputs[o].read_nearby = false;
      target_->read_nearby = false;
      target_->not_stored = "the target overlaps what the last step reads, in a loop not laid out as its rows";
    }
    return true;
  }

  // Whether the group's work may raise floating-point flags: a member
  // makes floats or reads them (integer work raises none).
  bool touches_floats(const jit::Group& group) const {
    return std::any_of(group.members.begin(), group.members.end(), [&](int m) {
      const jit::Node& node = nodes_[m];
      return jit::is_float(node.dtype) || std::any_of(std::begin(node.inputs), std::end(node.inputs), [&](int in) {
               return in >= 0 && jit::is_float(nodes_[in].dtype);
             });
    });
  }

  // The inputs' old values where the step that wrote its target while
  // reading it raised flags NumPy reports, as arrays of one dimension for
  // rerun_nearby_step (inputs of no dimension, and Python numbers, stay as
  // they are). false, with an exception, when they cannot be made.
  bool keep_samples(const jit::Group& group, const jit::NearbySamples& samples) {
    for (std::size_t i = 0; i < group.inputs.size(); ++i) {
      const jit::Node& node = nodes_[group.inputs[i]];
      if (node.shape.empty() || node.is_scalar_constant) continue;
      npy_intp count = samples.count;
      PyObject* a = PyArray_SimpleNew(1, &count, typenum_of(node.dtype));
      if (!a) return false;
      std::memcpy(PyArray_DATA(reinterpret_cast<PyArrayObject*>(a)), samples.values[i].data(), samples.values[i].size());
      nearby_samples_.emplace_back(group.inputs[i], PyRef(a));
    }
    return true;
  }

  // The floating-point reports of the region's last step, which computed
  // the target straight into it, reading it (StoreTarget::read_nearby),
  // and alone raised flags NumPy reports: its members run again through
  // NumPy, in order, on their inputs' old values where the flags were
  // raised (NumPy reports a category once an operation raises it anywhere).
  // The target keeps the values the kernel wrote.
  int rerun_nearby_step(const jit::Group& group, const FpErrorsIgnored& ignored) {
    std::vector<PyObject*> originals;  // owned
    for (auto& [node, sample] : nearby_samples_) {
      originals.push_back(trace_.objects[node]);
      trace_.objects[node] = Py_NewRef(sample.get());
    }
    const int status = run_again_reporting(group.members, ignored);
    for (int m : group.members) Py_CLEAR(trace_.objects[m]);
    for (std::size_t k = 0; k < nearby_samples_.size(); ++k) {
      Py_XSETREF(trace_.objects[nearby_samples_[k].first], originals[k]);
    }
    trace_.objects[target_->node] = Py_NewRef(target_->part);
    return status;
  }

  bool is_dead_temporary(int node, std::size_t at) const {
    return node >= 0 && nodes_[node].op != jit::Op::input && last_use_[node] <= at &&
           trace_.handles[node] == 0;
  }

  void release_inputs_of(int node, std::size_t at) {
    for (int input : nodes_[node].inputs) {
      if (is_dead_temporary(input, at)) Py_CLEAR(trace_.objects[input]);
    }
  }

  int reported_flags() const {
    const int categories[] = {FE_DIVBYZERO, FE_OVERFLOW, FE_UNDERFLOW, FE_INVALID};
    int mask = 0;
    for (int c = 0; c < 4; ++c) mask |= reported_[c] ? categories[c] : 0;
    return mask;
  }

  // Runs one node through NumPy. A ufunc, operator or C method the program
  // called runs with errors ignored: `flags` (first pass) collects the flags
  // it raised, and the second pass (`reporting`) reports them at the
  // program's line. A NumPy function written in Python (np.linalg.norm,
  // np.mean) clears the flags between its own ufunc calls: in the first pass
  // NumPy notes its errors for us, in the second it reports them itself,
  // under the program's own error state.
  int run_node(int index, int* flags, const FpErrorsIgnored& ignored, bool reporting) {
    const std::size_t i = static_cast<std::size_t>(index);
    const std::size_t at = position_[i];
    const EagerForm& form = trace_.eager[i];
    if (form.kind == EagerForm::Kind::kPartOfCall) return 0;  // its function's last node computes it all
    // The program's call can read a value other than the node's inputs (the
    // argument of np.linalg.norm, whose steps are the node's inputs), which
    // a kernel may have kept in registers: computed here first.
    for (int arg : form.arg_nodes) {
      if (arg < 0 || trace_.objects[static_cast<std::size_t>(arg)]) continue;
      if (run_node(arg, flags, ignored, reporting) < 0) return -1;
      if (!trace_.objects[static_cast<std::size_t>(arg)]) {
        PyErr_SetString(PyExc_SystemError, "npython: a value a NumPy call reads was not computed");
        return -1;
      }
    }
    std::feclearexcept(FE_ALL_EXCEPT);
    PyObject* value = nullptr;
    const bool lhs_dead = form.kind == EagerForm::Kind::kBinaryOperator && is_dead_temporary(form.arg_nodes[0], at);
    const bool rhs_dead = form.kind == EagerForm::Kind::kBinaryOperator && is_dead_temporary(form.arg_nodes[1], at);
    if (lhs_dead || rhs_dead) {
      // Only a dead operand's memory may take the result: the other one's
      // may be a result of the region or read later, with the region's
      // reference its only one all the same.
      // An operand that is no node (a complex recording's array) is the form's constant.
      auto operand = [&](int k) { return form.arg_nodes[k] >= 0 ? trace_.objects[form.arg_nodes[k]] : form.constants[k]; };
      value = binary_op_into_temporary(form.operator_code, operand(0), operand(1), lhs_dead, rhs_dead);
    } else if (form.kind == EagerForm::Kind::kUnaryOperator && is_dead_temporary(form.arg_nodes[0], at) &&
               static_cast<UnaryOperator>(form.operator_code) != UnaryOperator::kPositive) {
      const auto op = static_cast<UnaryOperator>(form.operator_code) == UnaryOperator::kNegative
                          ? UnaryOp::kNegative
                          : UnaryOp::kInvert;
      value = unary_op_into_temporary(op, trace_.objects[form.arg_nodes[0]]);
    }
    bool noted = false;
    const bool writes_target = form.kind == EagerForm::Kind::kInPlaceOperator || form.kind == EagerForm::Kind::kSetItem;
    const bool in_place_target_dead = writes_target &&
                                      is_dead_temporary(form.arg_nodes[0], at) &&
                                      trace_.objects[form.arg_nodes[0]] &&
                                      Py_REFCNT(trace_.objects[form.arg_nodes[0]]) == 1;
    if (!value && !PyErr_Occurred()) {
      if (form.reports_at_call_site) {
        value = compute_eagerly(trace_, index, in_place_target_dead);
      } else if (reporting) {
        FpErrorsIgnored::ProgramState program(ignored);
        value = compute_eagerly(trace_, index, in_place_target_dead);
      } else {
        FpErrorsNoted noting(reported_);
        value = compute_eagerly(trace_, index, in_place_target_dead);
        noted = noting.noted();
      }
    }
    // NumPy never reports floating-point errors of comparisons: its array
    // loops clear the flags, its scalar comparisons (C's `<` on a NaN
    // raises "invalid") do not look at them.
    const int raised = form.kind == EagerForm::Kind::kCompare
                           ? 0
                           : std::fetestexcept(jit::kNumpyFpFlags);
    if (!value) return failed_at(i);
    trace_.objects[i] = value;
    release_inputs_of(index, at);
    if (flags && form.reports_at_call_site) *flags |= raised;
    if (flags && noted) *flags |= reported_flags();
    if (reporting && raised && form.reports_at_call_site &&
        report_fp_flags(raised, modes_, (form.scalar_math ? std::string("scalar ") : std::string()) + form.ufunc_name,
                        nodes_[i].site) < 0) {
      return failed_at(i);
    }
    return 0;
  }

  // -1, the exception set having come from node i (g_failed_op).
  int failed_at(std::size_t i) const {
    g_failed_op = i < trace_.recorded_at.size() ? trace_.recorded_at[i] : RecordedAt{};
    return -1;
  }

  // The axes of an array (`shape`, byte `strides`) as NumPy's reduction
  // walks them (jit::walk_order), when those reduced (`axes`) form one block
  // with kept axes inside it and the kept axes keep their order (so that
  // the results come out in C order): `shape` and `strides` rewritten so,
  // `outer` kept axes before the `reduced` ones. False otherwise.
  static bool walk_as_columns(std::uint32_t axes, jit::Shape& shape, jit::Dims& strides, int& outer,
                              int& reduced) {
    const std::vector<int> order = jit::walk_order(shape, strides);
    outer = reduced = 0;
    int kept_after = 0, last_kept = -1;
    for (int d : order) {
      const bool is_reduced = axes & (1u << d);
      if (is_reduced && kept_after > 0) return false;  // a second block
      if (!is_reduced) {
        if (d < last_kept) return false;  // kept axes reordered
        last_kept = d;
        (reduced == 0 ? outer : kept_after) += 1;
      }
      reduced += is_reduced;
    }
    if (reduced == 0 || kept_after == 0) return false;
    jit::Shape walked_shape;
    jit::Dims walked_strides;
    for (int d : order) {
      walked_shape.push_back(shape[d]);
      walked_strides.push_back(strides[d]);
    }
    shape = std::move(walked_shape);
    strides = std::move(walked_strides);
    return true;
  }

  // Reductions of an array as it is that kernels do not take, computed by
  // the backend in NumPy's order: a float sum or mean, or an integer or bool
  // sum, over axes with kept axes inside them (x.mean(axis=0), x.sum(axis=1)
  // of 3-D x, Backend::column_sums), and a 2-norm along the last
  // axis of an array of two or more dimensions (np.linalg.norm(x, axis=1),
  // Backend::row_norms; along an axis given, NumPy adds the squares
  // pairwise). 1 when done, 0 when the node is none of these (NumPy computes
  // it), -1 on an error.
  int run_in_backend(jit::Backend& backend, int index, int& flags_raised) {
    const jit::Node& n = nodes_[static_cast<std::size_t>(index)];
    const EagerForm& form = trace_.eager[static_cast<std::size_t>(index)];
    if (jit::op_info(n.op).numpy_loop) return run_stepped_numpy_loop(backend, index, flags_raised);
    if (jit::op_info(n.op).kind == jit::OpKind::kScan) return run_scan(backend, index, flags_raised);
    const bool sum = jit::adds(n.op);
    const jit::Node& x = nodes_[static_cast<std::size_t>(n.inputs[0])];
    // Floats of their own type, or integer and bool sums (exact in any order).
    const bool float_result = jit::is_float(n.dtype) && n.dtype == n.compute && x.dtype == n.dtype;
    const bool int_sum = n.op == jit::Op::sum && !jit::is_float(x.dtype) &&
                         (n.dtype == jit::DType::kInt64 || n.dtype == jit::DType::kUInt64);
    // A sum that is a step of a NumPy function spelled out in region ops
    // (np.linalg.norm across rows, np.std) is add.reduce there too: the
    // backend's bits, so the steps after it need not wait for the call.
    if ((!sum && n.op != jit::Op::norm) || (form.kind == EagerForm::Kind::kPartOfCall && !sum) ||
        !(float_result || int_sum) || (!sum && !float_result)) {
      return 0;
    }
    const int rank = static_cast<int>(x.shape.size());
    if (!sum && (rank < 2 || n.axes != 1u << (rank - 1))) return 0;
    PyObject* object = trace_.objects[static_cast<std::size_t>(n.inputs[0])];
    if (!object || Py_TYPE(object) != &PyArray_Type) return 0;
    auto* a = reinterpret_cast<PyArrayObject*>(object);
    if (PyArray_TYPE(a) != typenum_of(x.dtype) || !PyArray_ISNBO(PyArray_DESCR(a)->byteorder) ||
        PyArray_NDIM(a) != rank || !PyArray_ISALIGNED(a)) {
      return 0;
    }
    // NumPy's squares of an array in another order lie in that order, and
    // its sum along the last axis then need not be pairwise.
    if (!sum && !is_c_ordered(a)) return 0;
    jit::Shape shape(PyArray_DIMS(a), PyArray_DIMS(a) + rank);
    if (shape != x.shape) return 0;
    jit::Dims strides(PyArray_STRIDES(a), PyArray_STRIDES(a) + rank);
    int outer = 0, reduced = 0;  // of the axes as NumPy walks them, for a sum
    if (sum && !walk_as_columns(n.axes, shape, strides, outer, reduced)) return 0;
    PyObject* out = new_output_array(n.shape, n.dtype);
    if (!out) return -1;
    const auto* data = static_cast<const char*>(PyArray_DATA(a));
    auto* results = static_cast<char*>(PyArray_DATA(reinterpret_cast<PyArrayObject*>(out)));
    const int flags = without_gil(jit::element_count(shape), [&] {
      return sum ? backend.column_sums(data, shape, strides, outer, reduced, x.dtype, n.dtype, n.op == jit::Op::mean,
                                       results)
                 : backend.row_norms(data, shape, strides, n.dtype, results);
    });
    if (flags < 0) {
      Py_DECREF(out);
      return 0;
    }
    flags_raised |= flags;
    static Counter& column_sums = counter("jit.column_sum_runs");
    static Counter& row_norms = counter("jit.row_norm_runs");
    (sum ? column_sums : row_norms).add();
    trace_.objects[static_cast<std::size_t>(index)] = out;
    release_inputs_of(index, position_[static_cast<std::size_t>(index)]);
    return 1;
  }

  // np.cumsum and np.cumprod of an array as it is, by the backend
  // (Backend::scan). 1: ran; 0: laid out as the backend does not take
  // (NumPy computes it); -1: error.
  int run_scan(jit::Backend& backend, int index, int& flags_raised) {
    const jit::Node& n = nodes_[static_cast<std::size_t>(index)];
    const jit::Node& x = nodes_[static_cast<std::size_t>(n.inputs[0])];
    PyObject* object = trace_.objects[static_cast<std::size_t>(n.inputs[0])];
    if (!object || Py_TYPE(object) != &PyArray_Type) return 0;
    auto* a = reinterpret_cast<PyArrayObject*>(object);
    const int rank = static_cast<int>(x.shape.size());
    if (PyArray_TYPE(a) != typenum_of(x.dtype) || !PyArray_ISNBO(PyArray_DESCR(a)->byteorder) ||
        PyArray_NDIM(a) != rank || !PyArray_ISALIGNED(a) || rank == 0) {
      return 0;
    }
    const jit::Shape shape(PyArray_DIMS(a), PyArray_DIMS(a) + rank);
    if (shape != x.shape) return 0;
    const jit::Dims strides(PyArray_STRIDES(a), PyArray_STRIDES(a) + rank);
    const bool flat = rank > 1 && n.axes == (1u << rank) - 1;
    int axis = -1;
    for (int d = 0; d < rank && !flat; ++d) {
      if (n.axes == 1u << d) axis = d;
    }
    PyObject* out = new_output_array(n.shape, n.dtype);
    if (!out) return -1;
    const auto* data = static_cast<const char*>(PyArray_DATA(a));
    auto* results = static_cast<char*>(PyArray_DATA(reinterpret_cast<PyArrayObject*>(out)));
    const int flags = without_gil(jit::element_count(shape), [&] {
      return backend.scan(data, shape, strides, axis, x.dtype, n.dtype, jit::op_info(n.op).combine, results);
    });
    if (flags < 0) {
      Py_DECREF(out);
      return 0;
    }
    flags_raised |= flags;
    static Counter& scans = counter("jit.scan_runs");
    scans.add();
    trace_.objects[static_cast<std::size_t>(index)] = out;
    release_inputs_of(index, position_[static_cast<std::size_t>(index)]);
    return 1;
  }

  // A ufunc call of one of NumPy's own loops on a float array of one
  // dimension that steps forwards by more than an item (np.sin(x[:, 0]),
  // which fusion leaves to NumPy: Node::stepped): NumPy's loop on the
  // array as it lies, in pieces on the threads (run_stepped_numpy_loop).
  // 1: ran; 0: not such a call; -1: error.
  int run_stepped_numpy_loop(jit::Backend& backend, int index, int& flags_raised) {
    const jit::Node& n = nodes_[static_cast<std::size_t>(index)];
    const EagerForm& form = trace_.eager[static_cast<std::size_t>(index)];
    if (jit::op_info(n.op).arity != 1 || !jit::is_float(n.dtype) || n.compute != n.dtype ||
        form.kind != EagerForm::Kind::kCall || form.kwargs || !form.reports_at_call_site) {
      return 0;
    }
    const jit::Node& x = nodes_[static_cast<std::size_t>(n.inputs[0])];
    PyObject* object = trace_.objects[static_cast<std::size_t>(n.inputs[0])];
    if (x.dtype != n.dtype || !object || Py_TYPE(object) != &PyArray_Type) return 0;
    auto* a = reinterpret_cast<PyArrayObject*>(object);
    if (PyArray_NDIM(a) != 1 || PyArray_TYPE(a) != typenum_of(x.dtype) || !PyArray_ISNBO(PyArray_DESCR(a)->byteorder) ||
        !PyArray_ISALIGNED(a) || PyArray_STRIDE(a, 0) <= PyArray_ITEMSIZE(a) || PyArray_DIM(a, 0) < 2 ||
        n.shape != x.shape) {
      return 0;  // (NumPy hands its loop a step of 0 for one element)
    }
    PyObject* out = new_output_array(n.shape, n.dtype);
    if (!out) return -1;
    const auto* data = static_cast<const char*>(PyArray_DATA(a));
    auto* results = static_cast<char*>(PyArray_DATA(reinterpret_cast<PyArrayObject*>(out)));
    const std::int64_t count = PyArray_DIM(a, 0);
    const int flags = without_gil(count, [&] {
      return backend.stepped_numpy_loop(n.op, n.dtype, results, data, PyArray_STRIDE(a, 0), count);
    });
    if (flags < 0) {
      Py_DECREF(out);
      return 0;
    }
    flags_raised |= flags;
    static Counter& runs = counter("jit.stepped_numpy_loop_runs");
    runs.add();
    trace_.objects[static_cast<std::size_t>(index)] = out;
    release_inputs_of(index, position_[static_cast<std::size_t>(index)]);
    return 1;
  }

  // Whether the strides of `a`'s dimensions of more than one element fall,
  // by size, from the first to the last (slices of a C-contiguous array,
  // with steps, negative ones too): NumPy, ordering a result's axes by its
  // inputs' strides, then keeps C order. Zero strides (broadcast views)
  // are not.
  static bool is_c_ordered(PyArrayObject* a) {
    npy_intp outer = NPY_MAX_INTP;
    for (int d = 0; d < PyArray_NDIM(a); ++d) {
      if (PyArray_DIM(a, d) == 1) continue;
      const npy_intp stride = PyArray_STRIDE(a, d) < 0 ? -PyArray_STRIDE(a, d) : PyArray_STRIDE(a, d);
      if (stride == 0 || stride >= outer) return false;
      outer = stride;
    }
    return true;
  }

  // A group input as the loop reads it; `keep` holds what must stay alive.
  bool loop_input(int node, const jit::Shape& shape, jit::LoopInput& in, Owned& keep) {
    const jit::Node& n = nodes_[node];
    in.dtype = n.dtype;
    in.strides.assign(shape.size(), 0);
    if (n.is_scalar_constant) {  // read where the node holds it, which outlives the run
      in.data = n.dtype == jit::DType::kFloat64 ? reinterpret_cast<const char*>(&n.constant_float)
                                                : reinterpret_cast<const char*>(&n.constant_int);
      return true;
    }
    PyObject* object = trace_.objects[node];
    if (!object) return false;
    // An array is read as it is (what PyArray_FromAny gives for it, without
    // its dtype and shape discovery); NumPy scalars become 0-d arrays.
    PyObject* array = PyArray_Check(object) ? Py_NewRef(object) : PyArray_FromAny(object, nullptr, 0, 0, 0, nullptr);
    if (!array) {
      PyErr_Clear();
      return false;
    }
    keep.push_back(array);
    auto* a = reinterpret_cast<PyArrayObject*>(array);
    if (PyArray_TYPE(a) != typenum_of(n.dtype) || !PyArray_ISNBO(PyArray_DESCR(a)->byteorder)) return false;
    const int rank = PyArray_NDIM(a);
    const int offset = static_cast<int>(shape.size()) - rank;
    if (offset < 0) return false;
    // What the trace expects, or NumPy (eagerly) decides what it means.
    if (!n.shape.empty() && !std::equal(n.shape.begin(), n.shape.end(), PyArray_DIMS(a), PyArray_DIMS(a) + rank)) {
      return false;
    }
    // NumPy lays a result out as its inputs are (Fortran order in, Fortran
    // order out, broadcast views in their own order); kernels write C order,
    // which is NumPy's when every input of two or more dimensions is
    // C-ordered (a C-contiguous array, or a slice of one).
    if (rank >= 2 && PyArray_SIZE(a) > 1 && !is_c_ordered(a)) c_order_inputs_ = false;
    for (int d = 0; d < rank; ++d) {
      if (PyArray_DIM(a, d) != 1) in.strides[offset + d] = PyArray_STRIDE(a, d);
    }
    in.data = static_cast<const char*>(PyArray_DATA(a));
    return true;
  }

  // The loop's dimensions, outermost first, in the order NumPy lays out
  // the group's element-wise results (result_layout.h), followed from the
  // inputs' strides through each member as NumPy computes it; empty when
  // the results differ in layout.
  std::vector<int> results_dims_order(const jit::Group& group, const std::vector<jit::LoopInput>& inputs) const {
    const int rank = static_cast<int>(group.shape.size());
    std::unordered_map<int, jit::Dims> strides;  // per node, over its own dimensions
    for (std::size_t i = 0; i < group.inputs.size(); ++i) {
      const int node = group.inputs[i];
      const jit::Dims& loop = inputs[i].strides;
      const std::size_t own = nodes_[node].shape.size();
      strides[node].assign(loop.end() - static_cast<std::ptrdiff_t>(own), loop.end());
    }
    std::unordered_map<int, std::vector<int>> orders;  // per member
    std::unordered_map<int, jit::Dims> array_strides;  // per member, as NumPy's array has them
    // Per step of a NumPy call spelled out in steps (EagerForm::kPartOfCall:
    // complex work on parts, moments, norms): the strides of the call's
    // operands it is computed from. NumPy lays the call's result out by
    // those alone; its steps are no arrays of NumPy's.
    std::unordered_map<int, std::vector<jit::Dims>> call_operands;
    std::vector<int> order;
    for (int m : group.members) {
      const jit::Node& n = nodes_[m];
      std::vector<jit::Dims> operands;
      auto add_operand = [&operands](const jit::Dims& d) {
        if (std::find(operands.begin(), operands.end(), d) == operands.end()) operands.push_back(d);
      };
      for (int operand : n.inputs) {
        if (operand < 0 || !strides.count(operand)) continue;
        const auto of_call = call_operands.find(operand);
        if (of_call == call_operands.end()) {
          add_operand(strides[operand]);
        } else {
          for (const jit::Dims& d : of_call->second) add_operand(d);
        }
      }
      if (trace_.eager[static_cast<std::size_t>(m)].kind == EagerForm::Kind::kPartOfCall) call_operands[m] = operands;
      std::vector<int> dims;
      if (n.op == jit::Op::astype) {  // a new array like its operand (ndarray.astype's order 'K')
        const int from = n.inputs[0];
        jit::Dims prototype;
        if (array_strides.count(from)) {
          prototype = array_strides[from];
        } else if (PyObject* o = trace_.objects[from]; o && PyArray_Check(o) &&
                                                        PyArray_NDIM(reinterpret_cast<PyArrayObject*>(o)) ==
                                                            static_cast<int>(n.shape.size())) {
          auto* a = reinterpret_cast<PyArrayObject*>(o);
          prototype.assign(PyArray_STRIDES(a), PyArray_STRIDES(a) + PyArray_NDIM(a));
        } else if (!n.shape.empty() && !nodes_[from].shape.empty()) {
          return {};
        }
        dims = prototype.empty() ? result_dims_order(n.shape, {})
                                 : like_prototype_dims_order(n.shape, prototype, jit::itemsize(nodes_[from].dtype));
      } else if (const int temporary = elided_operand(m); temporary >= 0 && orders.count(temporary)) {
        dims = orders[temporary];
      } else {
        dims = result_dims_order(n.shape, operands);
      }
      orders[m] = dims;
      array_strides[m] = strides_in_order(n.shape, dims, jit::itemsize(n.dtype));
      jit::Dims& own = strides[m];
      own = array_strides[m];
      for (std::size_t d = 0; d < own.size(); ++d) {
        if (n.shape[d] == 1) own[d] = 0;
      }
      // A later call on a complex value's parts takes the value's layout.
      if (n.op == jit::Op::complex) {
        for (int a = 0; a < 2; ++a) {
          if (call_operands.count(n.inputs[a])) call_operands[n.inputs[a]] = {own};
        }
      }
      if (std::find(group.outputs.begin(), group.outputs.end(), m) == group.outputs.end()) continue;
      if (static_cast<int>(n.shape.size()) != rank || (!order.empty() && order != dims)) return {};
      order = dims;
    }
    return order;
  }

  // The operand of binary operator node `m` that NumPy computes it into
  // (temporary_elision.h), the result then having that operand's layout,
  // as run_node computes it: a dead temporary of the region of `m`'s shape
  // and dtype, the other operand of that shape too (with a 0-d one the
  // layout is the array operand's either way). -1 when none.
  int elided_operand(int m) const {
    const EagerForm& form = trace_.eager[static_cast<std::size_t>(m)];
    const jit::Node& n = nodes_[m];
    if (form.kind != EagerForm::Kind::kBinaryOperator || jit::op_info(n.op).arity != 2) return -1;
    for (int side = 0; side < 2; ++side) {
      const int operand = n.inputs[side];
      const int other = n.inputs[1 - side];
      if (operand < 0 || other < 0 || !is_dead_temporary(operand, position_[m])) continue;
      const jit::Node& t = nodes_[operand];
      if (t.shape != n.shape || t.dtype != n.dtype || nodes_[other].shape != n.shape) continue;
      if (elides_into(form.operator_code, side == 0, kind_of(t.dtype),
                      jit::element_count(t.shape) * jit::itemsize(t.dtype))) {
        return operand;
      }
    }
    return -1;
  }

  // Whether the group's results depend on the layout of its inputs, which
  // kernels take as C order (c_order_inputs_): a float sum or product of
  // computed values depends on the order NumPy adds them in, its
  // temporary's layout, which follows the inputs'.
  bool layout_matters(const jit::Group& group) const {
    bool matters = group.shape.size() >= 2 && !group.outputs.empty();
    for (int r : group.reductions) {
      const jit::Node& n = nodes_[r];
      const bool ordered = jit::is_float(n.compute) &&
                           (jit::adds(n.op) || n.op == jit::Op::prod) &&
                           std::find(group.inputs.begin(), group.inputs.end(), n.inputs[0]) == group.inputs.end();
      matters = matters || n.shape.size() >= 2 || (ordered && group.shape.size() >= 2);
    }
    return matters;
  }

  // Whether a member computed by one of NumPy's own loops
  // (OpInfo::numpy_loop) reads an input of the group that steps other than
  // one item at a time along the loop's innermost dimension (x[::-1],
  // x[:, ::2]). NumPy hands its loop such an operand as it lies, and its
  // loops compute those with other code than contiguous ones (with AVX-512,
  // float power, arcsin, exp... use SVML's vector code only for contiguous
  // operands, or for positive steps): a kernel, which gathers the operand
  // first, could give other bits. NumPy runs the group then. (A complex
  // function's loop is scalar code, the same on any layout.)
  bool numpy_loop_reads_stepped(const jit::Group& group, const std::vector<jit::LoopInput>& inputs) const {
    for (int m : group.members) {
      const jit::Node& n = nodes_[m];
      if (!jit::op_info(n.op).numpy_loop || !jit::is_float(n.compute) || jit::complex_function_of(n.op)) continue;
      for (int operand : n.inputs) {
        const auto at = std::find(group.inputs.begin(), group.inputs.end(), operand);
        if (operand < 0 || at == group.inputs.end()) continue;
        const jit::LoopInput& in = inputs[static_cast<std::size_t>(at - group.inputs.begin())];
        if (in.strides.size() != group.shape.size()) continue;  // a fold's result, made later
        for (std::size_t d = group.shape.size(); d-- > 0;) {
          if (group.shape[d] == 1) continue;
          if (in.strides[d] != 0 && in.strides[d] != jit::itemsize(in.dtype)) return true;
          break;
        }
      }
    }
    return false;
  }

  // Reduction `r` of the group as the driver takes it, into `result`.
  jit::LoopReduction loop_reduction(const jit::Group& group, int r, PyObject* result) const {
    const jit::Node& n = nodes_[r];
    const bool extreme = jit::keeps_extreme(n.op);
    const jit::DType compute = jit::is_float(n.compute) || extreme ? n.compute
                               : jit::is_logical(n.op) ? jit::DType::kBool
                                                       : jit::DType::kInt64;
    const auto operand = std::find(group.inputs.begin(), group.inputs.end(), n.inputs[0]);
    return {n.op, compute, n.dtype, static_cast<char*>(PyArray_DATA(reinterpret_cast<PyArrayObject*>(result))),
            operand == group.inputs.end() ? -1 : static_cast<int>(operand - group.inputs.begin())};
  }

  static const jit::Fold* fold_of(const jit::Group& group, int node) {
    for (const jit::Fold& fold : group.folds) {
      if (fold.node == node) return &fold;
    }
    return nullptr;
  }

  static const jit::Fold* accumulator_of(const jit::Group& group, int node) {
    for (const jit::Fold& fold : group.folds) {
      if (fold.accumulator == node) return &fold;
    }
    return nullptr;
  }

  // Fold `fold`'s result `result` (C-contiguous, new) as the loop writes it:
  // each element its combine's start, stepping by 0 along the loop
  // dimensions it reduces and by its own strides along the others.
  jit::LoopOutput fold_output(const jit::Group& group, const jit::Fold& fold, PyArrayObject* result) const {
    const jit::Node& n = nodes_[fold.node];
    jit::LoopOutput out;
    out.data = static_cast<char*>(PyArray_DATA(result));
    out.dtype = n.dtype;
    out.fold = jit::op_info(n.op).combine;
    jit::fill_fold_start(out.data, PyArray_SIZE(result), n.dtype, jit::op_info(n.op).combine);
    int d = 0;  // the result's dimension
    for (std::size_t l = 0; l < group.shape.size(); ++l) {
      const bool reduced = fold.axes & (1u << l);
      out.strides.push_back(reduced || group.shape[l] == 1 ? 0 : PyArray_STRIDE(result, d));
      d += !reduced || n.keepdims;
    }
    return out;
  }

  // Fold `fold`'s result once the loop ran: a mean's sum divided by its count.
  void finish_fold(const jit::Fold& fold, PyObject* result) const {
    const jit::Node& n = nodes_[fold.node];
    if (n.op != jit::Op::mean) return;
    const jit::Shape& operand = nodes_[n.inputs[0]].shape;
    std::int64_t count = 1;
    for (std::size_t d = 0; d < operand.size(); ++d) {
      if (fold.axes & (1u << d)) count *= operand[d];
    }
    auto* array = reinterpret_cast<PyArrayObject*>(result);
    jit::divide_in_place(static_cast<char*>(PyArray_DATA(array)), PyArray_SIZE(array), n.dtype, count);
  }

  // Whether a loop member computes from element indices (arange).
  bool from_indices(const jit::Group& group) const {
    return std::any_of(group.members.begin(), group.members.end(), [&](int m) {
      return jit::op_info(nodes_[m].op).kind == jit::OpKind::kIndex;
    });
  }

  // Steps run.first..run.last block by block (jit::BlockRun). 1: ran; 0:
  // not (a step would not run as a kernel, or not in NumPy's order: the
  // steps run one by one); -1: error.
  int run_block_run(jit::Backend& backend, jit::CachedPlan& plan, const jit::BlockRun& run, int& flags_raised,
                    const FpErrorsIgnored& ignored) {
    Owned keep;  // the inputs as arrays
    std::vector<int> assigned;  // nodes given new arrays, in trace_.objects
    // The views' operands: making a view lets go of an operand nothing else
    // reads, which the steps need again should they run one by one after all.
    std::vector<std::pair<int, PyRef>> view_operands;
    auto undo = [&] {
      for (PyObject* o : keep) Py_DECREF(o);
      keep.clear();
      for (int n : assigned) Py_CLEAR(trace_.objects[n]);
      for (auto& [node, array] : view_operands) {
        const bool made_here = std::find(assigned.begin(), assigned.end(), node) != assigned.end();
        if (!made_here && !trace_.objects[node]) trace_.objects[node] = array.release();
      }
    };
    auto tile_of = [&](int node) {
      const auto at = std::find(run.tiles.begin(), run.tiles.end(), node);
      return at == run.tiles.end() ? -1 : static_cast<int>(at - run.tiles.begin());
    };
    auto row_bytes = [&](const jit::Shape& shape, jit::DType dtype) {
      return jit::element_count(shape) / run.rows * jit::itemsize(dtype);
    };
    std::vector<std::int64_t> tile_bytes;
    for (int t : run.tiles) tile_bytes.push_back(row_bytes(nodes_[t].shape, nodes_[t].dtype) * run.block_rows);
    const std::int64_t last_rows = run.rows % run.block_rows;
    std::vector<jit::BlockStepRun> full, last;
    std::int64_t elements = 0;
    for (std::size_t s = run.first; s <= run.last; ++s) {
      if (plan.steps[s].eager) {  // a view (jit::view_may_join), of memory the run has yet to fill
        const int view = plan.steps[s].node;
        const int operand = nodes_[view].inputs[0];
        view_operands.emplace_back(operand, PyRef(Py_XNewRef(trace_.objects[operand])));
        PyObject* operand_array = view_operands.back().second.get();
        assigned.push_back(view);
        if (run_node(view, nullptr, ignored, false) < 0) {
          undo();
          return -1;
        }
        bool filled_by_run = false;
        for (std::size_t t = run.first; t < s; ++t) {
          const std::vector<int>& members = plan.steps[t].group.members;
          filled_by_run = filled_by_run || std::find(members.begin(), members.end(), operand) != members.end();
        }
        if (filled_by_run && !rows_of_operand(view, operand_array)) {
          undo();
          return 0;
        }
        continue;
      }
      const jit::Group& group = plan.steps[s].group;
      elements += jit::element_count(group.shape);
      c_order_inputs_ = true;
      jit::BlockStepRun step;
      for (int node : group.inputs) {
        jit::LoopInput in;
        const int tile = tile_of(node);
        if (tile >= 0) {  // C order over the loop, whose rank it has
          in.dtype = nodes_[node].dtype;
          in.strides.assign(group.shape.size(), 0);
          std::int64_t stride = jit::itemsize(in.dtype);
          for (std::size_t d = group.shape.size(); d-- > 0;) {
            if (nodes_[node].shape[d] != 1) in.strides[d] = stride;
            stride *= nodes_[node].shape[d];
          }
        } else if (!loop_input(node, group.shape, in, keep)) {
          undo();
          return 0;
        }
        step.input_row_bytes.push_back(in.strides[0]);
        step.input_tiles.push_back(tile);
        step.run.inputs.push_back(std::move(in));
      }
      if ((!c_order_inputs_ && layout_matters(group)) || numpy_loop_reads_stepped(group, step.run.inputs)) {
        undo();
        return 0;
      }
      for (int o : group.outputs) {
        const int tile = tile_of(o);
        char* data = nullptr;
        if (tile < 0) {
          PyObject* a = new_output_array(group.shape, nodes_[o].dtype);
          if (!a) {
            undo();
            return -1;
          }
          trace_.objects[o] = a;
          assigned.push_back(o);
          data = static_cast<char*>(PyArray_DATA(reinterpret_cast<PyArrayObject*>(a)));
        }
        step.run.outputs.push_back({data, nodes_[o].dtype, {}, false});
        step.output_row_bytes.push_back(row_bytes(group.shape, nodes_[o].dtype));
        step.output_tiles.push_back(tile);
      }
      for (int r : group.reductions) {
        PyObject* a = new_output_array(nodes_[r].shape, nodes_[r].dtype);
        if (!a) {
          undo();
          return -1;
        }
        trace_.objects[r] = a;
        assigned.push_back(r);
        step.run.reductions.push_back(loop_reduction(group, r, a));
        step.reduction_row_bytes.push_back(row_bytes(nodes_[r].shape, nodes_[r].dtype));
      }
      step.run.reduced_dims = group.reduced_dims;
      step.run.from_indices = from_indices(group);
      step.run.notes_ties = plan.notes_ties;
      for (std::int64_t rows : {run.block_rows, last_rows}) {
        if (rows == 0) continue;
        jit::BlockStepRun variant = step;
        variant.run.shape = group.shape;
        variant.run.shape[0] = rows;
        // Only sums a kernel adds in NumPy's order run block by block.
        if (!backend.lay_out(plan, s, variant.run) || variant.run.summed_inputs) {
          undo();
          return 0;
        }
        (rows == run.block_rows ? full : last).push_back(std::move(variant));
      }
    }
    const int flags =
        without_gil(elements, [&] { return backend.run_block_run(plan, run, full, last, tile_bytes); });
    if (flags < 0) {
      undo();
      return 0;
    }
    for (PyObject* o : keep) Py_DECREF(o);
    if (target_ && run.last + 1 == plan.steps.size()) {
      target_->not_stored = "the region's last step ran block by block with the steps before it";
    }
    flags_raised |= flags;
    static Counter& block_runs = counter("jit.block_runs");
    static Counter& kernel_runs = counter("jit.kernel_runs");
    block_runs.add();
    for (std::size_t s = run.first; s <= run.last; ++s) {
      if (plan.steps[s].eager) continue;
      kernel_runs.add();
      const jit::Group& group = plan.steps[s].group;
      for (int m : group.members) release_inputs_of(m, position_[group.members.back()]);
    }
    return 1;
  }

  // Whether the view NumPy made as node `view` reads row i of its operand
  // `o`, an array a block run is about to fill (C order), as its own row i:
  // it is a view of it, starting where it starts, its first dimension
  // stepping by the operand's rows.
  bool rows_of_operand(int view, PyObject* o) const {
    PyObject* v = trace_.objects[view];
    if (!v || !o || !PyArray_Check(v) || !PyArray_Check(o)) return false;
    auto* va = reinterpret_cast<PyArrayObject*>(v);
    auto* oa = reinterpret_cast<PyArrayObject*>(o);
    if (PyArray_NDIM(va) < 1 || PyArray_NDIM(oa) < 1 || PyArray_DATA(va) != PyArray_DATA(oa) ||
        !PyArray_IS_C_CONTIGUOUS(oa) || PyArray_DIM(va, 0) != PyArray_DIM(oa, 0)) {
      return false;
    }
    return PyArray_DIM(oa, 0) == 1 || PyArray_STRIDE(va, 0) == PyArray_NBYTES(oa) / PyArray_DIM(oa, 0);
  }

  // 1: ran as a kernel; 0: not run (no kernel for it); -1: error.
  int run_group(jit::Backend& backend, jit::CachedPlan& plan, std::size_t step, int& flags_raised) {
    const jit::Group& group = plan.steps[step].group;
    c_order_inputs_ = true;
    Owned keep;
    auto release = [&] {
      for (PyObject* o : keep) Py_DECREF(o);
    };
    std::vector<jit::LoopInput> inputs(group.inputs.size());
    for (std::size_t i = 0; i < group.inputs.size(); ++i) {
      if (accumulator_of(group, group.inputs[i])) continue;  // its fold's result, made below
      if (!loop_input(group.inputs[i], group.shape, inputs[i], keep)) {
        release();
        return 0;
      }
    }
    // NumPy raises for an empty min or max; an empty fold is no work. An
    // array NumPy walks backwards along the dimensions a fold reduces (its
    // negative strides there) it folds in the other order.
    bool folds_in_order = group.folds.empty() || jit::element_count(group.shape) > 0;
    for (const jit::Fold& fold : group.folds) {
      const auto read = std::find(group.inputs.begin(), group.inputs.end(), nodes_[fold.node].inputs[0]);
      for (std::size_t d = 0; read != group.inputs.end() && d < group.shape.size(); ++d) {
        const auto& strides = inputs[static_cast<std::size_t>(read - group.inputs.begin())].strides;
        folds_in_order = folds_in_order && !((fold.axes & (1u << d)) && strides[d] < 0);
      }
    }
    if (!folds_in_order) {
      release();
      return 0;
    }
    // Element-wise results NumPy lays out otherwise than C order (x.T + y)
    // are written in NumPy's order: the loop walks their dimensions so.
    std::vector<int> walk;
    if (!c_order_inputs_ && layout_matters(group)) {
      if (!group.reductions.empty() || !group.folds.empty() || from_indices(group)) {
        release();
        return 0;
      }
      walk = results_dims_order(group, inputs);
      if (walk.empty()) {
        release();
        return 0;
      }
      if (std::is_sorted(walk.begin(), walk.end())) walk.clear();
      static Counter& laid_out = counter("jit.results_laid_out_as_numpy");
      laid_out.add();
    }
    jit::Shape loop_shape = group.shape;
    if (!walk.empty()) {
      for (std::size_t d = 0; d < walk.size(); ++d) loop_shape[d] = group.shape[static_cast<std::size_t>(walk[d])];
      for (jit::LoopInput& in : inputs) {
        const jit::Dims strides = in.strides;
        for (std::size_t d = 0; d < walk.size(); ++d) in.strides[d] = strides[static_cast<std::size_t>(walk[d])];
      }
    }
    if (numpy_loop_reads_stepped(group, inputs)) {
      release();
      return 0;
    }
    Owned made;  // outputs then reductions
    auto new_array = [&](const jit::Shape& shape, jit::DType dtype,
                         const jit::Dims& strides = {}) -> PyObject* {
      PyObject* a = new_output_array(shape, dtype, strides);
      if (a) made.push_back(a);
      return a;
    };
    std::vector<jit::LoopOutput> outputs;
    const bool store = walk.empty() ? into_target(plan, step, keep, earlier_flags_ | flags_raised) : false;
    if (!walk.empty() && target_) target_->not_stored = "NumPy lays the value out in another order than C order";
    for (int o : group.outputs) {
      PyObject* a = nullptr;
      if (const jit::Fold* fold = fold_of(group, o)) {
        a = new_array(nodes_[o].shape, nodes_[o].dtype);
        if (!a) break;
        outputs.push_back(fold_output(group, *fold, reinterpret_cast<PyArrayObject*>(a)));
        const auto at = std::find(group.inputs.begin(), group.inputs.end(), fold->accumulator);
        inputs[static_cast<std::size_t>(at - group.inputs.begin())] = {outputs.back().data, outputs.back().strides,
                                                                        outputs.back().dtype, {}, {}};
        continue;
      }
      if (store && o == target_->node) {
        a = Py_NewRef(target_->part);
        made.push_back(a);
      } else if (!walk.empty()) {
        const jit::DType dtype = nodes_[o].dtype;
        a = new_array(group.shape, dtype, strides_in_order(group.shape, walk, jit::itemsize(dtype)));
      } else {
        a = new_array(group.shape, nodes_[o].dtype);
      }
      if (!a) break;
      outputs.push_back({static_cast<char*>(PyArray_DATA(reinterpret_cast<PyArrayObject*>(a))), nodes_[o].dtype, {},
                         store && o == target_->node && target_->read_nearby});
      if (!group.folds.empty()) {  // in the loop's order (order_loop sets them otherwise)
        auto* array = reinterpret_cast<PyArrayObject*>(a);
        outputs.back().strides.assign(PyArray_STRIDES(array), PyArray_STRIDES(array) + PyArray_NDIM(array));
      }
    }
    std::vector<jit::LoopReduction> reductions;
    for (int r : group.reductions) {
      if (made.size() != outputs.size() + reductions.size()) break;
      PyObject* a = new_array(nodes_[r].shape, nodes_[r].dtype);
      if (!a) break;
      reductions.push_back(loop_reduction(group, r, a));
    }
    if (made.size() != group.outputs.size() + group.reductions.size()) {
      for (PyObject* o : made) Py_DECREF(o);
      release();
      return -1;
    }
    jit::StepRun run;
    run.shape = std::move(loop_shape);
    run.reduced_dims = group.reduced_dims;
    run.inputs = std::move(inputs);
    run.outputs = std::move(outputs);
    run.reductions = std::move(reductions);
    run.from_indices = from_indices(group);
    run.notes_ties = plan.notes_ties;
    // any and all may stop early where NumPy would warn of nothing left undone.
    run.stops_when_known = run.outputs.empty() && group.quiet;
    const std::int64_t elements = jit::element_count(run.shape);
    if (!backend.lay_out(plan, step, run)) {  // NumPy's order of adding is not the backend's: NumPy's
      for (PyObject* o : made) Py_DECREF(o);
      release();
      return 0;
    }
    if (group.folds.empty() && !run.summed_inputs && !to_temporary_unless_rows(run.shape, run.outputs, made)) {
      release();
      return -1;
    }
    jit::NearbySamples samples;
    samples.flags = touches_floats(group) ? reported_flags() : 0;
    const bool nearby = store && target_->read_nearby;
    if (nearby) run.samples = &samples;
    int flags = without_gil(elements, [&] { return backend.run_step(plan, step, run); });
    if (flags >= 0 && nearby && (flags & reported_flags()) && !keep_samples(group, samples)) {
      for (PyObject* o : made) Py_DECREF(o);
      release();
      return -1;
    }
    if (flags < 0) {  // not compiled, or too many operands for the driver
      for (PyObject* o : made) Py_DECREF(o);
      release();
      return 0;
    }
    release();
    flags_raised |= flags;
    for (const jit::Fold& fold : group.folds) {
      const auto at = std::find(group.outputs.begin(), group.outputs.end(), fold.node);
      finish_fold(fold, made[static_cast<std::size_t>(at - group.outputs.begin())]);
    }
    std::size_t k = 0;
    auto assign = [&](int node) {
      PyObject* value = made[k++];
      if (trace_.eager[node].gives_scalar) {
        value = PyArray_Return(reinterpret_cast<PyArrayObject*>(value));  // a NumPy scalar, as eager NumPy gives
      }
      trace_.objects[node] = value;
    };
    for (int o : group.outputs) assign(o);
    for (int r : group.reductions) assign(r);
    static Counter& kernel_runs = counter("jit.kernel_runs");
    static Counter& input_sum_runs = counter("jit.input_sum_runs");
    static Counter& folds = counter("jit.folds");
    (run.summed_inputs ? input_sum_runs : kernel_runs).add();
    folds.add(group.folds.size());
    // A step that wrote the target keeps what it read, which its rerun for
    // floating-point reports reads again (into_target).
    for (int m : group.members) {
      if (!store) release_inputs_of(m, position_[group.members.back()]);
    }
    return 1;
  }

  Trace& trace_;
  const std::vector<jit::Node>& nodes_;
  StoreTarget* target_;  // may be null
  std::vector<std::size_t> position_;
  std::vector<std::size_t> last_use_;
  FpMode modes_[4];     // what the program's error state does with each category
  bool reported_[4];    // the category is not ignored
  bool c_order_inputs_ = true;
  int earlier_flags_ = 0;  // what the steps before the one running raised
  bool raised_reported_ = false;
  bool raised_across_lines_ = false;
  std::vector<std::pair<int, PyRef>> nearby_samples_;  // keep_samples: input node, its old values
};

int run_steps(Trace& trace, const std::vector<bool>& needed, const std::vector<bool>& results,
              StoreTarget* target, std::string* schedule) {
  jit::Backend* backend = jit::cpu_backend();
  const std::shared_ptr<jit::CachedPlan> fused = jit::plan_for(backend, trace.region, needed, results);
  // A region whose loops over several lines raised floating-point flags
  // NumPy reports runs a loop per line for a while, so that a flag
  // recomputes its line's work only (CachedPlan::runs_by_line).
  const bool by_line = backend && fused->runs_by_line > 0;
  const std::shared_ptr<jit::CachedPlan> plan =
      by_line ? jit::plan_for(backend, trace.region, needed, results, true) : fused;
  if (schedule) *schedule = jit::summarize_schedule(plan->steps, plan->block_runs);
  Runner runner(trace, target);
  const int status = runner.run(*plan, backend);
  constexpr int kRunsByLine = 16;
  if (runner.raised_across_lines() || (by_line && runner.raised_reported())) {
    static Counter& split = counter("jit.plans_run_by_line");
    if (fused->runs_by_line == 0) split.add();
    fused->runs_by_line = kRunsByLine;
  } else if (by_line) {
    --fused->runs_by_line;
  }
  return status;
}

// The array x of a node that is `x[mask]` of it (a compress, or for
// complex x the complex value of its parts' compresses), or nullptr.
PyObject* gathered_array(const Trace& trace, std::size_t node) {
  const EagerForm& form = trace.eager[node];
  if (form.compressed_by < 0 || form.kind != EagerForm::Kind::kSubscript) return nullptr;
  if (form.constants[0]) return form.constants[0];
  const auto source = static_cast<std::size_t>(form.arg_nodes[0]);
  return trace.region.nodes[source].op == jit::Op::input ? trace.objects[source] : nullptr;
}

// The compressed values the program holds (EagerForm::compressed_by), as
// NumPy's `x[mask]` gives them: a kernel computed them over the mask's
// shape, NumPy (which computed the region when the runner had it do so)
// already compressed, and x[mask] of an array x, which NumPy gathers here.
// A 1-D mask that is true everywhere leaves both the same, so the shape
// tells them apart.
int compress_results(Trace& trace) {
  static Counter& compressed = counter("jit.values_compressed_after_kernels");
  static Counter& gathers = counter("jit.masked_gathers_by_numpy");
  for (std::size_t i = 0; i < trace.objects.size(); ++i) {
    const int mask_node = trace.eager[i].compressed_by;
    if (trace.handles[i] == 0 || mask_node < 0) continue;
    PyObject* mask = trace.objects[static_cast<std::size_t>(mask_node)];
    PyObject* array = trace.objects[i] ? nullptr : gathered_array(trace, i);
    if (array) {
      trace.objects[i] = PyObject_GetItem(array, mask);
      if (!trace.objects[i]) return -1;
      gathers.add();
      continue;
    }
    if (!trace.objects[i]) continue;
    auto* full = reinterpret_cast<PyArrayObject*>(trace.objects[i]);
    if (!PyArray_SAMESHAPE(full, reinterpret_cast<PyArrayObject*>(mask))) continue;
    PyObject* value = PyObject_GetItem(trace.objects[i], mask);
    if (!value) return -1;
    Py_SETREF(trace.objects[i], value);
    compressed.add();
  }
  return 0;
}

}  // namespace

namespace {
thread_local bool t_running = false;
}  // namespace

bool running_trace() { return t_running; }

int run_trace(Trace& trace, Reason reason, const Location& where, const char* detail, StoreTarget* target) {
  static Counter& regions = counter("jit.regions");
  static Counter& region_ops = counter("jit.region_ops");
  const bool logging = jit::log_enabled(jit::LogChannel::kRegions);
  const bool explaining = jit::explain_enabled();
  // Timed only for the diagnostics and --explain, which report it.
  const bool timed = g_diagnostics || explaining;
  const auto start = timed ? std::chrono::steady_clock::now() : std::chrono::steady_clock::time_point{};
  trace.done = true;  // whatever happens, the trace records no more
  std::vector<bool> results(trace.region.nodes.size());
  for (std::size_t i = 0; i < results.size(); ++i) results[i] = trace.handles[i] > 0;
  // Kernels compute a compressed value the program holds over its mask's
  // shape (trace.h's EagerForm::compressed_by); its mask, a result too,
  // compresses it afterwards (compress_results). One that is x[mask] of an
  // array x is NumPy's gather alone, not a kernel's copy of x first.
  bool compressed_results = false;
  for (std::size_t i = 0; i < results.size(); ++i) {
    if (!results[i] || trace.eager[i].compressed_by < 0) continue;
    const auto mask = static_cast<std::size_t>(trace.eager[i].compressed_by);
    if (trace.region.nodes[mask].op != jit::Op::input) results[mask] = true;
    if (gathered_array(trace, i)) results[i] = false;
    compressed_results = true;
  }
  const std::vector<bool> needed = needed_nodes(trace, results);
  const int site = site_of(where);
  // Why the region ran, as the log and --explain say it (only they read it).
  std::string why;
  if (logging || explaining) why = std::string(reason_text(reason)) + (detail ? std::string(" (") + detail + ")" : "");
  if (logging) {
    jit::log_text(jit::LogChannel::kRegions, "region of " + std::to_string(trace.region.nodes.size()) +
                                                 " nodes, materialized at " + jit::site_text(site) +
                                                 ": " + why + "\n" +
                                                 jit::dump_region(trace.region, results));
  }
  int ops = 0;
  for (std::size_t i = 0; i < needed.size(); ++i) {
    ops += needed[i] && trace.region.nodes[i].op != jit::Op::input;
  }
  t_running = true;
  if (target) target->not_stored = "its value is not an output of a kernel in the region's last step";
  std::string schedule;
  int status = run_steps(trace, needed, results, target, explaining ? &schedule : nullptr);
  t_running = false;
  if (target) {
    target->stored = status == 0 && trace.objects[target->node] == target->part;
    static Counter& stores = counter("jit.stores_into_target");
    if (target->stored) stores.add();
  }
  if (target && (logging || explaining)) {
    const std::string outcome =
        !target->stored        ? std::string("assigned through a temporary: ") + target->not_stored
        : target->read_nearby ? "computed into the assignment's target, which it reads: each piece written once "
                                "the pieces that read it are computed"
                              : "computed straight into the assignment's target";
    why += "; " + outcome;
    if (logging) {
      jit::log_text(jit::LogChannel::kRegions, "  %" + std::to_string(target->node) + " " + outcome + "\n");
    }
  }
  if (status == 0 && compressed_results) status = compress_results(trace);
  if (status < 0) {
    PyErr_Fetch(&trace.error[0], &trace.error[1], &trace.error[2]);
    PyErr_Restore(Py_XNewRef(trace.error[0]), Py_XNewRef(trace.error[1]), Py_XNewRef(trace.error[2]));
  }
  // Values no lazy value names are temporaries of the region.
  for (std::size_t i = 0; i < needed.size(); ++i) {
    if (trace.handles[i] == 0) Py_CLEAR(trace.objects[i]);
  }
  regions.add();
  region_ops.add(static_cast<std::uint64_t>(ops));
  reason_counter(reason).add();
  const double seconds =
      timed ? std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() : 0.0;
  if (g_diagnostics) note_region_time(seconds);
  if (explaining) {
    jit::record_boundary("materialized", why, site, seconds, schedule, materialization_hint(reason, detail),
                         /*hint_if_repeated=*/true);
  }
  return status;
}

}  // namespace npy::numpy_shim

namespace npy::numpy_shim {

PyObject* materialize(PyObject* lazy, Reason reason, const Location& where, const char* detail) {
  Trace* trace = trace_of(lazy);
  if (!trace->done && run_trace(*trace, reason, where, detail) < 0) return nullptr;
  PyObject* value = trace->objects[node_of(lazy)];
  if (!value) {
    if (trace->error[0]) {
      PyErr_Restore(Py_NewRef(trace->error[0]), Py_XNewRef(trace->error[1]), Py_XNewRef(trace->error[2]));
    } else {
      PyErr_SetString(PyExc_RuntimeError, "npython: value of a region that failed to run");
    }
    return nullptr;
  }
  return Py_NewRef(value);
}

int flush(Reason reason, const Location& where, const char* detail) {
  Trace* trace = pending_trace();
  return trace ? run_trace(*trace, reason, where, detail) : 0;
}

void note_fallback() {
  static Counter& fallbacks = counter("jit.fallbacks");
  fallbacks.add();
}

}  // namespace npy::numpy_shim
