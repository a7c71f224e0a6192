//===- Graph.h - Build a model in C++ ---------------------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// kiln::Graph builds a model op by op from host code, with weights taken
// from host memory, and hands it to kiln::Compiler:
//
//   kiln::Graph g("mlp");
//   kiln::GraphValue x = g.input("x", kiln::DType::kF32, {1, 784});
//   kiln::GraphValue w = g.constant(weights);          // a kiln::Tensor
//   kiln::GraphValue y = g.relu(g.matmul(x, w));
//   g.output(y, "y");
//   auto source = kiln::ModelSource::graph(g);         // checks g.status()
//
// Shapes are checked as ops are added, with the same rules (and messages)
// as the compiler's verifier. The first error is kept in status(); ops
// added after it return invalid values and change nothing, so a builder
// function can check once at the end.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_GRAPH_H
#define KILN_GRAPH_H

#include "kiln/kiln.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace kiln {

/// A value (tensor) of a Graph: a handle, cheap to copy, meaningful only
/// with the Graph that made it.
class GraphValue {
public:
  GraphValue() = default;
  /// False for values returned after an error.
  bool valid() const { return id_ >= 0; }
  DType dtype() const { return dtype_; }
  const std::vector<int64_t> &shape() const { return shape_; }

private:
  friend struct GraphValueAccess;
  GraphValue(int id, const void *graph, DType dtype, std::vector<int64_t> shape)
      : id_(id), graph_(graph), dtype_(dtype), shape_(std::move(shape)) {}
  int id_ = -1;
  const void *graph_ = nullptr;
  DType dtype_ = DType::kF32;
  std::vector<int64_t> shape_;
};

/// A model under construction: one function with inputs, ops and outputs.
///
/// Ownership: owns copies of every constant's bytes.
/// Thread safety: thread-compatible (no concurrent calls on one Graph).
/// Every op gets the location "<graph name>: node '<op>#<n>'", which is what
/// error messages name.
class Graph {
public:
  explicit Graph(std::string name = "graph");
  ~Graph();
  Graph(Graph &&) noexcept;
  Graph &operator=(Graph &&) noexcept;

  /// OK, or the first error of any call so far.
  const Status &status() const;
  const std::string &name() const;

  //===--- Inputs, weights, outputs ------------------------------------===//

  /// A model input (all dimensions static, >= 0).
  GraphValue input(const std::string &name, DType dtype,
                   std::vector<int64_t> shape);
  /// A constant (weights): the tensor's bytes are copied.
  GraphValue constant(const Tensor &value);
  /// A constant from `data` (numElements * dtypeSize bytes, copied).
  GraphValue constant(DType dtype, std::vector<int64_t> shape,
                      const void *data);
  /// A rank-0 float32 constant.
  GraphValue scalar(float value);
  /// Marks `value` as the next model output.
  void output(GraphValue value, const std::string &name);

  //===--- Elementwise (NumPy broadcasting for binary ops) -------------===//

  GraphValue add(GraphValue lhs, GraphValue rhs);
  GraphValue sub(GraphValue lhs, GraphValue rhs);
  GraphValue mul(GraphValue lhs, GraphValue rhs);
  GraphValue div(GraphValue lhs, GraphValue rhs);
  GraphValue pow(GraphValue lhs, GraphValue rhs);
  GraphValue minimum(GraphValue lhs, GraphValue rhs);
  GraphValue maximum(GraphValue lhs, GraphValue rhs);

  GraphValue neg(GraphValue x);
  GraphValue abs(GraphValue x);
  GraphValue exp(GraphValue x);
  GraphValue log(GraphValue x);
  GraphValue sqrt(GraphValue x);
  GraphValue tanh(GraphValue x);
  GraphValue sigmoid(GraphValue x);
  GraphValue relu(GraphValue x);
  /// Exact (erf) GELU, or the tanh approximation.
  GraphValue gelu(GraphValue x, bool tanhApproximation = false);
  GraphValue erf(GraphValue x);
  /// Converts the element type.
  GraphValue cast(GraphValue x, DType to);

  //===--- Contractions and NN ops -------------------------------------===//

  /// Batched matrix product (NumPy matmul on rank >= 2 operands).
  GraphValue matmul(GraphValue lhs, GraphValue rhs);
  /// x[M,K] * w[N,K]^T + bias[N]: a fully connected layer (bias optional:
  /// pass an invalid GraphValue).
  GraphValue linear(GraphValue x, GraphValue weight, GraphValue bias);
  /// NCHW convolution with OIHW weights; pads are {top, left, bottom,
  /// right}; bias optional.
  GraphValue conv2d(GraphValue input, GraphValue weight, GraphValue bias,
                    std::vector<int64_t> strides = {1, 1},
                    std::vector<int64_t> pads = {0, 0, 0, 0},
                    std::vector<int64_t> dilations = {1, 1},
                    int64_t groups = 1);
  GraphValue maxPool2d(GraphValue input, std::vector<int64_t> kernel,
                       std::vector<int64_t> strides = {1, 1},
                       std::vector<int64_t> pads = {0, 0, 0, 0});
  GraphValue avgPool2d(GraphValue input, std::vector<int64_t> kernel,
                       std::vector<int64_t> strides = {1, 1},
                       std::vector<int64_t> pads = {0, 0, 0, 0});
  /// Mean over H and W of NCHW: [N, C, 1, 1].
  GraphValue globalAvgPool(GraphValue input);
  GraphValue softmax(GraphValue x, int64_t axis = -1);
  GraphValue logSoftmax(GraphValue x, int64_t axis = -1);
  /// Normalises over dimensions axis..rank-1; scale and bias have their
  /// shape (bias optional).
  GraphValue layerNorm(GraphValue x, GraphValue scale, GraphValue bias,
                       int64_t axis = -1, double epsilon = 1e-5);

  //===--- Reductions and shapes ---------------------------------------===//

  GraphValue reduceSum(GraphValue x, std::vector<int64_t> axes,
                       bool keepDims = false);
  GraphValue reduceMean(GraphValue x, std::vector<int64_t> axes,
                        bool keepDims = false);
  GraphValue reduceMax(GraphValue x, std::vector<int64_t> axes,
                       bool keepDims = false);
  /// Same elements, new static shape.
  GraphValue reshape(GraphValue x, std::vector<int64_t> shape);
  GraphValue transpose(GraphValue x, std::vector<int64_t> permutation);
  GraphValue concat(const std::vector<GraphValue> &values, int64_t axis);

  /// The model as kiln-dialect MLIR text (for reading and debugging).
  StatusOr<std::string> toMlirText() const;
  /// The model as MLIR bytecode (what ModelSource::graph uses).
  StatusOr<std::string> toBytecode() const;

  class Impl;

private:
  std::unique_ptr<Impl> impl_;
};

} // namespace kiln

#endif // KILN_GRAPH_H
