// graph-jit: build a small MLP with kiln::Graph, JIT-compile it for this CPU,
// run it on a batch, and check the result against a plain C++ reference.
//
//   graph-jit            exit 0 when Kiln and the reference agree
#include <kiln/Graph.h>
#include <kiln/kiln.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

namespace {
constexpr int kBatch = 4, kIn = 16, kHidden = 32, kOut = 8;

kiln::Tensor randomTensor(std::vector<int64_t> shape, std::mt19937 &rng) {
  kiln::Tensor t;
  t.dtype = kiln::DType::kF32;
  t.shape = std::move(shape);
  std::vector<float> values(size_t(t.numElements()));
  std::uniform_real_distribution<float> dist(-1.f, 1.f);
  for (float &v : values)
    v = dist(rng);
  t.data.resize(values.size() * sizeof(float));
  std::memcpy(t.data.data(), values.data(), t.data.size());
  return t;
}

const float *floats(const kiln::Tensor &t) {
  return reinterpret_cast<const float *>(t.data.data());
}

/// y = softmax(relu(x W1^T + b1) W2^T + b2), row by row.
std::vector<float> reference(const kiln::Tensor &x, const kiln::Tensor &w1,
                             const kiln::Tensor &b1, const kiln::Tensor &w2,
                             const kiln::Tensor &b2) {
  std::vector<float> out(kBatch * kOut);
  for (int n = 0; n < kBatch; ++n) {
    float hidden[kHidden];
    for (int j = 0; j < kHidden; ++j) {
      float acc = floats(b1)[j];
      for (int k = 0; k < kIn; ++k)
        acc += floats(x)[n * kIn + k] * floats(w1)[j * kIn + k];
      hidden[j] = acc > 0 ? acc : 0;
    }
    float logits[kOut], max = -INFINITY, sum = 0;
    for (int j = 0; j < kOut; ++j) {
      float acc = floats(b2)[j];
      for (int k = 0; k < kHidden; ++k)
        acc += hidden[k] * floats(w2)[j * kHidden + k];
      logits[j] = acc;
      max = std::fmax(max, acc);
    }
    for (int j = 0; j < kOut; ++j)
      sum += std::exp(logits[j] - max);
    for (int j = 0; j < kOut; ++j)
      out[n * kOut + j] = std::exp(logits[j] - max) / sum;
  }
  return out;
}
} // namespace

int main() {
  std::mt19937 rng(42);
  kiln::Tensor w1 = randomTensor({kHidden, kIn}, rng);
  kiln::Tensor b1 = randomTensor({kHidden}, rng);
  kiln::Tensor w2 = randomTensor({kOut, kHidden}, rng);
  kiln::Tensor b2 = randomTensor({kOut}, rng);
  kiln::Tensor x = randomTensor({kBatch, kIn}, rng);

  // 1. Build the model: weights are copied from host memory.
  kiln::Graph graph("mlp");
  kiln::GraphValue input = graph.input("x", kiln::DType::kF32, {kBatch, kIn});
  kiln::GraphValue hidden =
      graph.relu(graph.linear(input, graph.constant(w1), graph.constant(b1)));
  kiln::GraphValue logits =
      graph.linear(hidden, graph.constant(w2), graph.constant(b2));
  graph.output(graph.softmax(logits, -1), "probabilities");
  if (!graph.status().isOk()) {
    std::fprintf(stderr, "%s\n", graph.status().message().c_str());
    return kiln::exitCodeFor(graph.status());
  }

  // 2. Compile it in-process for this CPU.
  auto compiler = kiln::Compiler::create();
  auto source = kiln::ModelSource::graph(graph);
  if (!compiler.isOk() || !source.isOk())
    return 4;
  auto model = (*compiler)->compile(*source);
  if (!model.isOk()) {
    std::fprintf(stderr, "%s\n", model.status().message().c_str());
    return kiln::exitCodeFor(model.status());
  }

  // 3. Run it (as many times as you like) and compare with the reference.
  auto outputs = (*model)->run({x});
  if (!outputs.isOk()) {
    std::fprintf(stderr, "%s\n", outputs.status().message().c_str());
    return kiln::exitCodeFor(outputs.status());
  }
  std::vector<float> expected = reference(x, w1, b1, w2, b2);
  const float *got = floats((*outputs)[0]);
  double maxError = 0;
  for (size_t i = 0; i < expected.size(); ++i)
    maxError = std::fmax(maxError, std::fabs(got[i] - expected[i]));
  std::printf("output '%s' [%d, %d], row 0: ",
              (*model)->outputs()[0].name.c_str(), kBatch, kOut);
  for (int j = 0; j < kOut; ++j)
    std::printf("%.4f ", got[j]);
  std::printf("\nmax abs error vs C++ reference: %.3g\n", maxError);
  if (maxError > 1e-5) {
    std::fprintf(stderr, "graph-jit: MISMATCH\n");
    return 1;
  }
  std::printf("graph-jit: OK\n");
  return 0;
}
