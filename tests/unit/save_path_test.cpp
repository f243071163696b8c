// SPDX-License-Identifier: Apache-2.0
// save_path_test.cpp -- which file bloom_save replaces and how: symbolic
// links are followed (the link stays a link), what is not a regular file is
// refused, a replaced file keeps its permissions, and a name near the
// 255-byte limit still saves although its temporary file's name would be
// longer.
#include "format/save_path.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "temp_dir.hpp"
#include "test_util.hpp"

namespace bloom::test {
namespace {

FilterPtr filter_with(const std::string &prefix) {
  FilterPtr f = make_filter(classic_options(1000, 0.01));
  add_all(f.get(), make_keys(prefix, 100));
  return f;
}

bool is_symlink(const std::string &path) {
  struct stat st;
  return ::lstat(path.c_str(), &st) == 0 && S_ISLNK(st.st_mode);
}

mode_t mode_of(const std::string &path) {
  struct stat st;
  EXPECT_EQ(::stat(path.c_str(), &st), 0) << path;
  return st.st_mode & 07777;
}

class SavePath : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_FALSE(dir_.path().empty()); }
  TempDir dir_;
  FilterPtr old_ = filter_with("old-");
  FilterPtr new_ = filter_with("new-");
};

TEST_F(SavePath, ALinkIsFollowedAndStaysALink) {
  const std::string target = dir_.file("v1.bloom");
  ASSERT_EQ(bloom_save(old_.get(), target.c_str()), BLOOM_OK) << bloom_last_error();
  // A relative link, and a chain: current -> latest -> v1.bloom.
  ASSERT_EQ(::symlink("v1.bloom", dir_.file("latest").c_str()), 0);
  ASSERT_EQ(::symlink(dir_.file("latest").c_str(), dir_.file("current").c_str()), 0);
  ASSERT_EQ(bloom_save(new_.get(), dir_.file("current").c_str()), BLOOM_OK) << bloom_last_error();
  EXPECT_TRUE(is_symlink(dir_.file("current")));
  EXPECT_TRUE(is_symlink(dir_.file("latest")));
  EXPECT_EQ(read_all(target), serialize(new_.get()));
  EXPECT_EQ(dir_.entries(), (std::vector<std::string>{"current", "latest", "v1.bloom"}));
}

TEST_F(SavePath, ADanglingLinkCreatesItsTarget) {
  ASSERT_EQ(::symlink("made.bloom", dir_.file("link").c_str()), 0);
  ASSERT_EQ(bloom_save(new_.get(), dir_.file("link").c_str()), BLOOM_OK) << bloom_last_error();
  EXPECT_TRUE(is_symlink(dir_.file("link")));
  EXPECT_EQ(read_all(dir_.file("made.bloom")), serialize(new_.get()));
}

TEST_F(SavePath, ALinkLoopIsAnIoErrorAndWritesNothing) {
  ASSERT_EQ(::symlink("b", dir_.file("a").c_str()), 0);
  ASSERT_EQ(::symlink("a", dir_.file("b").c_str()), 0);
  EXPECT_EQ(bloom_save(new_.get(), dir_.file("a").c_str()), BLOOM_E_IO);
  EXPECT_NE(std::string(bloom_last_error()).find("symbolic links"), std::string::npos) << bloom_last_error();
  EXPECT_EQ(dir_.entries(), (std::vector<std::string>{"a", "b"}));
}

// The rename over a FIFO or a device would put a regular file in its place
// (as root, `bloom build -o /dev/null` replaced the system's /dev/null), so
// what is not a regular file is refused before anything is written.
TEST_F(SavePath, WhatIsNotARegularFileIsRefusedAndLeftAsItWas) {
  ASSERT_EQ(::mkfifo(dir_.file("fifo").c_str(), 0600), 0);
  ASSERT_EQ(::mkdir(dir_.file("sub").c_str(), 0755), 0);
  ASSERT_EQ(::symlink("fifo", dir_.file("link").c_str()), 0);
  // A copy of /dev/null, where this process may make one (as root).
  const bool have_device = ::mknod(dir_.file("null").c_str(), S_IFCHR | 0666, makedev(1, 3)) == 0;
  struct Case {
    std::string name;
    const char *says;
    mode_t type;  // what must still be there afterwards (lstat)
  };
  std::vector<Case> cases = {{"fifo", "is a FIFO", S_IFIFO},
                             {"sub", "is a directory", S_IFDIR},
                             {"sub/", "is a directory", S_IFDIR},
                             {"link", "is a FIFO", S_IFLNK}};
  if (have_device) cases.push_back({"null", "is a character device", S_IFCHR});
  const auto before = dir_.entries();
  for (const Case &c : cases) {
    const std::string path = dir_.file(c.name);
    EXPECT_EQ(bloom_save(new_.get(), path.c_str()), BLOOM_E_IO) << path;
    EXPECT_NE(std::string(bloom_last_error()).find(c.says), std::string::npos)
        << path << ": " << bloom_last_error();
    struct stat st;
    ASSERT_EQ(::lstat(path.c_str(), &st), 0) << path;
    EXPECT_EQ(st.st_mode & S_IFMT, c.type) << path << " was replaced";
  }
  EXPECT_EQ(dir_.entries(), before) << "a temporary file was left behind";
}

TEST_F(SavePath, AReplacedFileKeepsItsPermissions) {
  const std::string path = dir_.file("private.bloom");
  ASSERT_EQ(bloom_save(old_.get(), path.c_str()), BLOOM_OK);
  for (mode_t mode : {mode_t{0600}, mode_t{0640}, mode_t{0604}}) {
    ASSERT_EQ(::chmod(path.c_str(), mode), 0);
    ASSERT_EQ(bloom_save(new_.get(), path.c_str()), BLOOM_OK) << bloom_last_error();
    EXPECT_EQ(mode_of(path), mode);
  }
  EXPECT_EQ(read_all(path), serialize(new_.get()));
}

TEST_F(SavePath, AReplacedFileKeepsItsOwnerAndGroupWhereAllowed) {
  if (::geteuid() != 0) GTEST_SKIP() << "needs root to hand a file to another owner";
  const std::string path = dir_.file("shared.bloom");
  ASSERT_EQ(bloom_save(old_.get(), path.c_str()), BLOOM_OK);
  ASSERT_EQ(::chown(path.c_str(), 65534, 50), 0);
  ASSERT_EQ(::chmod(path.c_str(), 0660), 0);
  ASSERT_EQ(bloom_save(new_.get(), path.c_str()), BLOOM_OK) << bloom_last_error();
  struct stat st;
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_uid, 65534u);
  EXPECT_EQ(st.st_gid, 50u);
  EXPECT_EQ(st.st_mode & 07777, mode_t{0660});
}

TEST_F(SavePath, ANewFileGetsTheUmasksMode) {
  const mode_t old_mask = ::umask(027);
  const bloom_status s = bloom_save(new_.get(), dir_.file("new.bloom").c_str());
  ::umask(old_mask);
  ASSERT_EQ(s, BLOOM_OK) << bloom_last_error();
  EXPECT_EQ(mode_of(dir_.file("new.bloom")), mode_t{0640});
}

TEST_F(SavePath, ANameOfTheMaximumLengthSaves) {
  for (size_t len : {240u, 250u, 255u}) {
    const std::string name(len - 6, 'x');
    const std::string path = dir_.file(name + ".bloom");
    ASSERT_EQ(bloom_save(new_.get(), path.c_str()), BLOOM_OK) << len << ": " << bloom_last_error();
    ASSERT_EQ(bloom_save(old_.get(), path.c_str()), BLOOM_OK)
        << len << " (replacing): " << bloom_last_error();
    EXPECT_EQ(read_all(path), serialize(old_.get())) << len;
    EXPECT_EQ(dir_.entries(), std::vector<std::string>{name + ".bloom"}) << len;
    ASSERT_EQ(::unlink(path.c_str()), 0);
  }
}

// A process id that belongs to no process: a child that has exited and been
// reaped (the kernel hands pids out in order, so it is not reused at once).
pid_t dead_pid() {
  const pid_t child = ::fork();
  if (child == 0) ::_exit(0);
  int status = 0;
  ::waitpid(child, &status, 0);
  return child;
}

void touch(const std::string &path) { std::ofstream(path) << "partial"; }

// A kill between writing the temporary file and renaming it (about 1% of
// SIGKILLs during bloom_save) left <target>.tmp.<pid>.<n> for ever. The next
// save of the same target removes those of dead processes, and only those.
TEST_F(SavePath, TheNextSaveRemovesTemporaryFilesOfDeadProcesses) {
  const std::string target = dir_.file("f.bloom");
  const std::string dead = target + ".tmp." + std::to_string(dead_pid()) + ".3";
  const std::string live = target + ".tmp.1.0";                                     // init: alive
  const std::string mine = target + ".tmp." + std::to_string(::getpid()) + ".999";  // another thread's
  const std::string other = dir_.file("g.bloom.tmp." + std::to_string(dead_pid()) + ".0");
  for (const auto &p : {dead, live, mine, other}) touch(p);
  ASSERT_EQ(bloom_save(new_.get(), target.c_str()), BLOOM_OK) << bloom_last_error();
  EXPECT_EQ(::access(dead.c_str(), F_OK), -1) << "a dead process's temporary file was left";
  EXPECT_EQ(::access(live.c_str(), F_OK), 0) << "a live process's temporary file was removed";
  EXPECT_EQ(::access(mine.c_str(), F_OK), 0) << "this process's own temporary file was removed";
  EXPECT_EQ(::access(other.c_str(), F_OK), 0) << "another target's temporary file was removed";
  EXPECT_EQ(read_all(target), serialize(new_.get()));
}

TEST(TempName, OwnerIsReadBackOnlyFromTheTargetsOwnNames) {
  EXPECT_EQ(core::temp_name_owner("d/f.bloom", "f.bloom.tmp.1234.5"), 1234);
  EXPECT_EQ(core::temp_name_owner("f.bloom", "f.bloom.tmp.77.0"), 77);
  EXPECT_EQ(core::temp_name_owner("d/f.bloom", "g.bloom.tmp.1234.5"), 0);
  EXPECT_EQ(core::temp_name_owner("d/f.bloom", "f.bloom.tmp.12x.5"), 0);
  EXPECT_EQ(core::temp_name_owner("d/f.bloom", "f.bloom.tmp.12.5x"), 0);
  EXPECT_EQ(core::temp_name_owner("d/f.bloom", "f.blo.tmp.12.5"), 0);  // not cut to 255 bytes
  EXPECT_EQ(core::temp_name_owner("d/f.bloom", "f.bloom"), 0);
  const std::string long_name(255, 'y');
  const std::string temp = core::temp_name_for(long_name, 42);
  EXPECT_EQ(core::temp_name_owner(long_name, temp), static_cast<long>(::getpid()));
}

TEST(TempName, StaysWithinAFileNameAndTheTargetsDirectory) {
  EXPECT_EQ(core::temp_name_for("dir/f.bloom", 7), "dir/f.bloom.tmp." + std::to_string(::getpid()) + ".7");
  const std::string long_name(255, 'y');
  for (const std::string &target : {long_name, "d/" + long_name, "/a/b/" + long_name.substr(0, 250)}) {
    const std::string temp = core::temp_name_for(target, 123456789);
    const size_t slash = temp.find_last_of('/');
    const std::string dir = slash == std::string::npos ? "" : temp.substr(0, slash + 1);
    const std::string name = temp.substr(dir.size());
    EXPECT_EQ(dir, target.substr(0, dir.size()));
    EXPECT_LE(name.size(), 255u) << target;
    EXPECT_EQ(name.rfind("yyyy", 0), 0u) << name;  // a prefix of the target's own name
    EXPECT_NE(name.find(".tmp." + std::to_string(::getpid()) + ".123456789"), std::string::npos) << name;
  }
}

}  // namespace
}  // namespace bloom::test
