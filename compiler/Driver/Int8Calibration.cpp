//===- Int8Calibration.cpp - int8 post-training quantization --------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Kiln calibrates with its own CPU backend: a copy of the model that also
// returns the activation of every quantizable contraction is compiled in
// fp32 and run on each calibration sample, one at a time, into streaming
// observers. Their ranges give the activations' int8 parameters, and the
// model is rewritten into the QDQ form (compiler/Quantization).
//
//===----------------------------------------------------------------------===//

#include "compiler/Driver/Int8Calibration.h"
#include "compiler/Driver/AccuracyBudget.h"
#include "compiler/Driver/Samples.h"

#include "compiler/MemoryPlanning/EntrySignature.h"
#include "compiler/Quantization/QuantizeGraph.h"
#include "kiln/runtime/Npy.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <algorithm>

using namespace mlir;
using namespace kiln;
using namespace kiln::compiler;

namespace {

/// Where calibration reads a point's activation: a model input, or an
/// extra output of the calibration copy.
struct Source {
  bool isInput;
  unsigned index;
};

/// Makes `func` also return the activation of each of `points`.
std::vector<Source> exposeActivations(func::FuncOp func,
                                      ArrayRef<Operation *> points) {
  std::vector<Source> sources;
  Operation *ret = func.getBody().back().getTerminator();
  for (Operation *point : points) {
    Value activation = point->getOperand(0);
    if (auto argument = dyn_cast<BlockArgument>(activation)) {
      sources.push_back({true, argument.getArgNumber()});
      continue;
    }
    unsigned index = func.getNumResults();
    (void)func.insertResult(index, activation.getType(), DictionaryAttr());
    ret->insertOperands(ret->getNumOperands(), activation);
    sources.push_back({false, index});
  }
  return sources;
}

} // namespace

DriverError kiln::compiler::quantizeInt8(ModuleOp module,
                                         const PipelineOptions &options) {
  std::optional<CalibrationMethod> method =
      parseCalibrationMethod(options.calibrationMethod);
  if (!method)
    return {ErrorKind::kUsage, "unknown calibration method '" +
                                   options.calibrationMethod +
                                   "' (minmax, percentile, entropy)"};
  FailureOr<EntrySignature> signature = getEntrySignature(module, "");
  if (failed(signature))
    return {ErrorKind::kInvalidInput,
            "int8 calibration needs a model with one entry function"};
  auto func = module.lookupSymbol<func::FuncOp>(signature->function);
  SmallVector<Operation *> points = int8QuantizationPoints(func);
  if (points.empty())
    return {};

  std::vector<std::string> samples;
  if (DriverError error =
          listSamples(options.calibrationData, "--calibration-data", samples))
    return error;

  OwningOpRef<ModuleOp> copy(module.clone());
  auto copyFunc = copy->lookupSymbol<func::FuncOp>(signature->function);
  std::vector<Source> sources =
      exposeActivations(copyFunc, int8QuantizationPoints(copyFunc));
  PipelineOptions fp32 = options;
  fp32.precision = "fp32";
  fp32.timing = nullptr;
  std::unique_ptr<CpuJitExecutable> executable;
  if (DriverError error =
          compileForCpu(*copy, signature->function, executable, fp32))
    return {error.kind, "compiling the calibration copy: " + error.message};

  std::vector<RangeObserver> observers(points.size(), RangeObserver(*method));
  int passes = observers.front().needsSecondPass() ? 2 : 1;
  std::vector<rt::HostTensor> inputs, outputs;
  for (int pass = 0; pass < passes; ++pass)
    for (const std::string &sample : samples) {
      if (DriverError error = readSample(sample, signature->inputs, inputs))
        return error;
      if (rt::Status status = executable->run(inputs, outputs); !status.isOk())
        return {ErrorKind::kInvalidInput, sample + ": " + status.message()};
      for (auto [observer, source] : llvm::zip(observers, sources)) {
        const rt::HostTensor &tensor =
            source.isInput ? inputs[source.index] : outputs[source.index];
        auto *values = reinterpret_cast<const float *>(tensor.data.data());
        size_t count = tensor.numElements();
        if (pass == 0)
          observer.observeRange(values, count);
        else
          observer.observeHistogram(values, count);
      }
    }
  std::vector<QuantParams> params;
  for (const RangeObserver &observer : observers) {
    auto [lo, hi] = observer.range();
    params.push_back(int8ParamsForRange(lo, hi));
  }
  std::vector<bool> quantize(points.size(), true);
  if (options.maxAccuracyDrop >= 0) {
    rt::PrecisionReport report;
    if (DriverError error = chooseInt8Layers(module, signature->function,
                                             params, options, quantize, report))
      return error;
    if (options.precisionReport)
      *options.precisionReport = std::move(report);
  }
  for (size_t i = 0; i < points.size(); ++i)
    if (quantize[i])
      quantizeContraction(points[i], params[i]);
  return {};
}
