//===- NpyTest.cpp - .npy encoding and hostile-input parsing --------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "kiln/runtime/Npy.h"

#include <gtest/gtest.h>

#include <cstring>

using namespace kiln::rt;

namespace {

HostTensor makeF32(std::vector<int64_t> shape, std::vector<float> values) {
  HostTensor tensor;
  tensor.dtype = DType::kF32;
  tensor.shape = std::move(shape);
  tensor.data.resize(values.size() * sizeof(float));
  std::memcpy(tensor.data.data(), values.data(), tensor.data.size());
  return tensor;
}

StatusOr<HostTensor> parse(const std::string &bytes) {
  return parseNpy(reinterpret_cast<const uint8_t *>(bytes.data()),
                  bytes.size(), "test.npy");
}

/// A version-1 file with the given header dict and payload.
std::string npyWithHeader(const std::string &dict, const std::string &payload) {
  std::string header = dict;
  size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  std::string out("\x93NUMPY\x01\x00", 8);
  out += char(header.size() & 0xff);
  out += char(header.size() >> 8);
  return out + header + payload;
}

TEST(NpyTest, RoundTripsF32Matrix) {
  HostTensor tensor = makeF32({2, 3}, {1, 2, 3, 4, 5, 6});
  StatusOr<std::string> encoded = encodeNpy(tensor);
  ASSERT_TRUE(encoded.isOk());
  // The data starts 64-byte aligned, as NumPy writes it.
  EXPECT_EQ((encoded->size() - tensor.data.size()) % 64, 0u);
  StatusOr<HostTensor> decoded = parse(*encoded);
  ASSERT_TRUE(decoded.isOk()) << decoded.status().toString();
  EXPECT_EQ(decoded->dtype, DType::kF32);
  EXPECT_EQ(decoded->shape, (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(decoded->data, tensor.data);
}

TEST(NpyTest, RoundTripsScalarAndVector) {
  for (std::vector<int64_t> shape :
       {std::vector<int64_t>{}, std::vector<int64_t>{4}}) {
    HostTensor tensor = makeF32(shape, std::vector<float>(shape.empty() ? 1 : 4, 7));
    StatusOr<HostTensor> decoded = parse(*encodeNpy(tensor));
    ASSERT_TRUE(decoded.isOk()) << decoded.status().toString();
    EXPECT_EQ(decoded->shape, shape);
  }
}

TEST(NpyTest, ParsesWhatNumPyWrites) {
  // Byte-for-byte what numpy.save writes for np.arange(3, dtype=np.int64).
  std::string payload(24, '\0');
  payload[8] = 1;
  payload[16] = 2;
  StatusOr<HostTensor> decoded = parse(npyWithHeader(
      "{'descr': '<i8', 'fortran_order': False, 'shape': (3,), }", payload));
  ASSERT_TRUE(decoded.isOk()) << decoded.status().toString();
  EXPECT_EQ(decoded->dtype, DType::kI64);
  EXPECT_EQ(decoded->numElements(), 3);
}

TEST(NpyTest, RejectsBadMagic) {
  StatusOr<HostTensor> result = parse("not a numpy file at all");
  ASSERT_FALSE(result.isOk());
  EXPECT_NE(result.status().message().find("bad magic"), std::string::npos);
}

TEST(NpyTest, RejectsEveryTruncation) {
  std::string encoded = *encodeNpy(makeF32({2, 2}, {1, 2, 3, 4}));
  for (size_t length = 0; length < encoded.size(); ++length)
    EXPECT_FALSE(parse(encoded.substr(0, length)).isOk()) << length;
}

TEST(NpyTest, RejectsUnsupportedLayouts) {
  std::string payload(8, '\0');
  EXPECT_EQ(parse(npyWithHeader("{'descr': '>f4', 'fortran_order': False, "
                                "'shape': (2,), }",
                                payload))
                .status()
                .code(),
            StatusCode::kUnimplemented);
  EXPECT_EQ(parse(npyWithHeader("{'descr': '<f4', 'fortran_order': True, "
                                "'shape': (2,), }",
                                payload))
                .status()
                .code(),
            StatusCode::kUnimplemented);
}

TEST(NpyTest, RejectsShapeOverflowAndSizeMismatch) {
  EXPECT_FALSE(parse(npyWithHeader("{'descr': '<f4', 'fortran_order': False, "
                                   "'shape': (99999999999, 99999999999), }",
                                   ""))
                   .isOk());
  EXPECT_FALSE(parse(npyWithHeader("{'descr': '<f4', 'fortran_order': False, "
                                   "'shape': (3,), }",
                                   std::string(8, '\0')))
                   .isOk());
  EXPECT_FALSE(parse(npyWithHeader("{'descr': '<f4', 'fortran_order': False, "
                                   "'shape': (2, x), }",
                                   std::string(8, '\0')))
                   .isOk());
}

TEST(NpyTest, RefusesToEncodeBf16) {
  HostTensor tensor;
  tensor.dtype = DType::kBF16;
  tensor.shape = {1};
  tensor.data.resize(2);
  EXPECT_FALSE(encodeNpy(tensor).isOk());
}

} // namespace
