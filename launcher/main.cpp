// npython's entry point: python3's start-up (same command line, same
// PyConfig steps as Py_BytesMain), with npython's evaluator hook installed
// and its runtime module available.
#include <Python.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "common/stats.h"
#include "interp/eval_hook.h"
#include "launcher/command_line.h"
#include "launcher/controls.h"
#include "launcher/runtime_module.h"
#include "version.h"

namespace {

// Owns a PyConfig for the duration of start-up.
class Config {
 public:
  Config() { PyConfig_InitPythonConfig(&config_); }
  ~Config() { PyConfig_Clear(&config_); }
  Config(const Config&) = delete;
  Config& operator=(const Config&) = delete;
  PyConfig* get() { return &config_; }

 private:
  PyConfig config_;
};

void print_version(int level) {
  const std::string python = Py_GetVersion();  // "3.11.7 (main, ...) [GCC ...]"
  const std::string shown = level > 1 ? python : python.substr(0, python.find(' '));
  std::printf("npython %s (Python %s)\n", NPYTHON_VERSION, shown.c_str());
}

[[noreturn]] void exit_on(PyStatus status, const npy::CommandLineScan& scan) {
  // CPython has printed its --help and wants to exit 0: add npython's part.
  if (PyStatus_IsExit(status) && status.exitcode == 0 && scan.help) {
    std::fputs(npy::controls_help().c_str(), stdout);
  }
  Py_ExitStatusException(status);
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv, argv + argc);
  const npy::CommandLineScan scan = npy::scan_command_line(args);
  if (scan.version && !scan.help && !scan.unknown_option) {
    print_version(scan.version);
    return 0;
  }

  std::string control_error;
  const std::optional<npy::Controls> controls = npy::read_controls(control_error);
  if (!controls) {
    std::fprintf(stderr, "npython: %s\n", control_error.c_str());
    return 2;
  }

  npy::register_runtime_module();
  Config config;
  PyStatus status = PyConfig_SetBytesArgv(config.get(), argc, argv);
  if (PyStatus_Exception(status)) exit_on(status, scan);
  // CPython finds its standard library relative to the executable, which
  // for npython is not where that library is: point it at the CPython npython
  // was built against, unless the user's PYTHONHOME is in force.
  const char* user_home = std::getenv("PYTHONHOME");
  if (!user_home || !*user_home || scan.ignore_environment) {
    status = PyConfig_SetBytesString(config.get(), &config.get()->home, NPYTHON_PYTHON_HOME);
    if (PyStatus_Exception(status)) exit_on(status, scan);
  }
  status = Py_InitializeFromConfig(config.get());
  if (PyStatus_Exception(status)) exit_on(status, scan);

  if (controls->jit) npy::interp::install_eval_hook();
  const int exit_code = Py_RunMain();
  if (controls->stats) std::fputs(npy::format_counters().c_str(), stderr);
  return exit_code;
}
