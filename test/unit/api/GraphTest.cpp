//===- GraphTest.cpp - kiln::Graph ----------------------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "TestTensors.h"

#include "kiln/Graph.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace kiln;
using kiln::test::floatsOf;
using kiln::test::floatTensor;

namespace {

StatusOr<std::vector<Tensor>> compileAndRun(const Graph &graph,
                                            const std::vector<Tensor> &inputs) {
  auto compiler = Compiler::create();
  if (!compiler.isOk())
    return compiler.status();
  auto source = ModelSource::graph(graph);
  if (!source.isOk())
    return source.status();
  auto model = (*compiler)->compile(*source);
  if (!model.isOk())
    return model.status();
  return (*model)->run(inputs);
}

TEST(Graph, BuildsCompilesAndRuns) {
  Graph g("tiny");
  GraphValue x = g.input("x", DType::kF32, {2, 2});
  GraphValue w = g.constant(floatTensor({2, 2}, {1, 2, 3, 4}));
  GraphValue y = g.add(g.matmul(x, w), g.scalar(1.0f));
  EXPECT_EQ(y.shape(), (std::vector<int64_t>{2, 2}));
  g.output(g.relu(y), "y");
  g.output(g.reduceSum(y, {1}), "row_sums");
  ASSERT_TRUE(g.status().isOk()) << g.status().toString();
  auto outputs = compileAndRun(g, {floatTensor({2, 2}, {1, 0, -1, -1})});
  ASSERT_TRUE(outputs.isOk()) << outputs.status().toString();
  // x @ w = [[1, 2], [-4, -6]]; + 1 = [[2, 3], [-3, -5]].
  EXPECT_EQ(floatsOf((*outputs)[0]), (std::vector<float>{2, 3, 0, 0}));
  EXPECT_EQ(floatsOf((*outputs)[1]), (std::vector<float>{5, -8}));
}

TEST(Graph, NnOpsMatchAReference) {
  Graph g("nn");
  GraphValue x = g.input("x", DType::kF32, {1, 4});
  GraphValue scale = g.constant(floatTensor({4}, {1, 1, 1, 1}));
  GraphValue bias = g.constant(floatTensor({4}, {0, 0, 0, 0}));
  g.output(g.softmax(g.layerNorm(x, scale, bias), -1), "p");
  auto outputs = compileAndRun(g, {floatTensor({1, 4}, {1, 2, 3, 4})});
  ASSERT_TRUE(outputs.isOk()) << outputs.status().toString();
  std::vector<float> p = floatsOf((*outputs)[0]);
  // Independent reference: normalise, then softmax.
  double mean = 2.5, var = 1.25, sum = 0, expected[4];
  for (int i = 0; i < 4; ++i)
    sum += expected[i] = std::exp((i + 1 - mean) / std::sqrt(var + 1e-5));
  for (int i = 0; i < 4; ++i)
    EXPECT_NEAR(p[i], expected[i] / sum, 1e-5);
}

TEST(Graph, ShapeErrorsNameTheNode) {
  Graph g("bad");
  GraphValue a = g.input("a", DType::kF32, {2, 3});
  GraphValue b = g.input("b", DType::kF32, {4, 5});
  GraphValue c = g.add(a, b);
  EXPECT_FALSE(c.valid());
  ASSERT_FALSE(g.status().isOk());
  EXPECT_NE(g.status().message().find("bad: error: node 'add#0'"),
            std::string::npos)
      << g.status().message();
  // Later calls change nothing and keep the first error.
  std::string first = g.status().message();
  EXPECT_FALSE(g.relu(a).valid());
  EXPECT_EQ(g.status().message(), first);
  auto source = ModelSource::graph(g);
  EXPECT_FALSE(source.isOk());
  EXPECT_EQ(exitCodeFor(source.status()), 2);
}

TEST(Graph, RejectsForeignValuesAndEmptyGraphs) {
  Graph one("one"), two("two");
  GraphValue x = one.input("x", DType::kF32, {2});
  EXPECT_FALSE(two.relu(x).valid());
  EXPECT_NE(two.status().message().find("invalid value"), std::string::npos);

  Graph empty("empty");
  empty.input("x", DType::kF32, {2});
  auto source = ModelSource::graph(empty);
  ASSERT_FALSE(source.isOk());
  EXPECT_NE(source.status().message().find("no outputs"), std::string::npos);

  Graph negative("negative");
  EXPECT_FALSE(negative.input("x", DType::kF32, {-1}).valid());
  EXPECT_FALSE(negative.status().isOk());
}

TEST(Graph, ConvPoolAndTypeErrors) {
  Graph g("cnn");
  GraphValue x = g.input("x", DType::kF32, {1, 1, 4, 4});
  std::vector<float> ones(9, 1.f);
  GraphValue w = g.constant(floatTensor({1, 1, 3, 3}, ones));
  GraphValue conv = g.conv2d(x, w, GraphValue(), {1, 1}, {1, 1, 1, 1});
  GraphValue pooled = g.maxPool2d(conv, {2, 2}, {2, 2});
  EXPECT_EQ(pooled.shape(), (std::vector<int64_t>{1, 1, 2, 2}));
  g.output(g.globalAvgPool(pooled), "y");
  std::vector<float> input(16, 1.f);
  auto outputs = compileAndRun(g, {floatTensor({1, 1, 4, 4}, input)});
  ASSERT_TRUE(outputs.isOk()) << outputs.status().toString();
  // 3x3 sums of ones with zero padding: corners 4, edges 6, centre 9; the
  // 2x2 max pools are all 9.
  EXPECT_EQ(floatsOf((*outputs)[0]), (std::vector<float>{9}));

  Graph ints("ints");
  GraphValue i = ints.input("i", DType::kI32, {4});
  EXPECT_FALSE(ints.softmax(i).valid());
  EXPECT_NE(ints.status().message().find("ints: error: node 'softmax#0'"),
            std::string::npos)
      << ints.status().message();
}

} // namespace
