// NumPy's floating-point error state (np.errstate / np.seterr), read
// without going through Python for every operation.
#pragma once

#include <Python.h>

namespace npy::numpy_shim {

// NumPy's categories, in the order it reports them.
enum class FpCategory { kDivide, kOverflow, kUnderflow, kInvalid };

// What the state in force does with a category's errors: NumPy's modes
// 'ignore', 'warn' and 'raise'; kOther for 'call', 'print' and 'log'.
enum class FpMode { kIgnore, kWarn, kRaise, kOther };

// How far regions may defer what the state in force reports:
// kToUse: until a value is used. Every category is 'ignore' or 'warn', and
//   warnings reach the program as eager NumPy's would though a region
//   reports them when it runs: no filter turns RuntimeWarnings into
//   exceptions, and the warnings module's own display shows them. A warning
//   shown while a region is pending computes the region first, so that the
//   region's own warnings come before it (the module's _showwarnmsg is
//   wrapped for that).
// kToLineEnd: until the program leaves the line that recorded the ops
//   (interp's evaluator computes them there). Some category is 'raise', a
//   filter turns RuntimeWarnings into exceptions, or the program sees each
//   warning as it comes (catch_warnings(record=True), pytest's warnings
//   capture, logging.captureWarnings): eager NumPy raises or shows them at
//   the operation's own line, before the program's next statement.
// kNone: NumPy computes each operation at once: a category 'call's, 'print's
//   or 'log's, NumPy's buffer size is not its default (some sums follow its
//   order), or the state cannot be read.
enum class Deferral { kNone, kToLineEnd, kToUse };
Deferral regions_defer();

// Whether a floating-point error may raise an exception: a category
// 'raise's, or a filter turns RuntimeWarnings into exceptions.
bool fp_reports_raise();

// What the state in force does with the category's errors.
FpMode errstate_mode(FpCategory category);

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
