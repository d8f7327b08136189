// What npython itself needs to know about its command line before CPython
// parses it: whether the user asked for help or the version (npython answers
// those with its own text) and whether the environment is to be ignored.
// Everything else is left to CPython's own parser, so that the command line
// behaves exactly as python3's.
#pragma once

#include <string>
#include <vector>

namespace npy {

struct CommandLineScan {
  bool help = false;                // -h, -?, --help, --help-all
  int version = 0;                  // -V / --version, counted (-VV = 2)
  bool ignore_environment = false;  // -E or -I
  bool unknown_option = false;      // CPython will report it; npython stays out of the way
  // --bench: npython runs its benchmark driver on the arguments after it.
  std::size_t bench_index = 0;      // 0: not asked for
  // --explain: npython runs the program and then reports its regions; the
  // option is taken out of the arguments CPython sees.
  std::size_t explain_index = 0;    // 0: not asked for
};

// Scans the interpreter options (those before the script, -c, -m or -) the
// way CPython 3.11 parses them.
CommandLineScan scan_command_line(const std::vector<std::string>& argv);

}  // namespace npy
