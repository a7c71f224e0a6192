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
    registerControlFlowConverters(r);
    registerIndexingConverters(r);
    registerLinearAlgebraConverters(r);
    registerElementwiseConverters(r);
    registerGradientConverters(r);
    registerNNConverters(r);
    registerQuantizationConverters(r);
    registerRecurrentConverters(r);
    registerRoiAlignConverters(r);
    registerDataDependentConverters(r);
    registerReductionConverters(r);
    registerSamplingConverters(r);
    registerSequenceConverters(r);
    registerShapeConverters(r);
    registerSignalConverters(r);
    registerTextConverters(r);
    registerTrainingConverters(r);
    return r;
  }();
  return registry;
}

void ConverterRegistry::add(llvm::StringRef opType, int64_t sinceVersion,
                            Converter converter) {
  converters_[opType].push_back({sinceVersion, converter});
}

Converter ConverterRegistry::lookup(llvm::StringRef domain,
                                    llvm::StringRef opType,
                                    int64_t version) const {
  if (domain.empty() || domain == "ai.onnx")
    return lookup(opType, version);
  return find((domain + "." + opType).str(), version);
}

bool ConverterRegistry::knowsDomain(llvm::StringRef domain) const {
  for (const auto &entry : converters_)
    if (entry.getKey().starts_with((domain + ".").str()))
      return true;
  return false;
}

Converter ConverterRegistry::lookup(llvm::StringRef opType,
                                    int64_t opset) const {
  // A default-domain op type has no dot: "x.Op" is another domain's name.
  if (opType.contains('.'))
    return nullptr;
  return find(opType, opset);
}

Converter ConverterRegistry::find(llvm::StringRef key, int64_t version) const {
  int64_t opset = version;
  auto it = converters_.find(key);
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
    if (!entry.getKey().contains('.'))
      types.push_back(entry.getKey().str());
  llvm::sort(types);
  return types;
}

} // namespace kiln::onnx
