#include "launcher/runtime_module.h"

#include <boost/python.hpp>

#include "common/stats.h"
#include "launcher/controls.h"
#include "jit/host.h"
#include "version.h"

namespace npy {
namespace {

namespace bp = boost::python;

Controls g_controls;

bool jit_enabled() { return g_controls.jit; }

bp::dict stats() {
  bp::dict out;
  for (const auto& [name, value] : snapshot_counters()) out[name] = value;
  return out;
}

bp::dict host() {
  bp::dict out;
  out["vector_isa"] = jit::vector_isa_name(jit::host_vector_isa());
  out["threads"] = jit::host_threads();
  return out;
}

}  // namespace
}  // namespace npy

BOOST_PYTHON_MODULE(npython) {
  namespace bp = boost::python;
  bp::scope().attr("__doc__") = "npython's runtime: version, whether the JIT is on, counters.";
  bp::scope().attr("version") = NPYTHON_VERSION;
  bp::def("jit_enabled", &npy::jit_enabled,
          "False when NPY_JIT=off made npython plain CPython.");
  bp::def("stats", &npy::stats, "npython's counters, by name, as a dict.");
  bp::def("host", &npy::host, "The vector instruction set and thread count kernels use.");
}

namespace npy {

void register_runtime_module(const Controls& controls) {
  g_controls = controls;
  PyImport_AppendInittab("npython", &PyInit_npython);
}

}  // namespace npy
