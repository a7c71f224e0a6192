//===- MemoryPlanAttr.cpp - The memory plan recorded on a module ----------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "compiler/MemoryPlanning/MemoryPlanAttr.h"

#include "mlir/IR/Builders.h"

using namespace mlir;

namespace kiln::compiler {

namespace {
/// Locations of fused ops can be long; the artifact caps names at 4 KiB.
std::string shortened(std::string text, size_t limit = 512) {
  if (text.size() <= limit)
    return text;
  size_t cut = limit;
  while (cut > 0 && (uint8_t(text[cut]) & 0xC0) == 0x80)
    --cut; // Never split a UTF-8 sequence.
  return text.substr(0, cut) + "...";
}
} // namespace

DictionaryAttr buildMemoryPlanAttr(func::FuncOp function,
                                   const FunctionBuffers &buffers,
                                   const plan::MemoryPlan &plan,
                                   std::optional<uint64_t> graphTensorBytes) {
  Builder b(function.getContext());
  auto i64 = [&](uint64_t value) {
    return b.getI64IntegerAttr(int64_t(value));
  };
  SmallVector<Attribute> records;
  for (auto [index, buffer] : llvm::enumerate(buffers.buffers)) {
    SmallVector<NamedAttribute> fields = {
        b.getNamedAttr("offset", i64(plan.offsets[index])),
        b.getNamedAttr("size", i64(buffer.bytes)),
        b.getNamedAttr("first", i64(buffer.firstUse)),
        b.getNamedAttr("last", i64(buffer.lastUse)),
        b.getNamedAttr(
            "op", b.getStringAttr(buffer.producer->getName().getStringRef())),
        b.getNamedAttr("loc", b.getStringAttr(shortened(describeLocation(
                                  buffer.producer->getLoc()))))};
    if (plan.inPlace[index])
      fields.push_back(b.getNamedAttr("in_place_of", i64(buffer.reuses)));
    records.push_back(b.getDictionaryAttr(fields));
  }
  SmallVector<NamedAttribute> fields = {
      b.getNamedAttr("function", b.getStringAttr(function.getSymName())),
      b.getNamedAttr("peak_bytes", i64(plan.peakBytes)),
      b.getNamedAttr("lower_bound_bytes", i64(plan.lowerBoundBytes)),
      b.getNamedAttr("unplanned_kernel_buffers_bytes",
                     i64(plan.unplannedBytes)),
      b.getNamedAttr("steps", i64(buffers.steps.size())),
      b.getNamedAttr("kernels", i64(buffers.kernels)),
      b.getNamedAttr("buffers", b.getArrayAttr(records)),
  };
  if (graphTensorBytes)
    fields.push_back(b.getNamedAttr("unplanned_bytes", i64(*graphTensorBytes)));
  return b.getDictionaryAttr(fields);
}

namespace {
/// A non-negative integer field of `dict` that fits in `T`.
template <typename T>
bool readField(DictionaryAttr dict, StringRef name, T &out) {
  auto attr = dict.getAs<IntegerAttr>(name);
  if (!attr || attr.getInt() < 0 ||
      uint64_t(attr.getInt()) > uint64_t(std::numeric_limits<T>::max()))
    return false;
  out = T(attr.getInt());
  return true;
}

bool readString(DictionaryAttr dict, StringRef name, std::string &out) {
  auto attr = dict.getAs<StringAttr>(name);
  if (!attr)
    return false;
  out = attr.str();
  return true;
}
} // namespace

FailureOr<rt::MemoryPlan> readMemoryPlan(ModuleOp module,
                                         llvm::StringRef function) {
  auto plans = module->getAttrOfType<ArrayAttr>(kMemoryPlanAttr);
  if (!plans)
    return failure();
  for (auto dict : plans.getAsRange<DictionaryAttr>()) {
    auto name = dict.getAs<StringAttr>("function");
    if (!name || name.getValue() != function)
      continue;
    rt::MemoryPlan plan;
    auto buffers = dict.getAs<ArrayAttr>("buffers");
    if (!buffers || !readField(dict, "peak_bytes", plan.peakBytes) ||
        !readField(dict, "lower_bound_bytes", plan.lowerBoundBytes) ||
        !readField(dict, "unplanned_kernel_buffers_bytes",
                   plan.unplannedKernelBuffersBytes) ||
        !readField(dict, "steps", plan.steps) ||
        !readField(dict, "kernels", plan.kernels))
      return failure();
    if (dict.get("unplanned_bytes")) {
      uint64_t unplanned;
      if (!readField(dict, "unplanned_bytes", unplanned))
        return failure();
      plan.unplannedBytes = unplanned;
    }
    for (Attribute attr : buffers) {
      auto record = dyn_cast<DictionaryAttr>(attr);
      rt::PlannedBuffer buffer;
      if (!record || !readField(record, "offset", buffer.offset) ||
          !readField(record, "size", buffer.size) ||
          !readField(record, "first", buffer.firstStep) ||
          !readField(record, "last", buffer.lastStep) ||
          !readString(record, "op", buffer.producer) ||
          !readString(record, "loc", buffer.location))
        return failure();
      if (record.get("in_place_of") &&
          !readField(record, "in_place_of", buffer.inPlaceOf))
        return failure();
      plan.buffers.push_back(std::move(buffer));
    }
    return plan;
  }
  return failure();
}

} // namespace kiln::compiler
