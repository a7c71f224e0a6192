//===- TransposedBlocksTest.cpp - Constant weights repacked at compile time
//===//
//
// SPDX-License-Identifier: Apache-2.0
//
// transposedBlocks packs convolution weights for the register tile and
// transposes GEMM weights; each element size has a copy loop of its own.
//
//===----------------------------------------------------------------------===//

#include "compiler/Conversion/GraphToLinalg/LoweringUtils.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

using kiln::compiler::lowering::transposedBlocks;
using namespace mlir;

namespace {

/// A constant [blocks, rows, columns] of `width`-bit integers whose element
/// (b, r, c) is 100 b + 10 r + c, transposed block by block: the result's
/// element (b, c, r) must be that value.
void checkTransposed(unsigned width, int64_t blocks, int64_t rows,
                     int64_t columns) {
  SCOPED_TRACE("i" + std::to_string(width));
  MLIRContext context;
  Type element = IntegerType::get(&context, width);
  auto sourceType = RankedTensorType::get({blocks, rows, columns}, element);
  std::vector<APInt> values;
  for (int64_t b = 0; b < blocks; ++b)
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t c = 0; c < columns; ++c)
        values.emplace_back(width, 100 * b + 10 * r + c);
  auto source = DenseElementsAttr::get(sourceType, values);
  auto resultType = RankedTensorType::get({blocks, columns, rows}, element);
  DenseElementsAttr result =
      transposedBlocks(source, resultType, blocks, rows, columns);
  ASSERT_TRUE(result);
  ASSERT_EQ(result.getType(), resultType);
  auto read = result.getValues<APInt>();
  int64_t index = 0;
  for (int64_t b = 0; b < blocks; ++b)
    for (int64_t c = 0; c < columns; ++c)
      for (int64_t r = 0; r < rows; ++r, ++index)
        EXPECT_EQ(read[index].getZExtValue(), uint64_t(100 * b + 10 * r + c))
            << "at (" << b << ", " << c << ", " << r << ")";
}

TEST(TransposedBlocksTest, EveryElementSize) {
  for (unsigned width : {8u, 16u, 32u, 64u, 24u})
    checkTransposed(width, /*blocks=*/2, /*rows=*/3, /*columns=*/5);
}

TEST(TransposedBlocksTest, OneBlockIsAPlainTranspose) {
  checkTransposed(32, /*blocks=*/1, /*rows=*/4, /*columns=*/7);
}

TEST(TransposedBlocksTest, SplatStaysASplat) {
  MLIRContext context;
  Type f32 = Float32Type::get(&context);
  auto splat = DenseElementsAttr::get(RankedTensorType::get({6, 4}, f32),
                                      FloatAttr::get(f32, 1.5));
  auto type = RankedTensorType::get({3, 4, 2}, f32);
  DenseElementsAttr result = transposedBlocks(splat, type, 3, 2, 4);
  ASSERT_TRUE(result);
  EXPECT_TRUE(result.isSplat());
  EXPECT_EQ(result.getType(), type);
}

TEST(TransposedBlocksTest, NoWholeBytesNoResult) {
  MLIRContext context;
  Type i1 = IntegerType::get(&context, 1);
  auto mask =
      DenseElementsAttr::get(RankedTensorType::get({2, 2}, i1),
                             llvm::ArrayRef<bool>{true, false, false, true});
  EXPECT_FALSE(
      transposedBlocks(mask, RankedTensorType::get({2, 2}, i1), 1, 2, 2));
}

} // namespace
