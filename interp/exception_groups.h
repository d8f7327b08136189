// The two instructions of `except*` (PEP 654): matching an exception group
// against a clause, and building what the whole try statement re-raises.
// Behaviour as CPython 3.11's, 3.12's and 3.13's (Python/ceval.c exception_group_match,
// Objects/exceptions.c _PyExc_PrepReraiseStar, which CPython does not
// export); the code is npython's own, on the public exception-group API.
#pragma once

#include <Python.h>

namespace npy::interp {

// CHECK_EG_MATCH: checks the clause's type, then splits `exc_value` into the
// part that matches (*match) and the rest (*rest); both None when nothing
// matches. Returns -1 with an exception set on error.
int exception_group_match(PyObject* exc_value, PyObject* match_type, PyObject** match,
                          PyObject** rest);

// PREP_RERAISE_STAR: from the exception the try statement caught and the
// list of what each clause raised or re-raised, the exception to raise next
// (None for none). A new reference, or NULL with an exception set.
PyObject* prepare_reraise_star(PyObject* orig, PyObject* excs);

}  // namespace npy::interp
