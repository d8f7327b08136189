// The PEP 523 frame-evaluation hook through which npython sees every Python
// frame the interpreter runs.
#pragma once

namespace npy::interp {

// Installs the hook in the current interpreter. Requires the GIL.
void install_eval_hook();

// Whether the current interpreter's frames go through npython's hook.
bool eval_hook_installed();

}  // namespace npy::interp
