#include "launcher/command_line.h"

#include <gtest/gtest.h>

namespace npy {
namespace {

CommandLineScan scan(std::vector<std::string> args) {
  args.insert(args.begin(), "npython");
  return scan_command_line(args);
}

TEST(CommandLineScan, NothingAskedOfNpythonByAPlainScript) {
  const CommandLineScan s = scan({"prog.py", "-h", "-V", "-E"});
  EXPECT_FALSE(s.help);
  EXPECT_EQ(s.version, 0);
  EXPECT_FALSE(s.ignore_environment);
  EXPECT_FALSE(s.unknown_option);
}

TEST(CommandLineScan, HelpInAnySpelling) {
  EXPECT_TRUE(scan({"-h"}).help);
  EXPECT_TRUE(scan({"-?"}).help);
  EXPECT_TRUE(scan({"--help"}).help);
  EXPECT_TRUE(scan({"--help-all"}).help);
  EXPECT_TRUE(scan({"-uBh"}).help);
  EXPECT_FALSE(scan({"--help-env"}).help);
}

TEST(CommandLineScan, VersionIsCounted) {
  EXPECT_EQ(scan({"-V"}).version, 1);
  EXPECT_EQ(scan({"--version"}).version, 1);
  EXPECT_EQ(scan({"-VV"}).version, 2);
  EXPECT_EQ(scan({"-V", "--version"}).version, 2);
}

TEST(CommandLineScan, OptionsEndAtCommandModuleScriptOrStdin) {
  EXPECT_EQ(scan({"-c", "pass", "-V"}).version, 0);
  EXPECT_EQ(scan({"-cpass", "-V"}).version, 0);
  EXPECT_EQ(scan({"-m", "mod", "-h"}).help, false);
  EXPECT_EQ(scan({"-", "-V"}).version, 0);
  EXPECT_EQ(scan({"--", "-V"}).version, 0);
  EXPECT_EQ(scan({"-Ic", "pass", "-h"}).help, false);
}

TEST(CommandLineScan, OptionArgumentsAreSkipped) {
  EXPECT_EQ(scan({"-W", "-V"}).version, 0);  // "-V" is -W's argument
  EXPECT_EQ(scan({"-X", "dev", "-V"}).version, 1);
  EXPECT_EQ(scan({"-Xdev", "-V"}).version, 1);
  EXPECT_EQ(scan({"--check-hash-based-pycs", "always", "-V"}).version, 1);
}

TEST(CommandLineScan, BenchTakesTheRestOfTheLine) {
  EXPECT_EQ(scan({"--bench", "x.py", "-V"}).bench_index, 1u);
  EXPECT_EQ(scan({"--bench", "x.py", "-V"}).version, 0);
  EXPECT_EQ(scan({"-E", "--bench", "--repeat", "2", "x.py"}).bench_index, 2u);
  EXPECT_EQ(scan({"x.py", "--bench"}).bench_index, 0u);
  EXPECT_FALSE(scan({"--bench"}).unknown_option);
  EXPECT_EQ(scan({"--explain", "x.py"}).explain_index, 1u);
  EXPECT_EQ(scan({"-E", "--explain", "-c", "pass"}).explain_index, 2u);
  EXPECT_TRUE(scan({"-E", "--explain", "-c", "pass"}).ignore_environment);
  EXPECT_EQ(scan({"x.py", "--explain"}).explain_index, 0u);
}

TEST(CommandLineScan, IgnoreEnvironment) {
  EXPECT_TRUE(scan({"-E"}).ignore_environment);
  EXPECT_TRUE(scan({"-I", "x.py"}).ignore_environment);
  EXPECT_TRUE(scan({"-uE"}).ignore_environment);
  EXPECT_FALSE(scan({"-u", "x.py", "-E"}).ignore_environment);
}

TEST(CommandLineScan, UnknownOptionsAreLeftToCPython) {
  EXPECT_TRUE(scan({"-Z", "-V"}).unknown_option);
  EXPECT_TRUE(scan({"--frobnicate", "-h"}).unknown_option);
  EXPECT_EQ(scan({"--frobnicate", "-h"}).help, false);
}

}  // namespace
}  // namespace npy
