#include "launcher/command_line.h"

#include <cstring>

namespace npy {
namespace {

// CPython 3.11's single-letter options (Python/initconfig.c, PROGRAM_OPTS).
constexpr const char* kFlagLetters = "bBdEhiIOPqsSuvVx?";
constexpr const char* kLettersWithArgument = "WX";
constexpr const char* kLettersEndingOptions = "cm";  // their argument ends the options

}  // namespace

CommandLineScan scan_command_line(const std::vector<std::string>& argv) {
  CommandLineScan scan;
  for (std::size_t i = 1; i < argv.size(); ++i) {
    const std::string& arg = argv[i];
    if (arg.size() < 2 || arg[0] != '-') return scan;  // the script, or "-" for stdin
    if (arg == "--") return scan;
    if (arg[1] == '-') {
      if (arg == "--help" || arg == "--help-all") {
        scan.help = true;
        return scan;  // CPython prints help as soon as it meets the option
      }
      if (arg == "--bench") {
        scan.bench_index = i;
        return scan;
      }
      if (arg == "--explain") {
        scan.explain_index = i;
        continue;
      }
      if (arg == "--version") {
        ++scan.version;
      } else if (arg == "--check-hash-based-pycs") {
        ++i;
      } else if (arg != "--help-env" && arg != "--help-xoptions") {
        scan.unknown_option = true;
        return scan;
      }
      continue;
    }
    for (std::size_t k = 1; k < arg.size(); ++k) {
      const char letter = arg[k];
      if (std::strchr(kLettersEndingOptions, letter)) return scan;
      if (std::strchr(kLettersWithArgument, letter)) {
        if (k + 1 == arg.size()) ++i;  // "-W arg" rather than "-Warg"
        break;
      }
      if (!std::strchr(kFlagLetters, letter)) {
        scan.unknown_option = true;
        return scan;
      }
      if (letter == 'h' || letter == '?') {
        scan.help = true;
        return scan;
      }
      if (letter == 'V') ++scan.version;
      if (letter == 'E' || letter == 'I') scan.ignore_environment = true;
    }
  }
  return scan;
}

}  // namespace npy
