//===- ModelConfigTest.cpp - A model folder's config.pbtxt ----------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "ModelConfig.h"

#include <gtest/gtest.h>

using namespace kiln::serve;

namespace {

std::string policyOf(const std::string &text) {
  auto config = parseModelConfig(text, "ver", "ver/config.pbtxt");
  EXPECT_TRUE(config.isOk()) << config.status().message();
  if (!config.isOk())
    return "";
  return config->versionPolicy ? config->versionPolicy->str() : "(none)";
}

std::string error(const std::string &text) {
  auto config = parseModelConfig(text, "ver", "ver/config.pbtxt");
  EXPECT_FALSE(config.isOk()) << text;
  return config.isOk() ? "" : config.status().message();
}

} // namespace

TEST(ModelConfigTest, ReadsTritonsThreeVersionPolicies) {
  EXPECT_EQ(policyOf("version_policy: { latest: { num_versions: 2 } }"),
            "latest:2");
  EXPECT_EQ(policyOf("version_policy { latest { num_versions: 1 } }"),
            "latest");
  EXPECT_EQ(policyOf("version_policy: { all: {} }"), "all");
  EXPECT_EQ(policyOf("version_policy: { specific: { versions: [3, 1, 3] } }"),
            "specific:1,3");
  EXPECT_EQ(policyOf("version_policy { specific { versions: 2 versions: 4 } }"),
            "specific:2,4");
}

TEST(ModelConfigTest, OtherFieldsAreLeftAlone) {
  EXPECT_EQ(policyOf("name: \"ver\"\nplatform: \"onnxruntime_onnx\"\n"
                     "max_batch_size: 8\ninstance_group [{ count: 2 }]"),
            "(none)");
  EXPECT_EQ(policyOf(""), "(none)");
}

TEST(ModelConfigTest, BadPoliciesAreLocated) {
  EXPECT_EQ(error("version_policy: { latest: { num_versions: 0 } }"),
            "ver/config.pbtxt:1:29: 'num_versions' must be a positive whole "
            "number, not '0'");
  EXPECT_EQ(error("version_policy: { latest: {} }"),
            "ver/config.pbtxt:1:19: latest needs num_versions");
  EXPECT_EQ(error("version_policy: { newest: {} }"),
            "ver/config.pbtxt:1:19: unknown field 'newest' in version_policy");
  EXPECT_EQ(error("version_policy: { all: {} latest: { num_versions: 1 } }"),
            "ver/config.pbtxt:1:1: version_policy needs exactly one of "
            "latest, all and specific");
  EXPECT_EQ(error("version_policy: { specific: {} }"),
            "ver/config.pbtxt:1:19: specific needs at least one version");
  EXPECT_EQ(error("version_policy: { specific: { versions: \"1\" } }"),
            "ver/config.pbtxt:1:31: 'versions' must be a positive whole "
            "number, not '1'");
  EXPECT_EQ(error("version_policy: { all: { x: 1 } }"),
            "ver/config.pbtxt:1:26: unknown field 'x' in all");
  EXPECT_EQ(error("version_policy: latest"),
            "ver/config.pbtxt:1:1: version_policy must be a message: { "
            "latest: { num_versions: N } }, { all: {} } or { specific: { "
            "versions: [V, ...] } }");
  EXPECT_EQ(error("version_policy: { all: {} }\nversion_policy: { all: {} }"),
            "ver/config.pbtxt:2:1: 'version_policy' is given twice");
}

TEST(ModelConfigTest, TheNameMustBeTheFolders) {
  EXPECT_EQ(error("name: \"other\""),
            "ver/config.pbtxt:1:1: the configuration names model 'other', "
            "but its folder is 'ver'");
}
