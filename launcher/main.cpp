// npython's entry point: python3's start-up (same command line, same
// PyConfig steps as Py_BytesMain), with npython's evaluator hook installed
// and its runtime module available.
#include <Python.h>

#include <pthread.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cwchar>
#include <fstream>
#include <future>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include "common/stats.h"
#include "interp/eval_hook.h"
#include "interp/policy.h"
#include "jit/disk_cache.h"
#include "jit/host.h"
#include "jit/numpy_loops.h"
#include "jit/trace_log.h"
#include "jit/warm_up.h"
#include "launcher/command_line.h"
#include "launcher/controls.h"
#include "launcher/fork_warning.h"
#include "launcher/python_installation.h"
#include "launcher/runtime_module.h"
#include "numpy_shim/default_float.h"
#include "numpy_shim/diagnostics.h"
#include "bench_driver.h"
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


void write_counters(const std::string& path) {
  std::FILE* out = std::fopen(path.c_str(), "w");
  if (!out) {
    std::fprintf(stderr, "npython: cannot write NPY_JIT_STATS file %s: %s\n", path.c_str(),
                 std::strerror(errno));
    return;
  }
  std::fputs(npy::format_counters_json().c_str(), out);
  std::fclose(out);
}

// npython's evaluator calls Python functions through the C stack, where
// CPython's own evaluator inlines them: the interpreter runs on a thread with
// a stack large enough for deep recursion before it needs stack segments
// (interp/eval_hook.cpp). Threads the program starts get a larger default
// stack for the same reason.
constexpr std::size_t kInterpreterStackBytes = std::size_t{1} << 30;
constexpr std::size_t kThreadStackBytes = std::size_t{256} << 20;

struct Launch {
  int argc;
  char** argv;
  npy::CommandLineScan scan;
  npy::Controls controls;
  sigset_t signal_mask;  // the process's, restored on the interpreter thread
  pid_t launcher_pid;     // the process that started the interpreter thread
  int exit_code;
  // Set once the main thread's JIT warm-up is over; the program's code runs
  // after it (a fork then finds no lock of the warm-up held).
  std::promise<void> warmed_up;
};

// The bytes of a path CPython decoded from the command line, as UTF-8 with
// undecodable bytes kept as lone surrogates (CPython's encoding under a UTF-8
// locale). Done here rather than by Py_EncodeLocale, whose memory comes from
// CPython's allocator: from 3.12 on, that needs an interpreter, and there is
// none yet. Under another locale a non-ASCII path comes out otherwise, and
// the program is then taken not to name NumPy (its frames are still
// npython's once it imports NumPy).
std::string file_system_path(const wchar_t* text) {
  std::string out;
  for (; *text; ++text) {
    const auto c = static_cast<std::uint32_t>(*text);
    if (c >= 0xDC80 && c <= 0xDCFF) {
      out += static_cast<char>(c - 0xDC00);
    } else if (c < 0x80) {
      out += static_cast<char>(c);
    } else if (c < 0x800) {
      out += static_cast<char>(0xC0 | (c >> 6));
      out += static_cast<char>(0x80 | (c & 0x3F));
    } else if (c < 0x10000) {
      out += static_cast<char>(0xE0 | (c >> 12));
      out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (c & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (c >> 18));
      out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (c & 0x3F));
    }
  }
  return out;
}

// Whether the main program names NumPy: the text of its -c code or of its
// script says "numpy". Its top level is then npython's from its first line
// (it is running when it imports NumPy, too late for the hook to take it).
// Only a regular file is read: a pipe or FIFO (`npython <(...)`,
// /dev/stdin) would give CPython nothing left to run, and a directory runs
// its __main__.py, which the hook takes when it imports NumPy.
bool main_names_numpy(const PyConfig& config) {
  if (config.run_command) return std::wcsstr(config.run_command, L"numpy") != nullptr;
  if (!config.run_filename) return false;
  const std::string path = file_system_path(config.run_filename);
  struct stat info;
  if (stat(path.c_str(), &info) != 0 || !S_ISREG(info.st_mode)) return false;
  std::ifstream file(path, std::ios::binary);
  const std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  return text.find("numpy") != std::string::npos;
}

// What --explain and NPY_JIT_STATS ask to be told of the run.
const Launch* g_reported = nullptr;

void report() {
  const Launch& launch = *g_reported;
  if (launch.controls.jit && launch.scan.explain_index) {
    std::fputs(npy::jit::format_explain().c_str(), stderr);
  }
  if (launch.controls.stats) {
    if (launch.controls.jit) std::fputs(npy::numpy_shim::format_summary().c_str(), stderr);
    std::fputs(npy::format_counters().c_str(), stderr);
  }
  if (!launch.controls.stats_file.empty()) write_counters(launch.controls.stats_file);
}

// The command line and where the standard library is, in `config`.
void set_up(Config& config, const Launch& launch) {
  PyStatus status = PyConfig_SetBytesArgv(config.get(), launch.argc, launch.argv);
  if (PyStatus_Exception(status)) exit_on(status, launch.scan);
  status = npy::set_python_installation(config.get());
  if (PyStatus_Exception(status)) exit_on(status, launch.scan);
}

void run_interpreter(Launch& launch) {
  npy::register_runtime_module(launch.controls);
  // Which program runs, from a configuration read for that alone: a
  // configuration read twice (here and by Py_InitializeFromConfig) loses
  // -X warn_default_encoding, which CPython takes only from a first reading
  // of the command line.
  bool main_uses_numpy = false;
  {
    Config program;
    set_up(program, launch);
    const PyStatus status = PyConfig_Read(program.get());
    if (PyStatus_Exception(status)) exit_on(status, launch.scan);
    main_uses_numpy = launch.controls.jit && main_names_numpy(*program.get());
  }
  Config config;
  set_up(config, launch);
  PyStatus status = Py_InitializeFromConfig(config.get());
  if (PyStatus_Exception(status)) exit_on(status, launch.scan);

  npy::quiet_fork_warning_of_npython_threads(launch.launcher_pid);
  if (launch.controls.jit) {
    npy::numpy_shim::set_default_float32(launch.controls.default_float32);
    npy::interp::install_evaluator(launch.controls.interp_all_frames ? npy::interp::Scope::kAll
                                                                     : npy::interp::Scope::kUserCode,
                                   main_uses_numpy);
  }
  if (launch.controls.jit) launch.warmed_up.get_future().wait();
  // At the end of finalization, which a program's sys.exit() or an uncaught
  // KeyboardInterrupt reaches without Py_RunMain returning.
  g_reported = &launch;
  Py_AtExit(report);
  launch.exit_code = Py_RunMain();
}

void* interpreter_thread(void* arg) {
  Launch& launch = *static_cast<Launch*>(arg);
  pthread_sigmask(SIG_SETMASK, &launch.signal_mask, nullptr);
  run_interpreter(launch);
  // In a process the program forked (os.fork) this thread is the only one,
  // and returning would end the process with status 0: it exits with the
  // program's status, as main does in the launcher's own process (the
  // child has no disk cache writer to close).
  if (getpid() != launch.launcher_pid) std::exit(launch.exit_code);
  npy::jit::close_disk_cache();
  return nullptr;
}

// How OpenMP's idle kernel threads wait. Waking a sleeping thread for every
// kernel costs a pairwise product sum a third of its time on two cores, and
// spinning for libgomp's default 3 ms after each kernel holds a core the
// program may need. They spin 10,000 turns (about 1 ms here), long enough to
// catch a loop's next kernel, then sleep. libgomp reads the count once, as it
// loads, from the environment: npython starts itself again with
// GOMP_SPINCOUNT set unless the user chose a wait policy or a count, and
// takes the variable out again, so that the program and its children see
// the environment they were given.
void choose_openmp_spin_count(char** argv) {
  constexpr const char* kMarker = "NPYTHON_SET_GOMP_SPINCOUNT";
  if (std::getenv(kMarker)) {
    unsetenv(kMarker);
    unsetenv("GOMP_SPINCOUNT");
    return;
  }
  const char* jit = std::getenv("NPY_JIT");
  if (std::getenv("OMP_WAIT_POLICY") || std::getenv("GOMP_SPINCOUNT") ||
      (jit && (std::strcmp(jit, "off") == 0 || std::strcmp(jit, "0") == 0))) {
    return;
  }
  setenv("GOMP_SPINCOUNT", "10000", 1);
  setenv(kMarker, "1", 1);
  execv("/proc/self/exe", argv);
  unsetenv(kMarker);  // could not start again: go on with libgomp's default
  unsetenv("GOMP_SPINCOUNT");
}

}  // namespace

int main(int argc, char** argv) {
  choose_openmp_spin_count(argv);
  const std::vector<std::string> args(argv, argv + argc);
  Launch launch{argc, argv, npy::scan_command_line(args), {}, {}, getpid(), 0, {}};
  if (launch.scan.version && !launch.scan.help && !launch.scan.unknown_option) {
    print_version(launch.scan.version);
    return 0;
  }

  std::string control_error;
  const std::optional<npy::Controls> controls = npy::read_controls(control_error);
  if (!controls) {
    std::fprintf(stderr, "npython: %s\n", control_error.c_str());
    return 2;
  }
  launch.controls = *controls;
  // A venv of another CPython (CPython reads pyvenv.cfg unless PYTHONHOME is
  // in force).
  const char* python_home = std::getenv("PYTHONHOME");
  const bool home_in_force = python_home && *python_home && !launch.scan.ignore_environment;
  const auto mismatch = home_in_force ? std::nullopt : npy::foreign_venv(npy::executable_path(argv[0]));
  if (mismatch) {
    std::fprintf(stderr, "npython: %s\n", mismatch->c_str());
    return 2;
  }
  // --bench: this process runs the benchmark driver (plain CPython, its
  // source given as -c code, -P keeping the working directory off its
  // sys.path); the driver starts the program in fresh npython processes.
  std::vector<char*> bench_argv;
  if (launch.scan.bench_index) {
    bench_argv.push_back(argv[0]);
    bench_argv.push_back(const_cast<char*>("-P"));
    bench_argv.push_back(const_cast<char*>("-c"));
    bench_argv.push_back(const_cast<char*>(kBenchDriverSource));
    for (int i = static_cast<int>(launch.scan.bench_index) + 1; i < argc; ++i) {
      bench_argv.push_back(argv[i]);
    }
    bench_argv.push_back(nullptr);
    launch.argc = static_cast<int>(bench_argv.size()) - 1;
    launch.argv = bench_argv.data();
    launch.controls.jit = false;
  }

  // --explain: CPython sees the command line without it.
  std::vector<char*> explain_argv;
  if (launch.scan.explain_index && !launch.scan.bench_index) {
    for (int i = 0; i < argc; ++i) {
      if (static_cast<std::size_t>(i) != launch.scan.explain_index) explain_argv.push_back(argv[i]);
    }
    explain_argv.push_back(nullptr);
    launch.argc = argc - 1;
    launch.argv = explain_argv.data();
  }

  if (launch.controls.jit && launch.controls.threads > npy::jit::kMaxThreads) {
    std::fprintf(stderr, "npython: NPY_THREADS=%d is over the limit of %d threads: kernels run on %d\n",
                 launch.controls.threads, npy::jit::kMaxThreads, npy::jit::kMaxThreads);
  }
  if (!launch.controls.jit) {  // plain CPython: nothing of npython's, not even the thread
    run_interpreter(launch);
    return launch.exit_code;
  }

  // Signals go to the interpreter thread: this one blocks them all while it
  // waits, so that a signal interrupts the interpreter's system calls as it
  // would in python3.
  sigset_t all;
  sigfillset(&all);
  pthread_sigmask(SIG_BLOCK, &all, &launch.signal_mask);
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, kThreadStackBytes);
  pthread_setattr_default_np(&attr);
  pthread_attr_setstacksize(&attr, kInterpreterStackBytes);
  // Set before either thread compiles anything.
  npy::jit::set_log_channels(launch.controls.log_channels);
  npy::jit::set_explain(launch.scan.explain_index != 0);
  npy::jit::set_fast_math(launch.controls.fast_math);
  // What leads to a fix, asked for: eager NumPy calls named, timed and
  // recorded, and where the run's time goes. A normal run does none of it.
  if (launch.scan.explain_index || launch.controls.stats ||
      npy::jit::log_enabled(npy::jit::LogChannel::kFallback)) {
    npy::numpy_shim::set_diagnostics(true);
    npy::start_time_shares();
  }
  pthread_t interpreter;
  const int err = pthread_create(&interpreter, &attr, interpreter_thread, &launch);
  pthread_attr_destroy(&attr);
  if (err != 0) {
    std::fprintf(stderr, "npython: cannot start the interpreter thread: %s\n", std::strerror(err));
    return 1;
  }
  npy::jit::open_disk_cache(launch.controls.kernel_cache);
  npy::jit::warm_up();
  launch.warmed_up.set_value();
  npy::jit::write_stored_code();
  pthread_join(interpreter, nullptr);
  return launch.exit_code;
}
