//===- BufferAccess.cpp - Memrefs as (kernel argument, strided layout) ----===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "compiler/Codegen/CUDA/BufferAccess.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Support/LLVM.h"

using namespace mlir;

namespace kiln::compiler::cuda {

namespace {
constexpr uint64_t kConstantAlignment = 256;

uint64_t memrefBytes(MemRefType type) {
  return uint64_t(type.getNumElements()) *
         uint64_t(deviceElementBytes(type.getElementType()));
}

/// Appends the elements of `value` as the device stores them.
LogicalResult appendElements(DenseElementsAttr value,
                             std::vector<uint8_t> &out) {
  Type element = value.getElementType();
  int64_t count = value.getNumElements();
  if (element.isInteger(1)) {
    for (bool bit : value.getValues<bool>())
      out.push_back(bit ? 1 : 0);
    return success();
  }
  int64_t width = deviceElementBytes(element);
  if (width <= 0 || int64_t(element.getIntOrFloatBitWidth()) != width * 8)
    return failure();
  ArrayRef<char> raw = value.getRawData();
  if (value.isSplat()) {
    for (int64_t i = 0; i < count; ++i)
      out.insert(out.end(), raw.begin(), raw.begin() + width);
    return success();
  }
  if (int64_t(raw.size()) != count * width)
    return failure();
  out.insert(out.end(), raw.begin(), raw.end());
  return success();
}
} // namespace

int64_t deviceElementBytes(Type type) {
  if (type.isInteger(1))
    return 1;
  if (type.isIntOrFloat())
    return (type.getIntOrFloatBitWidth() + 7) / 8;
  if (type.isIndex())
    return 8;
  return 0;
}

bool BufferAccess::isContiguous() const {
  int64_t expected = 1;
  for (int64_t i = int64_t(shape.size()) - 1; i >= 0; --i) {
    if (shape[i] != 1 && strides[i] != expected)
      return false;
    expected *= shape[i];
  }
  return true;
}

int64_t BufferAccess::elements() const {
  int64_t count = 1;
  for (int64_t size : shape)
    count *= size;
  return count;
}

int64_t BufferAccess::lastElement() const {
  int64_t last = offset;
  for (auto [size, stride] : llvm::zip(shape, strides))
    last += (size - 1) * stride;
  return last;
}

FailureOr<uint64_t> ConstantPool::offsetOf(Operation *op) {
  auto global = dyn_cast<memref::GlobalOp>(op);
  if (!global)
    return failure();
  auto found = offsets_.find(global.getSymName());
  if (found != offsets_.end())
    return found->second;
  Attribute initial = global.getInitialValue().value_or(Attribute());
  if (auto resource = dyn_cast_or_null<DenseResourceElementsAttr>(initial)) {
    // Large weights (the ONNX importer's) live in a resource blob.
    AsmResourceBlob *blob = resource.getRawHandle().getBlob();
    auto type = cast<ShapedType>(resource.getType());
    int64_t bytes = type.getNumElements() *
                    deviceElementBytes(type.getElementType());
    if (!blob || int64_t(blob->getData().size()) != bytes ||
        type.getElementType().isInteger(1)) {
      global.emitError("constant '")
          << global.getSymName() << "' has no data of the expected size";
      return failure();
    }
    bytes_.resize((bytes_.size() + kConstantAlignment - 1) /
                  kConstantAlignment * kConstantAlignment);
    uint64_t offset = bytes_.size();
    bytes_.insert(bytes_.end(), blob->getData().begin(),
                  blob->getData().end());
    offsets_[global.getSymName()] = offset;
    return offset;
  }
  auto value = dyn_cast_or_null<DenseElementsAttr>(initial);
  if (!value) {
    global.emitError("CUDA code generation needs constant initialisers");
    return failure();
  }
  bytes_.resize((bytes_.size() + kConstantAlignment - 1) /
                kConstantAlignment * kConstantAlignment);
  uint64_t offset = bytes_.size();
  if (failed(appendElements(value, bytes_))) {
    global.emitError("constant of element type ")
        << value.getElementType() << " has no device layout";
    return failure();
  }
  offsets_[global.getSymName()] = offset;
  return offset;
}

FailureOr<BufferRoot> BufferResolver::resolveRoot(Value memref) {
  auto type = cast<MemRefType>(memref.getType());
  if (auto argument = dyn_cast<BlockArgument>(memref)) {
    if (argument.getOwner()->getParentOp() != entry_.getOperation())
      return failure();
    unsigned number = argument.getArgNumber();
    BufferRoot root;
    root.bytes = memrefBytes(type);
    if (number < numInputs_) {
      root.base = rt::KernelArg::Base::kInput;
      root.index = number;
    } else if (number < numInputs_ + numOutputs_) {
      root.base = rt::KernelArg::Base::kOutput;
      root.index = number - numInputs_;
    } else {
      root.base = rt::KernelArg::Base::kArena;
    }
    return root;
  }
  Operation *producer = memref.getDefiningOp();
  if (auto view = dyn_cast_or_null<memref::ViewOp>(producer)) {
    FailureOr<BufferRoot> arena = resolveRoot(view.getSource());
    APInt shift;
    if (failed(arena) || !matchPattern(view.getByteShift(), m_ConstantInt(&shift)))
      return failure();
    arena->byteOffset += shift.getZExtValue();
    arena->bytes = memrefBytes(type);
    return arena;
  }
  if (auto get = dyn_cast_or_null<memref::GetGlobalOp>(producer)) {
    Operation *global =
        SymbolTable::lookupNearestSymbolFrom(get, get.getNameAttr());
    FailureOr<uint64_t> offset =
        global ? constants_.offsetOf(global) : FailureOr<uint64_t>(failure());
    if (failed(offset)) {
      constantFailed_ = global != nullptr;
      return failure();
    }
    BufferRoot root;
    root.base = rt::KernelArg::Base::kConstants;
    root.byteOffset = *offset;
    root.bytes = memrefBytes(type);
    return root;
  }
  // Views keep their offset in their type: only the root matters here.
  if (auto view = dyn_cast_or_null<ViewLikeOpInterface>(producer))
    return resolveRoot(view.getViewSource());
  return failure();
}

FailureOr<BufferAccess> BufferResolver::resolve(Value memref) {
  auto type = dyn_cast<MemRefType>(memref.getType());
  auto fail = [&](const Twine &why) -> FailureOr<BufferAccess> {
    if (Operation *producer = memref.getDefiningOp())
      producer->emitError("CUDA code generation: ") << why;
    else
      entry_.emitError("CUDA code generation: ") << why;
    return failure();
  };
  if (!type || !type.hasStaticShape())
    return fail("buffers must have static shapes");
  BufferAccess access;
  access.elementType = type.getElementType();
  if (deviceElementBytes(access.elementType) == 0)
    return fail("unsupported element type");
  if (failed(type.getStridesAndOffset(access.strides, access.offset)) ||
      ShapedType::isDynamic(access.offset) ||
      llvm::any_of(access.strides, ShapedType::isDynamic))
    return fail("buffers must have static strides and offsets");
  access.shape.assign(type.getShape().begin(), type.getShape().end());
  FailureOr<BufferRoot> root = resolveRoot(memref);
  if (failed(root) && constantFailed_)
    return failure(); // Already reported on the constant.
  if (failed(root))
    return fail("buffer is not a view of an input, output, arena or constant");
  access.root = *root;
  return access;
}

} // namespace kiln::compiler::cuda
