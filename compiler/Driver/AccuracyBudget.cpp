//===- AccuracyBudget.cpp - int8 layers chosen within a top-1 budget ------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Greedy by measured sensitivity: every trial is a real compile of the
// model with some layers in int8 and a run over the validation set, so
// the reported drop is what the artifact does, not an estimate. A model
// with L quantizable layers costs 2 + L trials, plus up to L more when
// not every layer fits the budget.
//
//===----------------------------------------------------------------------===//

#include "compiler/Driver/AccuracyBudget.h"

#include "compiler/Driver/Samples.h"
#include "compiler/MemoryPlanning/EntrySignature.h"
#include "compiler/Quantization/QuantizeGraph.h"
#include "kiln/runtime/Npy.h"

#include "mlir/IR/Location.h"

#include <algorithm>
#include <numeric>

using namespace mlir;
using namespace kiln;
using namespace kiln::compiler;

namespace {

/// The labels of FILE.npy: a 1-D array of int32 or int64 class indices.
DriverError readLabels(const std::string &path, std::vector<int64_t> &labels) {
  auto tensor = rt::readNpyFile(path);
  if (!tensor.isOk())
    return {ErrorKind::kInvalidInput,
            "--validation-labels: " + tensor.status().message()};
  if (tensor->shape.size() != 1 ||
      (tensor->dtype != rt::DType::kI64 && tensor->dtype != rt::DType::kI32))
    return {ErrorKind::kInvalidInput,
            "--validation-labels " + path +
                ": expected a 1-D array of int64 or int32 class indices"};
  labels.resize(tensor->numElements());
  for (size_t i = 0; i < labels.size(); ++i)
    labels[i] = tensor->dtype == rt::DType::kI64
                    ? reinterpret_cast<const int64_t *>(tensor->data.data())[i]
                    : reinterpret_cast<const int32_t *>(tensor->data.data())[i];
  return {};
}

std::string layerName(Operation *op, size_t index) {
  Location loc = op->getLoc();
  if (auto fused = dyn_cast<FusedLoc>(loc))
    for (Location part : fused.getLocations())
      if (isa<NameLoc>(part)) {
        loc = part;
        break;
      }
  if (auto name = dyn_cast<NameLoc>(loc))
    return name.getName().str();
  return "#" + std::to_string(index);
}

/// Compiles copies of the model and measures their top-1.
class Trials {
public:
  Trials(ModuleOp module, const std::string &function,
         const std::vector<QuantParams> &params, const PipelineOptions &options)
      : module(module), function(function), params(params), options(options) {}

  DriverError load(const std::vector<rt::TensorSpec> &specs) {
    std::vector<std::string> folders;
    if (DriverError error =
            listSamples(options.validationData, "--validation-data", folders))
      return error;
    for (const std::string &folder : folders) {
      samples.emplace_back();
      if (DriverError error = readSample(folder, specs, samples.back()))
        return error;
    }
    return readLabels(options.validationLabels, labels);
  }

  /// Predictions scored per trial (rows of the first output).
  size_t predictionCount() const { return labels.size(); }

  /// Top-1 (percent) with the points in `quantize` in int8.
  DriverError top1(const std::vector<bool> &quantize, double &accuracy) {
    OwningOpRef<ModuleOp> copy(module.clone());
    auto func = copy->lookupSymbol<func::FuncOp>(function);
    SmallVector<Operation *> points = int8QuantizationPoints(func);
    for (size_t i = 0; i < points.size(); ++i)
      if (quantize[i])
        quantizeContraction(points[i], params[i]);
    PipelineOptions trial = options;
    trial.precision = "fp32";
    trial.timing = nullptr;
    trial.maxAccuracyDrop = -1;
    trial.precisionReport = nullptr;
    std::unique_ptr<CpuJitExecutable> executable;
    if (DriverError error = compileForCpu(*copy, function, executable, trial))
      return {error.kind,
              "compiling a trial of the accuracy budget: " + error.message};
    size_t seen = 0, correct = 0;
    std::vector<rt::HostTensor> outputs;
    for (const std::vector<rt::HostTensor> &inputs : samples) {
      if (rt::Status status = executable->run(inputs, outputs); !status.isOk())
        return {ErrorKind::kInvalidInput,
                "--validation-data: " + status.message()};
      const rt::HostTensor &scores = outputs.front();
      if (scores.dtype != rt::DType::kF32 || scores.shape.empty() ||
          scores.shape.back() < 1)
        return {ErrorKind::kInvalidInput,
                "--max-accuracy-drop: the model's first output must be f32 "
                "class scores [..., CLASSES]"};
      int64_t classes = scores.shape.back();
      auto *values = reinterpret_cast<const float *>(scores.data.data());
      for (int64_t row = 0; row < scores.numElements() / classes; ++row) {
        const float *begin = values + row * classes;
        int64_t predicted = std::max_element(begin, begin + classes) - begin;
        if (seen < labels.size() && labels[seen] == predicted)
          ++correct;
        ++seen;
      }
    }
    if (seen != labels.size())
      return {ErrorKind::kInvalidInput,
              "--validation-labels " + options.validationLabels + " holds " +
                  std::to_string(labels.size()) +
                  " labels but the model predicts " + std::to_string(seen) +
                  " over the " + std::to_string(samples.size()) +
                  " validation samples"};
    accuracy = seen ? 100.0 * double(correct) / double(seen) : 0;
    return {};
  }

private:
  ModuleOp module;
  const std::string &function;
  const std::vector<QuantParams> &params;
  const PipelineOptions &options;
  std::vector<std::vector<rt::HostTensor>> samples;
  std::vector<int64_t> labels;
};

} // namespace

DriverError kiln::compiler::chooseInt8Layers(
    ModuleOp module, const std::string &function,
    const std::vector<QuantParams> &params, const PipelineOptions &options,
    std::vector<bool> &quantize, rt::PrecisionReport &report) {
  FailureOr<EntrySignature> signature = getEntrySignature(module, function);
  if (failed(signature))
    return {ErrorKind::kInternal, "the accuracy budget lost the entry"};
  Trials trials(module, function, params, options);
  if (DriverError error = trials.load(signature->inputs))
    return error;
  size_t count = params.size();
  auto func = module.lookupSymbol<func::FuncOp>(function);
  SmallVector<Operation *> points = int8QuantizationPoints(func);

  report = {};
  report.budget = options.maxAccuracyDrop;
  report.predictions = uint32_t(trials.predictionCount());
  std::vector<bool> none(count, false), all(count, true);
  if (DriverError error = trials.top1(none, report.fp32Top1))
    return error;
  if (DriverError error = trials.top1(all, report.allInt8Top1))
    return error;
  for (size_t i = 0; i < count; ++i) {
    std::vector<bool> alone(count, false);
    alone[i] = true;
    double accuracy;
    if (DriverError error = trials.top1(alone, accuracy))
      return error;
    report.layers.push_back(
        {layerName(points[i], i), false, report.fp32Top1 - accuracy});
  }

  double budget = options.maxAccuracyDrop;
  if (report.fp32Top1 - report.allInt8Top1 <= budget) {
    quantize = all;
    report.finalTop1 = report.allInt8Top1;
  } else {
    // The least sensitive first; each addition is measured, not summed.
    std::vector<size_t> order(count);
    std::iota(order.begin(), order.end(), 0);
    // Ties keep program order (std::stable_sort's buffer is deprecated
    // under -Werror here; the index breaks ties instead).
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
      double da = report.layers[a].soloDrop, db = report.layers[b].soloDrop;
      return da != db ? da < db : a < b;
    });
    quantize = none;
    report.finalTop1 = report.fp32Top1;
    for (size_t i : order) {
      std::vector<bool> trial = quantize;
      trial[i] = true;
      double accuracy;
      if (DriverError error = trials.top1(trial, accuracy))
        return error;
      if (report.fp32Top1 - accuracy <= budget) {
        quantize = trial;
        report.finalTop1 = accuracy;
      }
    }
  }
  for (size_t i = 0; i < count; ++i)
    report.layers[i].int8 = quantize[i];
  return {};
}
