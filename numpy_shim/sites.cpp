#include "numpy_shim/sites.h"

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "jit/trace_log.h"

namespace npy::numpy_shim {
namespace {

std::map<std::pair<PyCodeObject*, int>, int>& site_index() {
  static std::map<std::pair<PyCodeObject*, int>, int> index;
  return index;
}
std::vector<SiteInfo>& infos() {
  static std::vector<SiteInfo> all;
  return all;
}

}  // namespace

int site_of(const Location& where) {
  if (!where.code) return -1;
  const auto key = std::make_pair(where.code, where.offset);
  auto& index = site_index();
  const auto found = index.find(key);
  if (found != index.end()) return found->second;
  const int line = PyCode_Addr2Line(where.code, where.offset * 2);
  const char* file = PyUnicode_AsUTF8(where.code->co_filename);
  if (!file) PyErr_Clear();
  std::string text = file ? file : "<unknown>";
  const std::size_t slash = text.rfind('/');
  if (slash != std::string::npos) text = text.substr(slash + 1);
  const int site = jit::register_site(text + ":" + std::to_string(line));
  Py_INCREF(where.code);  // the key's code object stays alive, so its address is never reused
  Py_INCREF(where.code->co_filename);
  Py_XINCREF(where.globals);
  if (static_cast<int>(infos().size()) <= site) infos().resize(site + 1);
  infos()[site] = {where.code->co_filename, line, where.globals};
  index.emplace(key, site);
  return site;
}

const SiteInfo* site_info(int site) {
  return site >= 0 && site < static_cast<int>(infos().size()) && infos()[site].filename
             ? &infos()[site]
             : nullptr;
}

}  // namespace npy::numpy_shim
