#include "launcher/python_installation.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>

#include "version.h"

namespace npy {

namespace {

std::string parent(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  if (slash == std::string::npos) return "";
  return slash == 0 ? "/" : path.substr(0, slash);
}

bool is_executable_file(const std::string& path) {
  struct stat info;
  return stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode) && access(path.c_str(), X_OK) == 0;
}

std::string trimmed(const std::string& text) {
  const std::size_t first = text.find_first_not_of(" \t\r");
  if (first == std::string::npos) return "";
  return text.substr(first, text.find_last_not_of(" \t\r") - first + 1);
}

// The value of pyvenv.cfg's `version` (python -m venv) or `version_info`
// (virtualenv) in `path`: "3.12.1", "3.12.1.final.0"; empty when absent.
std::string venv_version(std::ifstream& cfg) {
  std::string line;
  while (std::getline(cfg, line)) {
    const std::size_t equals = line.find('=');
    if (equals == std::string::npos) continue;
    const std::string key = trimmed(line.substr(0, equals));
    if (key == "version" || key == "version_info") return trimmed(line.substr(equals + 1));
  }
  return "";
}

}  // namespace

PyStatus set_python_installation(PyConfig* config) {
  PyStatus status = PyConfig_SetBytesString(config, &config->prefix, NPYTHON_PYTHON_PREFIX);
  if (PyStatus_Exception(status)) return status;
  return PyConfig_SetBytesString(config, &config->exec_prefix, NPYTHON_PYTHON_EXEC_PREFIX);
}

std::string executable_path(const char* argv0) {
  const std::string name = argv0 ? argv0 : "";
  if (name.empty()) return "";
  if (name.find('/') != std::string::npos) {
    if (name[0] == '/') return name;
    char cwd[4096];
    return getcwd(cwd, sizeof cwd) ? std::string(cwd) + "/" + name : name;
  }
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "";
  std::size_t start = 0;
  while (start <= dirs.size()) {
    std::size_t end = dirs.find(':', start);
    if (end == std::string::npos) end = dirs.size();
    const std::string candidate = dirs.substr(start, end - start) + "/" + name;
    if (is_executable_file(candidate)) return candidate;
    start = end + 1;
  }
  return "";
}

std::optional<std::string> foreign_venv(const std::string& executable) {
  const std::string bin = parent(executable);
  if (bin.empty()) return std::nullopt;
  for (const std::string& dir : {parent(bin), bin}) {
    if (dir.empty()) continue;
    std::ifstream cfg(dir + "/pyvenv.cfg");
    if (!cfg) continue;
    const std::string version = venv_version(cfg);
    const std::string ours = NPYTHON_PYTHON_VERSION;
    if (version.empty() || version == ours || version.compare(0, ours.size() + 1, ours + ".") == 0) {
      return std::nullopt;
    }
    return "the virtual environment " + dir + " is CPython " + version + "'s; this npython runs CPython " +
           ours + " (install npython into the environment with its own pip, or run it with npython's CPython)";
  }
  return std::nullopt;
}

}  // namespace npy
