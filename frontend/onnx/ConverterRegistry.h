//===- ConverterRegistry.h - ONNX op converters by (op, opset) --*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Each converter is registered for an op type and the first opset whose
// semantics it implements; a model with opset N uses the converter with the
// largest since-version <= N. Op families register themselves from their
// own files (ops/*.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef KILN_FRONTEND_ONNX_CONVERTERREGISTRY_H
#define KILN_FRONTEND_ONNX_CONVERTERREGISTRY_H

#include "frontend/onnx/ImportContext.h"

#include "llvm/ADT/StringMap.h"

#include <string>
#include <vector>

namespace kiln::onnx {

using Converter = mlir::LogicalResult (*)(ImportContext &);

class ConverterRegistry {
public:
  /// The registry with every family's converters.
  static const ConverterRegistry &get();

  /// Registers `converter` for `opType` from `sinceVersion` on. Ops of
  /// another domain are registered as "domain.OpType" (the name ONNX tools
  /// print), e.g. "ai.onnx.preview.training.Adagrad".
  void add(llvm::StringRef opType, int64_t sinceVersion, Converter converter);

  /// The converter for `opType` in the default domain at `opset`, or null.
  Converter lookup(llvm::StringRef opType, int64_t opset) const;
  /// The converter for `opType` of `domain` ("" or "ai.onnx" is the default
  /// one) at that domain's `version`, or null.
  Converter lookup(llvm::StringRef domain, llvm::StringRef opType,
                   int64_t version) const;
  /// Whether any converter belongs to `domain` (not the default one).
  bool knowsDomain(llvm::StringRef domain) const;

  /// Every default-domain op type with a converter, sorted (the ONNX
  /// fuzzer's mutator draws op types from it).
  std::vector<std::string> opTypes() const;

private:
  /// The newest converter registered under `key` at or before `version`.
  Converter find(llvm::StringRef key, int64_t version) const;
  struct Entry {
    int64_t sinceVersion;
    Converter converter;
  };
  llvm::StringMap<std::vector<Entry>> converters_;
};

void registerCompositeConverters(ConverterRegistry &registry);
void registerContractionConverters(ConverterRegistry &registry);
void registerControlFlowConverters(ConverterRegistry &registry);
void registerGradientConverters(ConverterRegistry &registry);
void registerIndexingConverters(ConverterRegistry &registry);
void registerLinearAlgebraConverters(ConverterRegistry &registry);
void registerElementwiseConverters(ConverterRegistry &registry);
void registerNNConverters(ConverterRegistry &registry);
void registerQuantizationConverters(ConverterRegistry &registry);
void registerRecurrentConverters(ConverterRegistry &registry);
void registerRoiAlignConverters(ConverterRegistry &registry);
void registerDataDependentConverters(ConverterRegistry &registry);
void registerReductionConverters(ConverterRegistry &registry);
void registerSamplingConverters(ConverterRegistry &registry);
void registerSequenceConverters(ConverterRegistry &registry);
void registerShapeConverters(ConverterRegistry &registry);
void registerSignalConverters(ConverterRegistry &registry);
void registerTextConverters(ConverterRegistry &registry);
void registerTrainingConverters(ConverterRegistry &registry);

/// Oldest and newest default-domain opsets the importer accepts. Old opsets
/// are safe: an op whose converter starts at a later since-version is
/// reported as unsupported, never converted with the wrong semantics.
inline constexpr int64_t kMinOpset = 1;
inline constexpr int64_t kMaxOpset = 17;

} // namespace kiln::onnx

#endif // KILN_FRONTEND_ONNX_CONVERTERREGISTRY_H
