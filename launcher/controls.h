// npython's environment variables: one table that the start-up check, the
// --help text and the code reading them share.
#pragma once

#include <optional>
#include <string>

namespace npy {

struct Controls {
  bool jit = true;                // NPY_JIT
  bool stats = false;             // NPY_JIT_STATS=1: counters to stderr at exit
  std::string stats_file;         // NPY_JIT_STATS=FILE.json: counters to FILE at exit
  bool interp_all_frames = false;  // NPY_INTERP=all (default: user)
  unsigned log_channels = 0;        // NPY_JIT_LOG, as jit::LogChannel bits
  bool default_float32 = false;     // NPY_DEFAULT_FLOAT=float32
  bool fast_math = false;           // NPY_MATH=fast
  std::string kernel_cache;         // NPY_KERNEL_CACHE: an absolute directory, "off", or empty (the default)
  int threads = 0;                  // NPY_THREADS as given; 0: unset (all cores)
};

// Reads and checks every NPY_* variable. On a bad value returns nothing and
// sets `error` to a one-line message naming the variable and what it accepts.
std::optional<Controls> read_controls(std::string& error);

// The "npython options and environment variables" part of --help.
std::string controls_help();

}  // namespace npy
