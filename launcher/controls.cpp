#include "launcher/controls.h"

#include <cctype>
#include <cstdlib>
#include <sstream>

#include "jit/host.h"
#include "jit/trace_log.h"

namespace npy {
namespace {

struct ControlSpec {
  const char* name;
  const char* values;  // what it accepts, as shown in help and errors
  const char* meaning;
  // Checks `value` and applies it to `controls`; false when not accepted.
  bool (*apply)(const std::string& value, Controls& controls);
};

bool apply_on_off(const std::string& value, bool& flag) {
  if (value == "on" || value == "1") {
    flag = true;
  } else if (value == "off" || value == "0") {
    flag = false;
  } else {
    return false;
  }
  return true;
}

// The usual spellings of "off", in any case, for controls that say off with
// a word where anything else is a value of their own.
bool is_off(const std::string& value) {
  std::string lower;
  for (const char ch : value) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return lower == "off" || lower == "0" || lower == "false" || lower == "no";
}

const ControlSpec kControls[] = {
    {"NPY_JIT", "on|off",
     "off: run as plain CPython, nothing of npython installed (default on)",
     [](const std::string& v, Controls& c) { return apply_on_off(v, c.jit); }},
    {"NPY_INTERP", "user|all",
     "frames npython evaluates: the program's own, once it imports NumPy (user, default), "
     "or all but generators and traced ones (all)",
     [](const std::string& v, Controls& c) {
       if (v != "user" && v != "all") return false;
       c.interp_all_frames = v == "all";
       return true;
     }},
    {"NPY_JIT_STATS", "0|1|FILE.json",
     "1: print a summary (regions, kernels, eager NumPy calls, where the run's time went) and npython's "
     "counters to stderr at exit; FILE.json: write the counters there as JSON",
     [](const std::string& v, Controls& c) {
       if (v.size() > 5 && v.compare(v.size() - 5, 5, ".json") == 0) {
         c.stats_file = v;
         return true;
       }
       return apply_on_off(v, c.stats);
     }},
    {"NPY_JIT_LOG", "regions,output_code,deopt,fallback|all",
     "what to log to stderr: each region's ops when it is computed, each new kernel's code, "
     "deoptimizations, each NumPy call or operator run eagerly, with its line and why (comma list)",
     [](const std::string& v, Controls& c) { return jit::parse_log_channels(v, c.log_channels); }},
    {"NPY_DEFAULT_FLOAT", "float64|float32",
     "the float type the program's creation calls (np.zeros, ones, empty, full, identity, eye, "
     "arange, linspace) make when it names none (default float64, as NumPy)",
     [](const std::string& v, Controls& c) {
       if (v != "float64" && v != "float32") return false;
       c.default_float32 = v == "float32";
       return true;
     }},
    {"NPY_THREADS", "N", "threads kernels run on (default: all cores; fewer while other processes keep cores busy; at most 1024)",
     [](const std::string& v, Controls& c) {
       c.threads = jit::parse_thread_count(v);
       return c.threads > 0;
     }},
    {"NPY_VECTOR_ISA", "sse2|avx2|avx512",
     "the widest vector instructions kernels use (default: the widest this CPU has; "
     "a wider one than it has is taken as that)",
     [](const std::string& v, Controls&) {
       jit::VectorIsa isa;
       return jit::parse_vector_isa(v, isa);
     }},
    {"NPY_CACHE_SIZES", "PER_CORE,LAST_LEVEL",
     "the cache sizes in bytes (K, M, G allowed: 512K,32M) the scheduler plans for: steps whose "
     "arrays overflow half the last-level cache run block by block, blocks filling half a core's own "
     "cache (default: this CPU's)",
     [](const std::string& v, Controls&) {
       jit::CacheSizes sizes;
       return jit::parse_cache_sizes(v, sizes);
     }},
    {"NPY_MATH", "numpy|fast",
     "how kernels compute the functions NumPy computes with algorithms of its own (exp, log, sin, "
     "power...): through NumPy's own loops, with NumPy's results to the bit (numpy, default), or "
     "sin cos tan exp exp2 expm1 log log2 log10 log1p with npython's vector code, faster, within "
     "1 ULP of the exact result but not always NumPy's last bit (fast)",
     [](const std::string& v, Controls& c) {
       if (v != "numpy" && v != "fast") return false;
       c.fast_math = v == "fast";
       return true;
     }},
    {"NPY_KERNEL_CACHE", "ABSOLUTE_DIR|off",
     "where compiled kernels are kept for later runs (default $XDG_CACHE_HOME/npython, "
     "else ~/.cache/npython); off (or 0, false, no, in any case): compile in every run",
     [](const std::string& v, Controls& c) {
       if (is_off(v)) {
         c.kernel_cache = "off";
       } else if (v[0] == '/') {
         c.kernel_cache = v;
       } else {
         // A relative path would put the cache wherever the program happens
         // to start, and a misspelt "off" would become a directory.
         return false;
       }
       return true;
     }},
};

}  // namespace

std::optional<Controls> read_controls(std::string& error) {
  Controls controls;
  for (const ControlSpec& spec : kControls) {
    const char* value = std::getenv(spec.name);
    if (!value || !*value) continue;  // unset or empty: the default
    if (!spec.apply(value, controls)) {
      error = std::string(spec.name) + " must be " + spec.values + ", not '" + value + "'";
      return std::nullopt;
    }
  }
  return controls;
}

std::string controls_help() {
  std::ostringstream text;
  text << "\n"
          "npython options:\n"
          "--version, -V : print npython's version and the CPython it embeds (-VV: more)\n"
          "--bench [--repeat N] [--json FILE] [--plot FILE.png] (script.py | -m module | -c code)\n"
          "         args... : time the whole program eager (NPY_JIT=off) and with the JIT, compare\n"
          "         outputs, and report what the JIT did (kernels compiled and loaded from the cache)\n"
          "--explain script.py args... : run the program with the JIT, then list every region\n"
          "         boundary and eager NumPy call with its line, reason and a hint where one helps,\n"
          "         most costly first, and the share of run time in compiled regions, eager NumPy\n"
          "         calls and the interpreter\n"
          "\nnpython environment variables:\n";
  for (const ControlSpec& spec : kControls) {
    text << spec.name << "=" << spec.values << ": " << spec.meaning << '\n';
  }
  return text.str();
}

}  // namespace npy
