// The CPython installation npython runs: the one it was built for, whose
// libpython it links. CPython would look for its standard library around
// npython's own executable (a build tree, ~/.local/bin, a venv's bin/) and,
// searching upwards, can settle on a wrong prefix ("/" where /lib is
// /usr/lib); npython names the installation's prefix instead, and leaves
// CPython's venv detection (pyvenv.cfg beside or above the executable) and
// PYTHONHOME as they are, so that sys.prefix, sys.base_prefix and site-packages
// come out as they would for that environment's python.
#pragma once

#include <Python.h>

#include <optional>
#include <string>

namespace npy {

// Sets `config`'s prefix and exec_prefix (inputs of CPython's path
// computation) to the installation npython was built for.
PyStatus set_python_installation(PyConfig* config);

// The executable CPython will take npython to be (argv[0] made absolute, or
// found on PATH), as its path computation derives it; empty when unknown.
std::string executable_path(const char* argv0);

// When `executable` lies in a virtual environment (pyvenv.cfg in its
// directory or the one above) of another CPython version than npython's:
// a message that says so. npython would run its own version there, without
// the environment's packages.
std::optional<std::string> foreign_venv(const std::string& executable);

}  // namespace npy
