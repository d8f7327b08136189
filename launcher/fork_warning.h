// CPython 3.12's os.fork() warns (DeprecationWarning, "This process is
// multi-threaded, use of fork() may lead to deadlocks in the child") when
// the process has more than one thread. An npython process always has
// more: the launcher's thread, which waits for the interpreter's, and the
// kernel threads of its OpenMP team, which hold no lock while Python code
// runs. The warning is left out where python3 would not give it: where the
// process's threads, these left out, are one.
#pragma once

#include <sys/types.h>

namespace npy {

// For a CPython that warns so, puts a warnings filter first that ignores
// the warning exactly then (its message matcher counts the threads at each
// fork). `launcher_pid`: the launcher's process, where its own thread is.
// A failure is reported as unraisable and the warning stays.
void quiet_fork_warning_of_npython_threads(pid_t launcher_pid);

}  // namespace npy
