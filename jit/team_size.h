// How many threads a kernel run gets of those it asks for. A kernel thread
// whose core another process is using starts late, and the run's other
// threads wait for it at the end: for up to a scheduler time slice
// (milliseconds), where the run's work may take microseconds. So when two
// runs in a row had a thread start late, later runs take half as many
// threads, and a run now and then asks for all of them again, at doubling
// intervals while they keep starting late. Results do not depend on the thread count
// (reductions combine in NumPy's order), only the time does.
#pragma once

#include <cstdint>

namespace npy::jit {

// The threads a run that asks for `asked` (2 or more) should start.
int team_size(int asked);

// What a run on `team` threads (from team_size) saw: when its last thread
// started and when the run ended, in nanoseconds from its start.
void note_team_run(int team, std::int64_t last_start_ns, std::int64_t end_ns);

// The two at a given time of the steady clock, in nanoseconds (for tests).
int team_size_at(int asked, std::int64_t now_ns);
void note_team_run_at(int team, std::int64_t last_start_ns, std::int64_t end_ns, std::int64_t now_ns);

}  // namespace npy::jit
