/* See frame_glue.h: the part of the frame glue whose source is the same
 * for every CPython version npython supports. It is compiled with the
 * version's own private headers (the structures' layouts differ), beside
 * that version's interp/py3XX/frame_glue.c. */
#define Py_BUILD_CORE 1

#include "interp/frame_glue.h"

#include <Python.h>

#include "internal/pycore_code.h"
#include "internal/pycore_dict.h"
#include "internal/pycore_frame.h"
#include "internal/pycore_interp.h"
#include "internal/pycore_moduleobject.h"
#include "internal/pycore_object.h"
#include "internal/pycore_pystate.h"
#include "internal/pycore_runtime.h"


/* Objects/codeobject.c: the block co_extra points to (_PyCodeObjectExtra,
 * private to that file), and the reading of it by _PyCode_GetExtra
 * (PyUnstable_Code_GetExtra in 3.12). */
typedef struct {
  Py_ssize_t ce_size;
  void *ce_extras[1];
} npy_code_object_extra;

void *npy_code_extra(PyCodeObject *code, Py_ssize_t index) {
  npy_code_object_extra *extra = (npy_code_object_extra *)code->co_extra;
  return extra != NULL && index < extra->ce_size ? extra->ce_extras[index] : NULL;
}

int npy_frame_is_incomplete(npy_frame *frame) { return _PyFrame_IsIncomplete(frame); }

int npy_frame_has_frame_object(npy_frame *frame) { return frame->frame_obj != NULL; }

int npy_frame_owned_by_generator(npy_frame *frame) {
  return frame->owner == FRAME_OWNED_BY_GENERATOR;
}

int npy_shared_key_index(PyTypeObject *type, PyObject *name) {
  if (!(type->tp_flags & Py_TPFLAGS_MANAGED_DICT) || !(type->tp_flags & Py_TPFLAGS_HEAPTYPE)) {
    return -1;
  }
  PyDictKeysObject *keys = ((PyHeapTypeObject *)type)->ht_cached_keys;
  if (keys == NULL || !DK_IS_UNICODE(keys)) {
    return -1;
  }
  PyDictUnicodeEntry *entries = DK_UNICODE_ENTRIES(keys);
  for (Py_ssize_t i = 0; i < keys->dk_nentries; i++) {
    if (entries[i].me_key == name) {
      return (int)i;
    }
  }
  return -1;
}

Py_ssize_t npy_shared_keys_entries(PyTypeObject *type) {
  if (!(type->tp_flags & Py_TPFLAGS_MANAGED_DICT) || !(type->tp_flags & Py_TPFLAGS_HEAPTYPE)) {
    return -1;
  }
  PyDictKeysObject *keys = ((PyHeapTypeObject *)type)->ht_cached_keys;
  return keys == NULL ? -1 : keys->dk_nentries;
}

PyObject *npy_module_dict(PyObject *module) { return ((PyModuleObject *)module)->md_dict; }

int npy_dict_has_str_keys(PyObject *dict) {
  return DK_IS_UNICODE(((PyDictObject *)dict)->ma_keys);
}
