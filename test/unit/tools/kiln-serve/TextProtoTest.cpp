//===- TextProtoTest.cpp - Protocol buffers' text format, read as a tree --===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "TextProto.h"

#include <gtest/gtest.h>

using namespace kiln::serve;

namespace {

TextProtoField parsed(const std::string &text) {
  auto root = parseTextProto(text, "config.pbtxt");
  EXPECT_TRUE(root.isOk()) << root.status().message();
  return root.isOk() ? *root : TextProtoField();
}

std::string error(const std::string &text) {
  auto root = parseTextProto(text, "config.pbtxt");
  EXPECT_FALSE(root.isOk()) << text;
  return root.isOk() ? "" : root.status().message();
}

} // namespace

TEST(TextProtoTest, ReadsATritonConfiguration) {
  TextProtoField root = parsed(R"(
# A Triton model configuration.
name: "resnet"
platform: "onnxruntime_onnx"
max_batch_size: 8
input [
  {
    name: "input"
    data_type: TYPE_FP32
    dims: [ 3, 224, 224 ]
  }
]
instance_group { count: 2, kind: KIND_GPU }
version_policy: { specific: { versions: [1, 3] } }
)");
  ASSERT_EQ(root.fields.size(), 6u);
  EXPECT_EQ(root.fields[0].name, "name");
  EXPECT_EQ(root.fields[0].scalar, "resnet");
  EXPECT_TRUE(root.fields[0].quoted);
  EXPECT_EQ(root.fields[0].line, 3);
  EXPECT_EQ(root.fields[0].column, 1);
  EXPECT_EQ(root.fields[2].scalar, "8");
  EXPECT_FALSE(root.fields[2].quoted);
  const TextProtoField &input = root.fields[3];
  ASSERT_TRUE(input.isMessage);
  EXPECT_EQ(input.all("dims").size(), 3u);
  EXPECT_EQ(input.all("dims")[2]->scalar, "224");
  EXPECT_EQ(input.all("data_type")[0]->scalar, "TYPE_FP32");
  EXPECT_EQ(root.fields[4].all("count")[0]->scalar, "2");
  const TextProtoField *policy = root.all("version_policy")[0];
  std::vector<const TextProtoField *> versions =
      policy->fields[0].all("versions");
  ASSERT_EQ(versions.size(), 2u);
  EXPECT_EQ(versions[1]->scalar, "3");
}

TEST(TextProtoTest, ReadsEveryFormOfValue) {
  TextProtoField root = parsed("a: 'it''s' b: \"x\\\"y\\n\"; c < d: -1.5e3 >"
                               " e: [] f {} g: true");
  ASSERT_EQ(root.fields.size(), 5u); // e: [] adds no field
  EXPECT_EQ(root.fields[0].scalar, "its");
  EXPECT_EQ(root.fields[1].scalar, "x\"y\n");
  EXPECT_EQ(root.fields[2].fields[0].scalar, "-1.5e3");
  EXPECT_TRUE(root.fields[3].isMessage);
  EXPECT_TRUE(root.fields[3].fields.empty());
  EXPECT_EQ(root.fields[4].scalar, "true");
}

TEST(TextProtoTest, ErrorsNameTheLineAndColumn) {
  EXPECT_EQ(
      error("name: \"x\"\nversion_policy {\n  latest { num_versions: 2 }\n"),
      "config.pbtxt:4:1: the message has no closing '}'");
  EXPECT_EQ(error("a: \"open\n"),
            "config.pbtxt:1:9: a string without its closing quote");
  EXPECT_EQ(error("a 1"),
            "config.pbtxt:1:3: expected ':' or '{' after field name 'a'");
  EXPECT_EQ(error("a:"),
            "config.pbtxt:1:3: the text ends where field 'a' needs a value");
  EXPECT_EQ(error("  }"), "config.pbtxt:1:3: expected a field name, found '}'");
  EXPECT_EQ(error("a: [1 2]"),
            "config.pbtxt:1:7: expected ',' or ']' in the list of field 'a'");
  EXPECT_EQ(error("a [1]"),
            "config.pbtxt:1:4: expected ':' before the list of field 'a' (a "
            "list without one holds messages)");
  EXPECT_EQ(error("a: \"\\q\""), "config.pbtxt:1:7: unknown escape '\\q'");
  EXPECT_EQ(error("a: ="), "config.pbtxt:1:4: expected a value for field 'a', "
                           "found '='");
}

TEST(TextProtoTest, DeepNestingIsRefusedNotACrash) {
  std::string deep;
  for (int i = 0; i < 100000; ++i)
    deep += "a {";
  EXPECT_NE(error(deep).find("nested more than 64 deep"), std::string::npos);
}
