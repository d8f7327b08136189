#include "launcher/controls.h"

#include <gtest/gtest.h>

#include <cstdlib>

namespace npy {
namespace {

class ControlsTest : public ::testing::Test {
 protected:
  void SetUp() override { clear(); }
  void TearDown() override { clear(); }
  static void clear() {
    for (const char* name : {"NPY_JIT", "NPY_JIT_STATS", "NPY_THREADS", "NPY_INTERP"}) unsetenv(name);
  }
};

TEST_F(ControlsTest, DefaultsWhenUnset) {
  std::string error;
  const auto controls = read_controls(error);
  ASSERT_TRUE(controls);
  EXPECT_TRUE(controls->jit);
  EXPECT_FALSE(controls->stats);
}

TEST_F(ControlsTest, JitOff) {
  setenv("NPY_JIT", "off", 1);
  setenv("NPY_JIT_STATS", "1", 1);
  std::string error;
  const auto controls = read_controls(error);
  ASSERT_TRUE(controls);
  EXPECT_FALSE(controls->jit);
  EXPECT_TRUE(controls->stats);
}

TEST_F(ControlsTest, StatsToAFile) {
  setenv("NPY_JIT_STATS", "/tmp/out.json", 1);
  std::string error;
  const auto controls = read_controls(error);
  ASSERT_TRUE(controls);
  EXPECT_FALSE(controls->stats);
  EXPECT_EQ(controls->stats_file, "/tmp/out.json");
}

TEST_F(ControlsTest, InterpScope) {
  setenv("NPY_INTERP", "all", 1);
  std::string error;
  auto controls = read_controls(error);
  ASSERT_TRUE(controls);
  EXPECT_TRUE(controls->interp_all_frames);
  setenv("NPY_INTERP", "some", 1);
  EXPECT_FALSE(read_controls(error));
  EXPECT_EQ(error, "NPY_INTERP must be user|all, not 'some'");
}

TEST_F(ControlsTest, BadValuesNameTheVariable) {
  setenv("NPY_JIT", "maybe", 1);
  std::string error;
  EXPECT_FALSE(read_controls(error));
  EXPECT_EQ(error, "NPY_JIT must be on|off, not 'maybe'");

  clear();
  setenv("NPY_THREADS", "-3", 1);
  EXPECT_FALSE(read_controls(error));
  EXPECT_EQ(error, "NPY_THREADS must be N, not '-3'");
}

TEST_F(ControlsTest, HelpListsEveryVariable) {
  const std::string help = controls_help();
  for (const char* name : {"NPY_JIT=", "NPY_INTERP=", "NPY_JIT_STATS=", "NPY_THREADS="}) {
    EXPECT_NE(help.find(name), std::string::npos) << name;
  }
}

}  // namespace
}  // namespace npy
