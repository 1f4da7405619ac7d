// Install rules and the Debian package (issue 6 item 9): `cmake --install` of this build
// into a DESTDIR puts the programs, the systemd unit, the udev rules and the example
// configuration where Debian expects them, and the installed daemon runs; cpack builds
// the .deb, whose contents `dpkg-deb -c` lists. Real commands, no mocks.
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

const std::vector<std::string> kInstalled = {"usr/bin/eboardd",
                                             "usr/bin/eboard-events",
                                             "usr/bin/eboard-sim",
                                             "usr/lib/systemd/system/eboardd.service",
                                             "usr/lib/udev/rules.d/60-eboardd.rules",
                                             "etc/eboardd/eboardd.conf"};

TEST(InstallE2e, InstallIntoDestdirPutsEveryFileInPlace) {
  ASSERT_TRUE(fs::exists(kBuild / "CMakeCache.txt")) << kBuild;
  const auto cmake = which("cmake");
  ASSERT_TRUE(cmake) << "cmake is part of the build";
  const std::string dest = temp_dir();
  Child install({"/usr/bin/env", "DESTDIR=" + dest, *cmake, "--install", kBuild.string(),
                 "--prefix", "/usr"});
  ASSERT_EQ(install.wait(120s), 0) << install.out() << install.err();
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

TEST(InstallE2e, CpackBuildsADebWithTheDaemonInIt) {
  const auto cpack = which("cpack");
  if (!cpack) GTEST_SKIP() << "cpack is not installed (it ships with the Debian package cmake)";
  const auto dpkg_deb = which("dpkg-deb");
  ASSERT_TRUE(dpkg_deb) << "dpkg-deb (package dpkg) is needed to list the .deb";
  const std::string out = temp_dir();
  Child pack({*cpack, "-G", "DEB", "--config", (kBuild / "CPackConfig.cmake").string(), "-B", out});
  ASSERT_EQ(pack.wait(300s), 0) << pack.out() << pack.err();
  std::optional<fs::path> deb;
  for (const auto& entry : fs::directory_iterator(out)) {
    if (entry.path().extension() == ".deb") deb = entry.path();
  }
  ASSERT_TRUE(deb) << pack.out();
  EXPECT_EQ(deb->filename().string().rfind("eboardd_", 0), 0u) << *deb;
  Child list({*dpkg_deb, "-c", deb->string()});
  ASSERT_EQ(list.wait(30s), 0) << list.err();
  for (const auto& file : kInstalled) {
    EXPECT_NE(list.out().find("./" + file), std::string::npos) << file << "\n" << list.out();
  }
  Child info({*dpkg_deb, "-f", deb->string(), "Package", "Depends"});
  ASSERT_EQ(info.wait(30s), 0) << info.err();
  EXPECT_NE(info.out().find("Package: eboardd"), std::string::npos) << info.out();
  EXPECT_NE(info.out().find("libc6"), std::string::npos)
      << "shlibdeps filled Depends: " << info.out();
  fs::remove_all(out);
}

}  // namespace
}  // namespace eboard::daemon
