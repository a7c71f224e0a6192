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

TEST(ModelRepositoryTest, AFolderOfVersionsServesItsHighestVersion) {
  Folder folder;
  std::string bert = folder.repo + "/bert";
  mkdir(bert.c_str(), 0755);
  for (const char *version : {"1", "2", "10", "007", "3x"})
    mkdir((bert + "/" + version).c_str(), 0755);
  folder.touch(bert + "/1/model.kiln");
  folder.touch(bert + "/2/model.kiln");
  folder.touch(bert + "/2/model@b4.kiln");
  folder.touch(bert + "/007/model.kiln"); // not a version number
  folder.touch(bert + "/3x/model.kiln");
  // Version 10 has no model.kiln yet (being copied in): not served.
  folder.touch(bert + "/10/notes.txt");
  mkdir((folder.repo + "/empty").c_str(), 0755);
  mkdir((folder.repo + "/empty/1").c_str(), 0755);
  auto repository = ModelRepository::open(folder.repo);
  ASSERT_TRUE(repository.isOk());
  EXPECT_EQ(repository->scan(), (std::vector<std::string>{"bert"}));
  EXPECT_EQ(repository->servedVersion("bert"), 2);
  auto path = repository->locate("bert");
  ASSERT_TRUE(path.isOk()) << path.status().message();
  EXPECT_NE(path->find("/bert/2/model.kiln"), std::string::npos) << *path;
  EXPECT_EQ(repository->variants("bert"), (std::vector<int>{4}));
  EXPECT_EQ(repository->versions("bert").size(), 2u);
  EXPECT_EQ(repository->locate("empty").status().message(),
            "model 'empty' has no version folder empty/V/ holding a "
            "model.kiln");
  EXPECT_EQ(repository->servedVersion("empty"), 0);

  // A new version rolls forward (new stamps), its removal rolls back.
  std::map<int, FileStamp> two = repository->versions("bert");
  folder.touch(bert + "/10/model.kiln");
  EXPECT_EQ(repository->servedVersion("bert"), 10);
  EXPECT_NE(repository->versions("bert"), two);
  EXPECT_TRUE(repository->variants("bert").empty());
  std::remove((bert + "/10/model.kiln").c_str());
  EXPECT_EQ(repository->servedVersion("bert"), 2);
  EXPECT_EQ(repository->versions("bert"), two);

  // A flat file of a flat model is version 1.
  folder.touch(folder.repo + "/mlp.kiln");
  EXPECT_EQ(repository->servedVersion("mlp"), 1);
}

TEST(ModelRepositoryTest, VersionFoldersStayInsideTheRepository) {
  Folder folder;
  mkdir((folder.root + "/outside").c_str(), 0755);
  mkdir((folder.root + "/outside/1").c_str(), 0755);
  folder.touch(folder.root + "/outside/1/model.kiln");
  // The model folder, or a version folder, linked out of the repository.
  ASSERT_EQ(symlink((folder.root + "/outside").c_str(),
                    (folder.repo + "/linked").c_str()),
            0);
  mkdir((folder.repo + "/half").c_str(), 0755);
  ASSERT_EQ(symlink((folder.root + "/outside/1").c_str(),
                    (folder.repo + "/half/1").c_str()),
            0);
  auto repository = ModelRepository::open(folder.repo);
  ASSERT_TRUE(repository.isOk());
  EXPECT_TRUE(repository->scan().empty());
  EXPECT_FALSE(repository->locate("linked").isOk());
  EXPECT_FALSE(repository->locate("half").isOk());
  EXPECT_EQ(repository->servedVersion("half"), 0);
}

TEST(ModelRepositoryTest, AModelBothFlatAndInAFolderIsRefused) {
  Folder folder;
  folder.touch(folder.repo + "/m.kiln");
  mkdir((folder.repo + "/m").c_str(), 0755);
  mkdir((folder.repo + "/m/1").c_str(), 0755);
  folder.touch(folder.repo + "/m/1/model.kiln");
  auto repository = ModelRepository::open(folder.repo);
  ASSERT_TRUE(repository.isOk());
  // Listed, so that the index shows it, but not served: the load says why.
  EXPECT_EQ(repository->scan(), (std::vector<std::string>{"m"}));
  auto path = repository->locate("m");
  ASSERT_FALSE(path.isOk());
  EXPECT_EQ(path.status().code(), kiln::rt::StatusCode::kFailedPrecondition);
  EXPECT_EQ(path.status().message(),
            "model 'm' is both m.kiln and a folder of versions m/V/model.kiln: "
            "keep one");
}

TEST(ModelRepositoryTest, EachVersionOfAFolderCanBeLocated) {
  Folder folder;
  std::string bert = folder.repo + "/bert";
  mkdir(bert.c_str(), 0755);
  for (const char *version : {"1", "2", "3"})
    mkdir((bert + "/" + version).c_str(), 0755);
  folder.touch(bert + "/1/model.kiln");
  folder.touch(bert + "/1/model@b4.kiln");
  folder.touch(bert + "/3/model.kiln");
  folder.touch(folder.repo + "/mlp.kiln");
  auto repository = ModelRepository::open(folder.repo);
  ASSERT_TRUE(repository.isOk());
  EXPECT_EQ(repository->availableVersions("bert"), (std::vector<int>{1, 3}));
  EXPECT_EQ(repository->availableVersions("mlp"), (std::vector<int>{1}));
  EXPECT_TRUE(repository->availableVersions("nosuch").empty());
  EXPECT_TRUE(repository->availableVersions("../bert").empty());

  auto one = repository->locate("bert", 1, 1);
  ASSERT_TRUE(one.isOk()) << one.status().message();
  EXPECT_NE(one->find("/bert/1/model.kiln"), std::string::npos) << *one;
  EXPECT_TRUE(repository->locate("bert", 4, 1).isOk());
  EXPECT_FALSE(repository->locate("bert", 4, 3).isOk());
  EXPECT_EQ(repository->variants("bert", 1), (std::vector<int>{4}));
  EXPECT_TRUE(repository->variants("bert", 3).empty());
  EXPECT_EQ(repository->versions("bert", 1).size(), 2u);
  EXPECT_EQ(repository->versions("bert").size(), 1u) << "the highest: 3";

  // A version folder without a model.kiln, or none at all, is not there.
  auto two = repository->locate("bert", 1, 2);
  ASSERT_FALSE(two.isOk());
  EXPECT_EQ(two.status().code(), kiln::rt::StatusCode::kNotFound);
  EXPECT_EQ(two.status().message(), "model 'bert' has no version 2");
  EXPECT_TRUE(repository->versions("bert", 7).empty());
  // NAME.kiln is version 1 and only that.
  EXPECT_TRUE(repository->locate("mlp", 1, 1).isOk());
  EXPECT_EQ(repository->locate("mlp", 1, 2).status().message(),
            "model 'mlp' has no version 2 (mlp.kiln is version 1)");
}
