//===- InferenceProtocolTest.cpp - KServe v2 tensors in and out -----------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "InferenceProtocol.h"

#include <gtest/gtest.h>

#include <cstring>

using namespace kiln;
using namespace kiln::serve;
using rt::DType;

namespace {

rt::Program program(DType type, std::vector<int64_t> shape) {
  rt::Program p;
  p.inputs.push_back({"x", type, shape});
  p.outputs.push_back({"y", type, shape});
  return p;
}

std::string request(const std::string &datatype, const std::string &shape,
                    const std::string &data) {
  return R"({"inputs":[{"name":"x","datatype":")" + datatype +
         R"(","shape":)" + shape + R"(,"data":)" + data + "}]}";
}

std::string errorOf(const std::string &body, const rt::Program &p,
                    std::optional<size_t> jsonLength = std::nullopt) {
  auto parsed = parseInferRequest(body, jsonLength, p);
  return parsed.isOk() ? "" : parsed.status().message();
}

template <typename T> T element(const rt::HostTensor &tensor, size_t i) {
  T value;
  std::memcpy(&value, tensor.data.data() + i * sizeof(T), sizeof(T));
  return value;
}

} // namespace

TEST(InferenceProtocolTest, NestedAndFlatDataGiveTheSameTensor) {
  rt::Program p = program(DType::kF32, {2, 2});
  auto nested = parseInferRequest(request("FP32", "[2,2]", "[[1,2],[3,4]]"),
                                  std::nullopt, p);
  auto flat =
      parseInferRequest(request("FP32", "[2,2]", "[1,2,3,4]"), std::nullopt, p);
  ASSERT_TRUE(nested.isOk()) << nested.status().toString();
  ASSERT_TRUE(flat.isOk());
  EXPECT_EQ(nested->inputs[0].data, flat->inputs[0].data);
  EXPECT_EQ(element<float>(nested->inputs[0], 3), 4.0f);
}

TEST(InferenceProtocolTest, IntegerTypesAreRangeChecked) {
  rt::Program p = program(DType::kU8, {3});
  EXPECT_EQ(errorOf(request("UINT8", "[3]", "[0,255,7]"), p), "");
  EXPECT_EQ(errorOf(request("UINT8", "[3]", "[0,256,7]"), p),
            "input 'x': element 1 (256) is not a UINT8");
  EXPECT_EQ(errorOf(request("UINT8", "[3]", "[0,-1,7]"), p),
            "input 'x': element 1 (-1) is not a UINT8");
  EXPECT_EQ(errorOf(request("UINT8", "[3]", "[0,\"a\",7]"), p),
            "input 'x': element 1 is not a number");
}

TEST(InferenceProtocolTest, HalfPrecisionRoundsToNearestEven) {
  rt::Program p = program(DType::kF16, {4});
  // 1 + 2^-11 is halfway between 1 and the next half: even (1) wins;
  // 65520 overflows to infinity; 2^-24 is the smallest subnormal.
  auto parsed = parseInferRequest(
      request("FP16", "[4]", "[1.00048828125, 65520, 5.960464477539063e-08, -2]"),
      std::nullopt, p);
  ASSERT_TRUE(parsed.isOk()) << parsed.status().toString();
  EXPECT_EQ(element<uint16_t>(parsed->inputs[0], 0), 0x3c00);
  EXPECT_EQ(element<uint16_t>(parsed->inputs[0], 1), 0x7c00);
  EXPECT_EQ(element<uint16_t>(parsed->inputs[0], 2), 0x0001);
  EXPECT_EQ(element<uint16_t>(parsed->inputs[0], 3), 0xc000);
  InferRequest asked;
  auto body = encodeInferResponse("m", asked, p, parsed->inputs);
  ASSERT_TRUE(body.isOk());
  EXPECT_NE(body->body.find("[1,null,5.96046448e-08,-2]"), std::string::npos)
      << body->body;
}

TEST(InferenceProtocolTest, BinaryInputsFollowTheJsonHeader) {
  rt::Program p = program(DType::kF32, {2});
  std::string header =
      R"({"inputs":[{"name":"x","datatype":"FP32","shape":[2],"parameters":{"binary_data_size":8}}]})";
  float values[2] = {1.5f, -2.0f};
  std::string body = header + std::string(reinterpret_cast<char *>(values), 8);
  auto parsed = parseInferRequest(body, header.size(), p);
  ASSERT_TRUE(parsed.isOk()) << parsed.status().toString();
  EXPECT_EQ(element<float>(parsed->inputs[0], 1), -2.0f);

  EXPECT_EQ(errorOf(body.substr(0, body.size() - 1), p, header.size()),
            "input 'x': the body ends inside its 8 binary bytes");
  EXPECT_EQ(errorOf(body + "!", p, header.size()),
            "1 bytes of binary data after the last binary input");
  EXPECT_EQ(errorOf(body, p, body.size() + 1),
            "Inference-Header-Content-Length (" +
                std::to_string(body.size() + 1) +
                ") is larger than the body (" + std::to_string(body.size()) +
                ")");
  EXPECT_EQ(errorOf(header, p),
            "input 'x': binary_data_size without an "
            "Inference-Header-Content-Length header");
}

TEST(InferenceProtocolTest, EveryInputMustBeGivenOnceWithItsShape) {
  rt::Program p = program(DType::kF32, {2});
  p.inputs.push_back({"z", DType::kF32, {1}});
  EXPECT_EQ(errorOf(request("FP32", "[2]", "[1,2]"), p),
            "input 'z' is missing");
  EXPECT_EQ(errorOf(R"({"inputs":[{"name":"x","datatype":"FP32","shape":[2],"data":[1,2]},{"name":"x","datatype":"FP32","shape":[2],"data":[1,2]}]})",
                    p),
            "input 'x': given twice");
  EXPECT_EQ(errorOf(request("FP32", "[1,2]", "[1,2]"), p),
            "input 'x': shape [1,2], the model expects [2]");
  EXPECT_EQ(errorOf(request("FP32", "[2]", "[1,2,3]"), p),
            "input 'x': more than 2 elements for shape [2] (2 needed)");
  EXPECT_EQ(errorOf(request("FP9", "[2]", "[1,2]"), p),
            "input 'x': unknown datatype \"FP9\"");
  EXPECT_EQ(errorOf("[]", p), "the request must be a JSON object");
}

TEST(InferenceProtocolTest, OutputsCanBeChosenAndSentAsBinary) {
  rt::Program p = program(DType::kI64, {2});
  p.outputs.push_back({"w", DType::kBF16, {1}});
  rt::HostTensor y{DType::kI64, {2}, std::vector<uint8_t>(16)};
  int64_t big[2] = {-7, int64_t(1) << 62};
  std::memcpy(y.data.data(), big, 16);
  rt::HostTensor w{DType::kBF16, {1}, {0x80, 0x3f}}; // 1.0
  InferRequest asked;
  asked.id = "q";
  asked.outputs = {"w", "y"};
  asked.binaryOutputs = {"y"};
  auto body = encodeInferResponse("m", asked, p, {y, w});
  ASSERT_TRUE(body.isOk());
  ASSERT_TRUE(body->jsonLength);
  std::string json = body->body.substr(0, *body->jsonLength);
  EXPECT_EQ(json,
            R"({"model_name":"m","model_version":"1","id":"q","outputs":[)"
            R"({"name":"w","datatype":"BF16","shape":[1],"data":[1]},)"
            R"({"name":"y","datatype":"INT64","shape":[2],"parameters":{"binary_data_size":16}}]})");
  EXPECT_EQ(body->body.substr(*body->jsonLength),
            std::string(reinterpret_cast<char *>(big), 16));
  asked.outputs = {"nope"};
  EXPECT_FALSE(encodeInferResponse("m", asked, p, {y, w}).isOk());
}

TEST(InferenceProtocolTest, PriorityAndTimeoutComeFromParameters) {
  rt::Program p = program(DType::kF32, {1});
  auto parsed = parseInferRequest(
      R"({"parameters":{"priority":1,"timeout":2500},"inputs":[{"name":"x","datatype":"FP32","shape":[1],"data":[0]}]})",
      std::nullopt, p);
  ASSERT_TRUE(parsed.isOk());
  EXPECT_EQ(parsed->priority, 1);
  EXPECT_EQ(parsed->timeoutMicros, 2500);
  EXPECT_EQ(errorOf(R"({"parameters":{"timeout":-1},"inputs":[]})", p),
            "parameters.timeout must be a positive number of microseconds");
}

TEST(InferenceProtocolTest, MetadataGivesADataDecidedLengthAsMinusOne) {
  rt::Program p = program(DType::kF32, {4, 3});
  rt::TensorSpec indices{"indices", DType::kI64, {2, 12}};
  indices.lengthAxis = 1;
  indices.lengthOutput = 2;
  p.outputs.push_back(indices);
  p.outputs.push_back({"indices:length", DType::kI64, {}});
  std::string metadata = modelMetadataJson("nonzero", p);
  EXPECT_NE(
      metadata.find(R"({"name":"indices","datatype":"INT64","shape":[2,-1]})"),
      std::string::npos)
      << metadata;
  EXPECT_NE(metadata.find(R"({"name":"y","datatype":"FP32","shape":[4,3]})"),
            std::string::npos)
      << metadata;
}
