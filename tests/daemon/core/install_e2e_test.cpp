// Install rules and the Debian package: `cmake --install` of this build
// into a DESTDIR puts the programs, the systemd unit, the udev rules and the example
// configuration where Debian expects them, and the installed programs run (the .deb made
// from such an install is checked by tools/package.sh and CI). Real commands, no mocks.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include "tests/daemon/core/e2e_helpers.h"

namespace eboard::daemon {
namespace {

using namespace testing_support;
namespace fs = std::filesystem;

const fs::path kBuild = fs::path(kBin).parent_path();

std::optional<std::string> which(const std::string& program) {
  for (const char* dir : {"/usr/bin", "/bin", "/usr/local/bin"}) {
    if (fs::exists(fs::path(dir) / program)) return (fs::path(dir) / program).string();
  }
  return std::nullopt;
}

bool executable(const fs::path& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && (st.st_mode & S_IXUSR);
}

// `cmake --install` of this build into a new DESTDIR, prefix /usr; "" if it failed.
std::string install_build() {
  const auto cmake = which("cmake");
  if (!cmake) {
    ADD_FAILURE() << "cmake is part of the build";
    return "";
  }
  const std::string dest = temp_dir();
  Child install({"/usr/bin/env", "DESTDIR=" + dest, *cmake, "--install", kBuild.string(),
                 "--prefix", "/usr"});
  if (install.wait(120s) != 0) {
    ADD_FAILURE() << install.out() << install.err();
    return "";
  }
  return dest;
}

const std::vector<std::string> kInstalled = {"usr/bin/eboardd",
                                             "usr/bin/eboard-events",
                                             "usr/bin/eboard-sim",
                                             "usr/lib/systemd/system/eboardd.service",
                                             "usr/lib/udev/rules.d/61-eboardd.rules",
                                             "etc/eboardd/eboardd.conf"};

TEST(InstallE2e, InstallIntoDestdirPutsEveryFileInPlace) {
  ASSERT_TRUE(fs::exists(kBuild / "CMakeCache.txt")) << kBuild;
  const std::string dest = install_build();
  ASSERT_FALSE(dest.empty());
  for (const auto& file : kInstalled)
    EXPECT_TRUE(fs::is_regular_file(fs::path(dest) / file)) << file;
  for (const char* program : {"usr/bin/eboardd", "usr/bin/eboard-events", "usr/bin/eboard-sim"}) {
    EXPECT_TRUE(executable(fs::path(dest) / program)) << program;
  }
  // The unit starts the installed path.
  std::ifstream unit(fs::path(dest) / "usr/lib/systemd/system/eboardd.service");
  std::stringstream text;
  text << unit.rdbuf();
  EXPECT_NE(text.str().find("ExecStart=/usr/bin/eboardd"), std::string::npos) << text.str();
  // And the installed daemon runs.
  Child help({dest + "/usr/bin/eboardd", "--help"});
  EXPECT_EQ(help.wait(10s), 0) << help.err();
  EXPECT_NE(help.out().find("--journal-fsync"), std::string::npos);
  fs::remove_all(dest);
}

// Every program of the build (eboardd, eboard-*) is installed with its manual page and
// answers --version with its name and the project's version: eboard_add_program does
// all three (cmake/EboardProgram.cmake), and the package ships exactly this install.
TEST(InstallE2e, EveryProgramIsInstalledWithAManualPageAndAVersion) {
  const std::string dest = install_build();
  ASSERT_FALSE(dest.empty());
  std::vector<std::string> programs;
  for (const auto& entry : fs::directory_iterator(kBin)) {
    const std::string name = entry.path().filename().string();
    if (name == "eboardd" || name.rfind("eboard-", 0) == 0) programs.push_back(name);
  }
  EXPECT_GE(programs.size(), 7u) << "eboardd and the eboard-* tools";
  for (const auto& name : programs) {
    const fs::path program = fs::path(dest) / "usr/bin" / name;
    ASSERT_TRUE(executable(program)) << name << " is not installed";
    EXPECT_TRUE(fs::is_regular_file(fs::path(dest) / "usr/share/man/man1" / (name + ".1.gz")))
        << name << " has no manual page (help2man)";
    Child version({program.string(), "--version"});
    EXPECT_EQ(version.wait(10s), 0) << name << ": " << version.err();
    EXPECT_EQ(version.out().rfind(name + " ", 0), 0u) << name << ": " << version.out();
  }
  fs::remove_all(dest);
}

}  // namespace
}  // namespace eboard::daemon
