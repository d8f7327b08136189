// NumPy's floating-point error state (np.errstate / np.seterr), read
// without going through Python for every operation.
#pragma once

#include <Python.h>

namespace npy::numpy_shim {

// NumPy's categories, in the order it reports them.
enum class FpCategory { kDivide, kOverflow, kUnderflow, kInvalid };

// Whether the state in force lets a region defer its checks: every category
// 'ignore' or 'warn' (the others raise or call at the operation itself),
// NumPy's default buffer size, whose order some sums follow, and warnings
// that reach the program as eager NumPy's would though a region reports
// them when it runs: no filter turns RuntimeWarnings into exceptions (eager
// NumPy raises them at the operation's own line), and the warnings module's
// own display (under catch_warnings(record=True), logging.captureWarnings
// and the like the program sees each warning as it comes, before whatever
// it did meanwhile, such as reading the record). A warning shown while a
// region is pending computes the region first, so that the region's own
// warnings come before it (the module's _showwarnmsg is wrapped for that).
bool errstate_is_traceable();

// Whether the state in force warns for the category.
bool errstate_warns(FpCategory category);

// While alive, NumPy reports nothing but notes (in `noted()`) whether any
// floating-point error happened in a category the program's state reports:
// for NumPy functions written in Python, whose ufunc calls clear the flags
// between them.
class FpErrorsNoted {
 public:
  // `reported[c]`: the program's state reports category c.
  explicit FpErrorsNoted(const bool reported[4]);
  ~FpErrorsNoted();
  FpErrorsNoted(const FpErrorsNoted&) = delete;
  FpErrorsNoted& operator=(const FpErrorsNoted&) = delete;
  bool noted() const;

 private:
  PyObject* token_ = nullptr;
};

// While alive, NumPy ignores floating-point errors; the region runner checks
// the flags itself and reports them at the line that recorded the op.
class FpErrorsIgnored {
 public:
  FpErrorsIgnored();
  ~FpErrorsIgnored();
  FpErrorsIgnored(const FpErrorsIgnored&) = delete;
  FpErrorsIgnored& operator=(const FpErrorsIgnored&) = delete;
  bool ok() const { return token_ != nullptr; }

  // While alive, the state the program had is back in force (for NumPy
  // functions written in Python, which report their own errors).
  class ProgramState {
   public:
    explicit ProgramState(const FpErrorsIgnored& ignored);
    ~ProgramState();
    ProgramState(const ProgramState&) = delete;
    ProgramState& operator=(const ProgramState&) = delete;

   private:
    PyObject* token_ = nullptr;
  };

 private:
  PyObject* token_ = nullptr;
  PyObject* program_state_ = nullptr;  // owned
};

}  // namespace npy::numpy_shim
