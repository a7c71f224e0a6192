//===- TensorImport.cpp - ONNX tensors and types into MLIR ----------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// External data is read only from regular files inside the model's folder:
// absolute paths, ".." components and symbolic links are refused, so a model
// cannot make the compiler read arbitrary files.
//
//===----------------------------------------------------------------------===//

#include "frontend/onnx/TensorImport.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <cstring>

using namespace mlir;

namespace kiln::onnx {

namespace {
// TensorProto.DataType values.
enum DataType : int32_t {
  kFloat = 1, kUint8 = 2, kInt8 = 3, kUint16 = 4, kInt16 = 5, kInt32 = 6,
  kInt64 = 7, kString = 8, kBool = 9, kFloat16 = 10, kDouble = 11,
  kUint32 = 12, kUint64 = 13, kComplex64 = 14, kComplex128 = 15,
  kBfloat16 = 16,
};
} // namespace

const char *onnxTypeName(int32_t dataType) {
  static const char *names[] = {"UNDEFINED", "FLOAT",     "UINT8",
                                "INT8",      "UINT16",    "INT16",
                                "INT32",     "INT64",     "STRING",
                                "BOOL",      "FLOAT16",   "DOUBLE",
                                "UINT32",    "UINT64",    "COMPLEX64",
                                "COMPLEX128", "BFLOAT16"};
  if (dataType >= 0 && dataType < int32_t(std::size(names)))
    return names[dataType];
  return "unknown";
}

bool isUnsupportedOnnxType(int32_t dataType) {
  switch (dataType) {
  case kString: case kComplex64: case kComplex128:
    return true;
  default:
    // FLOAT8 variants and 4-bit types of newer ONNX versions.
    return dataType > kBfloat16 && dataType <= 23;
  }
}

Type importElementType(MLIRContext *context, int32_t dataType, Location loc) {
  Builder b(context);
  switch (dataType) {
  case kFloat:
    return b.getF32Type();
  case kFloat16:
    return b.getF16Type();
  case kBfloat16:
    return b.getBF16Type();
  case kDouble:
    return b.getF64Type();
  case kBool:
    return b.getI1Type();
  case kInt8:
    return b.getI8Type();
  case kInt16:
    return b.getI16Type();
  case kInt32:
    return b.getI32Type();
  case kInt64:
    return b.getI64Type();
  // Unsigned until kiln-lower-unsigned (the same bits, signless).
  case kUint8:
    return b.getIntegerType(8, /*isSigned=*/false);
  case kUint16:
    return b.getIntegerType(16, /*isSigned=*/false);
  case kUint32:
    return b.getIntegerType(32, /*isSigned=*/false);
  case kUint64:
    return b.getIntegerType(64, /*isSigned=*/false);
  default:
    if (isUnsupportedOnnxType(dataType))
      emitError(loc) << "tensor element type " << onnxTypeName(dataType)
                     << " is not supported by Kiln";
    else
      emitError(loc) << "invalid tensor element type " << dataType;
    return {};
  }
}

namespace {

/// Reads external data (`location`, `offset`, `length`) relative to the
/// model's folder.
FailureOr<std::string> readExternalData(const ::onnx::TensorProto &tensor,
                                        const std::string &modelFolder,
                                        Location loc) {
  std::string location;
  uint64_t offset = 0, length = 0;
  bool hasLength = false;
  for (const ::onnx::StringStringEntryProto &entry : tensor.external_data()) {
    char *end = nullptr;
    if (entry.key() == "location") {
      location = entry.value();
    } else if (entry.key() == "offset") {
      offset = std::strtoull(entry.value().c_str(), &end, 10);
      if (entry.value().empty() || *end || entry.value()[0] == '-')
        return emitError(loc) << "external data offset '" << entry.value()
                              << "' is not a number";
    } else if (entry.key() == "length") {
      length = std::strtoull(entry.value().c_str(), &end, 10);
      hasLength = true;
      if (entry.value().empty() || *end || entry.value()[0] == '-')
        return emitError(loc) << "external data length '" << entry.value()
                              << "' is not a number";
    }
  }
  if (location.empty())
    return emitError(loc) << "external data without a location";
  if (llvm::sys::path::is_absolute(location))
    return emitError(loc) << "external data path '" << location
                          << "' is absolute; it must be inside the model's "
                             "folder";
  llvm::SmallString<256> path(modelFolder);
  for (auto it = llvm::sys::path::begin(location),
            end = llvm::sys::path::end(location);
       it != end; ++it) {
    if (*it == "..")
      return emitError(loc) << "external data path '" << location
                            << "' leaves the model's folder";
    // Every component is checked, not just the last: a symbolic link to a
    // folder would lead outside just as well.
    llvm::sys::path::append(path, *it);
    llvm::sys::fs::file_status component;
    if (llvm::sys::fs::status(path, component, /*follow=*/false))
      return emitError(loc) << "external data file '" << location
                            << "' does not exist";
    if (component.type() == llvm::sys::fs::file_type::symlink_file)
      return emitError(loc) << "external data path '" << location
                            << "' goes through a symbolic link; links are "
                               "refused";
  }
  llvm::sys::fs::file_status status;
  if (llvm::sys::fs::status(path, status, /*follow=*/false))
    return emitError(loc) << "external data file '" << location
                          << "' does not exist";
  if (status.type() != llvm::sys::fs::file_type::regular_file)
    return emitError(loc) << "external data file '" << location
                          << "' is not a regular file";
  // A hard link can name a file anywhere on the same file system.
  if (status.getLinkCount() > 1)
    return emitError(loc) << "external data file '" << location
                          << "' has several hard links; it must be a plain "
                             "file inside the model's folder";
  uint64_t size = status.getSize();
  if (offset > size || (hasLength && length > size - offset))
    return emitError(loc) << "external data range [" << offset << ", +"
                          << length << ") lies outside '" << location
                          << "' (" << size << " bytes)";
  if (!hasLength)
    length = size - offset;
  auto buffer = llvm::MemoryBuffer::getFileSlice(path, length, offset);
  if (!buffer)
    return emitError(loc) << "cannot read external data file '" << location
                          << "'";
  return (*buffer)->getBuffer().str();
}

} // namespace

FailureOr<DenseElementsAttr> importTensor(const ::onnx::TensorProto &tensor,
                                          MLIRContext *context,
                                          const std::string &modelFolder,
                                          Location loc) {
  Type element = importElementType(context, tensor.data_type(), loc);
  if (!element)
    return failure();
  SmallVector<int64_t> shape;
  int64_t count = 1;
  for (int64_t dim : tensor.dims()) {
    if (dim < 0)
      return emitError(loc) << "tensor '" << tensor.name()
                            << "' has a negative dimension " << dim;
    if (llvm::MulOverflow(count, dim, count) || count > (int64_t(1) << 40))
      return emitError(loc) << "tensor '" << tensor.name()
                            << "' is implausibly large";
    shape.push_back(dim);
  }
  auto type = RankedTensorType::get(shape, element);
  unsigned bits = element.getIntOrFloatBitWidth();
  size_t elementBytes = bits == 1 ? 1 : bits / 8;

  // Raw little-endian bytes: raw_data, or an external file.
  std::string external;
  const std::string *raw = nullptr;
  if (tensor.data_location() == ::onnx::TensorProto::EXTERNAL) {
    FailureOr<std::string> data = readExternalData(tensor, modelFolder, loc);
    if (failed(data))
      return failure();
    external = std::move(*data);
    raw = &external;
  } else if (tensor.has_raw_data()) {
    raw = &tensor.raw_data();
  }
  if (raw) {
    if (raw->size() != uint64_t(count) * elementBytes)
      return emitError(loc) << "tensor '" << tensor.name() << "' holds "
                            << raw->size() << " bytes of data, its shape needs "
                            << uint64_t(count) * elementBytes;
    if (bits == 1) {
      SmallVector<bool> values;
      for (char c : *raw)
        values.push_back(c != 0);
      return DenseElementsAttr::get(type, ArrayRef<bool>(values));
    }
    bool detectedSplat = false;
    ArrayRef<char> bytes(raw->data(), raw->size());
    if (!DenseElementsAttr::isValidRawBuffer(type, bytes, detectedSplat))
      return emitError(loc) << "tensor '" << tensor.name()
                            << "' has malformed raw data";
    return DenseElementsAttr::getFromRawBuffer(type, bytes);
  }

  // Typed fields. The field used depends on the data type (onnx.proto).
  auto countMismatch = [&](int64_t present) {
    return emitError(loc) << "tensor '" << tensor.name() << "' holds "
                          << present << " values, its shape needs " << count;
  };
  switch (tensor.data_type()) {
  case kFloat: {
    if (tensor.float_data_size() != count)
      return countMismatch(tensor.float_data_size());
    SmallVector<float> values(tensor.float_data().begin(),
                              tensor.float_data().end());
    return DenseElementsAttr::get(type, ArrayRef<float>(values));
  }
  case kDouble: {
    if (tensor.double_data_size() != count)
      return countMismatch(tensor.double_data_size());
    SmallVector<double> values(tensor.double_data().begin(),
                               tensor.double_data().end());
    return DenseElementsAttr::get(type, ArrayRef<double>(values));
  }
  case kInt64: {
    if (tensor.int64_data_size() != count)
      return countMismatch(tensor.int64_data_size());
    SmallVector<int64_t> values(tensor.int64_data().begin(),
                                tensor.int64_data().end());
    return DenseElementsAttr::get(type, ArrayRef<int64_t>(values));
  }
  case kUint32:
  case kUint64: {
    if (tensor.uint64_data_size() != count)
      return countMismatch(tensor.uint64_data_size());
    SmallVector<APInt> values;
    for (uint64_t v : tensor.uint64_data())
      values.push_back(APInt(bits, v, /*isSigned=*/false,
                             /*implicitTrunc=*/true));
    return DenseElementsAttr::get(type, values);
  }
  default: {
    // int32_data carries INT32, INT16, INT8, UINT16, UINT8, BOOL and the
    // bits of FLOAT16 / BFLOAT16.
    if (tensor.int32_data_size() != count)
      return countMismatch(tensor.int32_data_size());
    SmallVector<APInt> values;
    for (int32_t v : tensor.int32_data())
      values.push_back(bits == 1
                           ? APInt(1, v != 0)
                           : APInt(bits, uint64_t(int64_t(v)), /*isSigned=*/true,
                                   /*implicitTrunc=*/true));
    if (isa<FloatType>(element)) {
      SmallVector<APFloat> floats;
      for (const APInt &v : values)
        floats.emplace_back(cast<FloatType>(element).getFloatSemantics(), v);
      return DenseElementsAttr::get(type, floats);
    }
    return DenseElementsAttr::get(type, values);
  }
  }
}

} // namespace kiln::onnx
