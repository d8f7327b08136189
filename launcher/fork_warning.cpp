#include "launcher/fork_warning.h"

#include <Python.h>
#include <dirent.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>

#include "jit/host.h"
#include "numpy_shim/py_ref.h"

namespace npy {
namespace {

using numpy_shim::PyRef;

pid_t g_launcher_pid = 0;

// The threads python3 would count in this process: all but the launcher's
// own and the kernel threads.
PyObject* program_threads(PyObject*, PyObject*) {
  DIR* tasks = opendir("/proc/self/task");
  if (!tasks) return PyLong_FromLong(-1);
  const pid_t pid = getpid();
  long count = 0;
  while (const dirent* entry = readdir(tasks)) {
    if (entry->d_name[0] == '.') continue;
    if (pid == g_launcher_pid && std::atol(entry->d_name) == pid) continue;
    std::ifstream comm(std::string("/proc/self/task/") + entry->d_name + "/comm");
    std::string name;
    std::getline(comm, name);
    if (name != jit::kKernelThreadName) ++count;
  }
  closedir(tasks);
  return PyLong_FromLong(count);
}

PyMethodDef g_program_threads = {"program_threads", program_threads, METH_NOARGS, nullptr};

// The filter's message matcher (the warnings module calls its `match` with
// the warning's text).
constexpr const char* kFilterSource = R"(
import warnings

class NpythonThreadsAtFork:
    """Matches os.fork()'s warning of a multi-threaded process where the
    process's threads, npython's own left out, are one (python3 would not
    warn): npython's threads hold no lock the child could need."""

    def match(self, text):
        return (text.startswith("This process (pid=") and
                " is multi-threaded, use of fork" in text and program_threads() <= 1)

    def __repr__(self):
        return "<npython: os.fork() warnings of npython's own threads>"

warnings.filters.insert(0, ("ignore", NpythonThreadsAtFork(), DeprecationWarning, None, 0))
warnings._filters_mutated()
)";

}  // namespace

void quiet_fork_warning_of_npython_threads(pid_t launcher_pid) {
  if (PY_VERSION_HEX < 0x030C0000) return;  // no such warning before 3.12
  g_launcher_pid = launcher_pid;
  PyRef globals(PyDict_New());
  PyRef counter(PyCFunction_New(&g_program_threads, nullptr));
  PyRef result;
  if (globals && counter && PyDict_SetItemString(globals.get(), "__builtins__", PyEval_GetBuiltins()) == 0 &&
      PyDict_SetItemString(globals.get(), "program_threads", counter.get()) == 0) {
    result = PyRef(PyRun_String(kFilterSource, Py_file_input, globals.get(), globals.get()));
  }
  if (!result) PyErr_WriteUnraisable(nullptr);
}

}  // namespace npy
