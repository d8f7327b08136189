#include "jit/team_size.h"

#include <gtest/gtest.h>

namespace npy::jit {
namespace {

constexpr std::int64_t kMs = 1'000'000;

// One test: the policy's state is the process's. Times are made up: the
// steady clock's nanoseconds, from a start far from any real run's retry.
TEST(TeamSize, LateThreadsHalveTheTeamUntilARetryGoesWell) {
  std::int64_t now = std::int64_t{1} << 62;
  EXPECT_EQ(team_size_at(4, now), 4);
  note_team_run_at(4, kMs / 10, kMs / 5, now);  // started 0.1 ms in: a core woken, not late
  note_team_run_at(4, 2 * kMs, 20 * kMs, now);  // 2 ms in, of a 20 ms run: not late either
  EXPECT_EQ(team_size_at(4, now), 4);

  note_team_run_at(4, 3 * kMs, 4 * kMs, now);  // 3 ms in, of 4: late, once (cores waking)
  EXPECT_EQ(team_size_at(4, now), 4);
  note_team_run_at(4, 0, kMs / 10, now);  // on time: the count of late runs starts again
  note_team_run_at(4, 3 * kMs, 4 * kMs, now);
  EXPECT_EQ(team_size_at(4, now), 4);
  note_team_run_at(4, 3 * kMs, 4 * kMs, now);  // late twice in a row
  EXPECT_EQ(team_size_at(4, now), 2);
  EXPECT_EQ(team_size_at(2, now), 2);
  note_team_run_at(2, 0, kMs / 10, now);  // on time, but not a retry: the limit stays
  EXPECT_EQ(team_size_at(4, now + 19 * kMs), 2);

  now += 20 * kMs;  // the first retry, 20 ms on
  EXPECT_EQ(team_size_at(4, now), 4);
  note_team_run_at(4, 3 * kMs, 4 * kMs, now);  // a late retry: the next waits 40 ms
  EXPECT_EQ(team_size_at(4, now + 39 * kMs), 2);
  now += 40 * kMs;
  EXPECT_EQ(team_size_at(4, now), 4);
  note_team_run_at(4, 3 * kMs, 4 * kMs, now);  // and again: 80 ms
  EXPECT_EQ(team_size_at(4, now + 79 * kMs), 2);
  now += 80 * kMs;
  EXPECT_EQ(team_size_at(4, now), 4);
  note_team_run_at(4, 0, kMs / 10, now);  // the retry goes well: all threads again
  EXPECT_EQ(team_size_at(4, now), 4);
  EXPECT_EQ(team_size_at(16, now), 16);

  note_team_run_at(16, 3 * kMs, 4 * kMs, now);  // late anew: the first wait again, 20 ms
  note_team_run_at(16, 3 * kMs, 4 * kMs, now);
  EXPECT_EQ(team_size_at(16, now), 8);
  EXPECT_EQ(team_size_at(16, now + 20 * kMs), 16);
  note_team_run_at(16, 0, kMs / 10, now + 20 * kMs);
}

}  // namespace
}  // namespace npy::jit
