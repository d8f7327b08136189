// The PEP 523 frame-evaluation hook through which npython sees every Python
// frame the interpreter runs, and decides who evaluates it.
#pragma once

#include "interp/policy.h"

namespace npy::interp {

// Sets npython up in the running interpreter (GIL held). With
// Scope::kUserCode the hook is installed when the program first imports
// NumPy: until then nothing of npython's can matter, and CPython's own
// evaluator keeps its inlined calls. With Scope::kAll, or `main_uses_numpy`
// (the main program names NumPy, so that its top level, which is running
// when it imports NumPy, is npython's too), it is installed now.
void install_evaluator(Scope scope, bool main_uses_numpy);

// Whether frames currently go through npython's hook.
bool eval_hook_installed();

}  // namespace npy::interp
