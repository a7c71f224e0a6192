//===- ConverterRegistry.cpp - ONNX op converters by (op, opset) ----------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "frontend/onnx/ConverterRegistry.h"

#include "llvm/ADT/STLExtras.h"

namespace kiln::onnx {

const ConverterRegistry &ConverterRegistry::get() {
  static const ConverterRegistry registry = [] {
    ConverterRegistry r;
    registerCompositeConverters(r);
    registerContractionConverters(r);
    registerIndexingConverters(r);
    registerElementwiseConverters(r);
    registerNNConverters(r);
    registerQuantizationConverters(r);
    registerRecurrentConverters(r);
    registerReductionConverters(r);
    registerSamplingConverters(r);
    registerShapeConverters(r);
    registerSignalConverters(r);
    return r;
  }();
  return registry;
}

void ConverterRegistry::add(llvm::StringRef opType, int64_t sinceVersion,
                            Converter converter) {
  converters_[opType].push_back({sinceVersion, converter});
}

Converter ConverterRegistry::lookup(llvm::StringRef opType,
                                    int64_t opset) const {
  auto it = converters_.find(opType);
  if (it == converters_.end())
    return nullptr;
  Converter best = nullptr;
  int64_t bestVersion = -1;
  for (const Entry &entry : it->second)
    if (entry.sinceVersion <= opset && entry.sinceVersion > bestVersion) {
      best = entry.converter;
      bestVersion = entry.sinceVersion;
    }
  return best;
}

std::vector<std::string> ConverterRegistry::opTypes() const {
  std::vector<std::string> types;
  for (const auto &entry : converters_)
    types.push_back(entry.getKey().str());
  llvm::sort(types);
  return types;
}

} // namespace kiln::onnx
