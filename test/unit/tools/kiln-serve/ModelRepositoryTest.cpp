//===- ModelRepositoryTest.cpp - Names never leave the repository ---------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "ModelRepository.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <string>
#include <unistd.h>

using namespace kiln::serve;

namespace {

struct Folder {
  Folder() {
    char pattern[] = "/tmp/kiln-repo-XXXXXX";
    root = mkdtemp(pattern);
    repo = root + "/models";
    mkdir(repo.c_str(), 0755);
  }
  ~Folder() { std::system(("rm -rf '" + root + "'").c_str()); }
  void touch(const std::string &path) { std::ofstream(path) << "x"; }
  std::string root, repo;
};

} // namespace

TEST(ModelRepositoryTest, ListsOnlyModelFilesInsideTheFolder) {
  Folder folder;
  folder.touch(folder.repo + "/resnet-50.kiln");
  folder.touch(folder.repo + "/bert_base.v2.kiln");
  folder.touch(folder.repo + "/.hidden.kiln");
  folder.touch(folder.repo + "/notes.txt");
  folder.touch(folder.root + "/secret.kiln");
  ASSERT_EQ(symlink((folder.root + "/secret.kiln").c_str(),
                    (folder.repo + "/escape.kiln").c_str()),
            0);
  mkdir((folder.repo + "/dir.kiln").c_str(), 0755);
  auto repository = ModelRepository::open(folder.repo);
  ASSERT_TRUE(repository.isOk());
  EXPECT_EQ(repository->scan(),
            (std::vector<std::string>{"bert_base.v2", "resnet-50"}));
  EXPECT_TRUE(repository->locate("resnet-50").isOk());
  EXPECT_EQ(repository->locate("escape").status().message(),
            "no model 'escape' in the repository");
  EXPECT_EQ(repository->locate("dir").status().message(),
            "no model 'dir' in the repository");
}

TEST(ModelRepositoryTest, RefusesNamesThatCouldFormPaths) {
  for (const char *name : {"", "..", ".hidden", "a/b", "../secret", "a b",
                           "x\n", "%2e%2e"})
    EXPECT_FALSE(ModelRepository::isModelName(name)) << name;
  EXPECT_TRUE(ModelRepository::isModelName("resnet-50.v1_2"));
  EXPECT_FALSE(ModelRepository::isModelName(std::string(129, 'a')));
}

TEST(ModelRepositoryTest, AMissingFolderIsNotFound) {
  auto repository = ModelRepository::open("/nonexistent/kiln/models");
  ASSERT_FALSE(repository.isOk());
  EXPECT_EQ(repository.status().message(),
            "model repository '/nonexistent/kiln/models' is not a folder");
}

TEST(ModelRepositoryTest, VersionsChangeWhenAModelFileIsReplacedOrRewritten) {
  Folder folder;
  folder.touch(folder.repo + "/m.kiln");
  folder.touch(folder.repo + "/m@b4.kiln");
  folder.touch(folder.repo + "/other.kiln");
  auto repository = ModelRepository::open(folder.repo);
  ASSERT_TRUE(repository.isOk());
  std::map<int, FileStamp> measured = repository->versions("m");
  ASSERT_EQ(measured.size(), 2u);
  EXPECT_TRUE(measured.count(1) && measured.count(4));
  EXPECT_EQ(repository->versions("m"), measured) << "nothing changed";

  // Another model's file is not this model's.
  std::ofstream(folder.repo + "/other.kiln") << "changed";
  EXPECT_EQ(repository->versions("m"), measured);

  // Rewritten in place: same inode, new size.
  std::ofstream(folder.repo + "/m@b4.kiln") << "a longer body";
  std::map<int, FileStamp> rewritten = repository->versions("m");
  EXPECT_NE(rewritten, measured);
  EXPECT_EQ(rewritten[4].inode, measured[4].inode);

  // Replaced by a rename: a new inode even at the same size.
  folder.touch(folder.repo + "/m.new");
  ASSERT_EQ(rename((folder.repo + "/m.new").c_str(),
                   (folder.repo + "/m.kiln").c_str()),
            0);
  std::map<int, FileStamp> replaced = repository->versions("m");
  EXPECT_NE(replaced[1].inode, measured[1].inode);

  // A variant removed, or one added, changes the set.
  ASSERT_EQ(unlink((folder.repo + "/m@b4.kiln").c_str()), 0);
  EXPECT_EQ(repository->versions("m").size(), 1u);
  folder.touch(folder.repo + "/m@b8.kiln");
  EXPECT_TRUE(repository->versions("m").count(8));
  EXPECT_TRUE(repository->versions("nosuch").empty());
  EXPECT_TRUE(repository->versions("../m").empty());
}
