//===- InferenceProtocol.cpp - KServe v2 tensors in and out ---------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "InferenceProtocol.h"

#include "kiln/runtime/serving/Json.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>

namespace kiln::serve {

using rt::DType;
using rt::HostTensor;
using rt::Status;
using rt::StatusOr;
namespace json = rt::serving::json;

namespace {

struct DatatypeName {
  DType type;
  const char *name;
};
constexpr DatatypeName kDatatypes[] = {
    {DType::kI1, "BOOL"},    {DType::kU8, "UINT8"},  {DType::kU16, "UINT16"},
    {DType::kU32, "UINT32"}, {DType::kU64, "UINT64"}, {DType::kI8, "INT8"},
    {DType::kI16, "INT16"},  {DType::kI32, "INT32"}, {DType::kI64, "INT64"},
    {DType::kF16, "FP16"},   {DType::kBF16, "BF16"}, {DType::kF32, "FP32"},
    {DType::kF64, "FP64"},
};

std::string shapeText(const std::vector<int64_t> &shape) {
  std::string text = "[";
  for (size_t i = 0; i < shape.size(); ++i)
    text += (i ? "," : "") + std::to_string(shape[i]);
  return text + "]";
}

uint16_t floatToHalf(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, 4);
  uint32_t sign = (bits >> 16) & 0x8000;
  int32_t exponent = int32_t((bits >> 23) & 0xff) - 127 + 15;
  uint32_t mantissa = bits & 0x7fffff;
  if (((bits >> 23) & 0xff) == 0xff) // inf or NaN
    return uint16_t(sign | 0x7c00 | (mantissa ? 0x200 : 0));
  if (exponent >= 31)
    return uint16_t(sign | 0x7c00);
  if (exponent <= 0) {
    if (exponent < -10)
      return uint16_t(sign);
    mantissa |= 0x800000;
    uint32_t shift = uint32_t(14 - exponent);
    uint32_t half = mantissa >> shift;
    uint32_t rest = mantissa & ((1u << shift) - 1);
    uint32_t halfway = 1u << (shift - 1);
    if (rest > halfway || (rest == halfway && (half & 1)))
      ++half;
    return uint16_t(sign | half);
  }
  uint32_t half = sign | (uint32_t(exponent) << 10) | (mantissa >> 13);
  uint32_t rest = mantissa & 0x1fff;
  if (rest > 0x1000 || (rest == 0x1000 && (half & 1)))
    ++half; // may carry into the exponent: still correctly rounded
  return uint16_t(half);
}

float halfToFloat(uint16_t half) {
  uint32_t sign = uint32_t(half & 0x8000) << 16;
  uint32_t exponent = (half >> 10) & 0x1f;
  uint32_t mantissa = half & 0x3ff;
  uint32_t bits;
  if (exponent == 0x1f) {
    bits = sign | 0x7f800000 | (mantissa << 13);
  } else if (exponent == 0) {
    if (mantissa == 0) {
      bits = sign;
    } else {
      int shift = 0;
      while (!(mantissa & 0x400)) {
        mantissa <<= 1;
        ++shift;
      }
      bits = sign | (uint32_t(127 - 15 - shift + 1) << 23) |
             ((mantissa & 0x3ff) << 13);
    }
  } else {
    bits = sign | ((exponent - 15 + 127) << 23) | (mantissa << 13);
  }
  float value;
  std::memcpy(&value, &bits, 4);
  return value;
}

uint16_t floatToBFloat(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, 4);
  if (std::isnan(value))
    return uint16_t((bits >> 16) | 0x40);
  bits += 0x7fff + ((bits >> 16) & 1); // round to nearest even
  return uint16_t(bits >> 16);
}

float bfloatToFloat(uint16_t value) {
  uint32_t bits = uint32_t(value) << 16;
  float result;
  std::memcpy(&result, &bits, 4);
  return result;
}

template <typename T> void put(std::vector<uint8_t> &bytes, size_t i, T v) {
  std::memcpy(bytes.data() + i * sizeof(T), &v, sizeof(T));
}
template <typename T> T get(const std::vector<uint8_t> &bytes, size_t i) {
  T v;
  std::memcpy(&v, bytes.data() + i * sizeof(T), sizeof(T));
  return v;
}

/// Writes JSON element `value` as element `i` of `tensor`, range-checked.
Status putElement(HostTensor &tensor, size_t i, const json::Value &value) {
  DType type = tensor.dtype;
  if (type == DType::kI1) {
    if (value.isBool()) {
      tensor.data[i] = value.asBool();
      return Status::ok();
    }
    if (value.isNumber() && (value.asNumber() == 0 || value.asNumber() == 1)) {
      tensor.data[i] = value.asNumber() != 0;
      return Status::ok();
    }
    return rt::invalidArgument("element " + std::to_string(i) +
                               " is not a boolean");
  }
  if (!value.isNumber())
    return rt::invalidArgument("element " + std::to_string(i) +
                               " is not a number");
  double v = value.asNumber();
  auto integer = [&](double low, double high) -> Status {
    if (v != std::floor(v) || v < low || v > high)
      return rt::invalidArgument("element " + std::to_string(i) + " (" +
                                 json::number(v) + ") is not a " +
                                 protocolDatatype(type));
    return Status::ok();
  };
  switch (type) {
  case DType::kF32:
    put<float>(tensor.data, i, float(v));
    return Status::ok();
  case DType::kF64:
    put<double>(tensor.data, i, v);
    return Status::ok();
  case DType::kF16:
    put<uint16_t>(tensor.data, i, floatToHalf(float(v)));
    return Status::ok();
  case DType::kBF16:
    put<uint16_t>(tensor.data, i, floatToBFloat(float(v)));
    return Status::ok();
#define KILN_INTEGER(KIND, T)                                                  \
  case DType::KIND: {                                                          \
    Status ok = integer(double(std::numeric_limits<T>::lowest()),              \
                        double(std::numeric_limits<T>::max()));                \
    if (!ok.isOk())                                                            \
      return ok;                                                               \
    put<T>(tensor.data, i, T(v));                                              \
    return Status::ok();                                                       \
  }
    KILN_INTEGER(kI8, int8_t)
    KILN_INTEGER(kI16, int16_t)
    KILN_INTEGER(kI32, int32_t)
    KILN_INTEGER(kI64, int64_t)
    KILN_INTEGER(kU8, uint8_t)
    KILN_INTEGER(kU16, uint16_t)
    KILN_INTEGER(kU32, uint32_t)
    KILN_INTEGER(kU64, uint64_t)
#undef KILN_INTEGER
  case DType::kI1:
    break;
  }
  return rt::internalError("unhandled datatype");
}

/// Appends element `i` of `tensor` as JSON. Non-finite floats have no JSON
/// spelling: null (the binary extension carries them exactly).
void appendElement(std::string &out, const HostTensor &tensor, size_t i) {
  char buffer[40];
  auto real = [&](double v, int digits) {
    if (!std::isfinite(v)) {
      out += "null";
      return;
    }
    std::snprintf(buffer, sizeof(buffer), "%.*g", digits, v);
    out += buffer;
  };
  switch (tensor.dtype) {
  case DType::kI1:
    out += tensor.data[i] ? "true" : "false";
    return;
  case DType::kF32:
    return real(get<float>(tensor.data, i), 9);
  case DType::kF64:
    return real(get<double>(tensor.data, i), 17);
  case DType::kF16:
    return real(halfToFloat(get<uint16_t>(tensor.data, i)), 9);
  case DType::kBF16:
    return real(bfloatToFloat(get<uint16_t>(tensor.data, i)), 9);
  case DType::kI8:
    out += std::to_string(get<int8_t>(tensor.data, i));
    return;
  case DType::kI16:
    out += std::to_string(get<int16_t>(tensor.data, i));
    return;
  case DType::kI32:
    out += std::to_string(get<int32_t>(tensor.data, i));
    return;
  case DType::kI64:
    out += std::to_string(get<int64_t>(tensor.data, i));
    return;
  case DType::kU8:
    out += std::to_string(get<uint8_t>(tensor.data, i));
    return;
  case DType::kU16:
    out += std::to_string(get<uint16_t>(tensor.data, i));
    return;
  case DType::kU32:
    out += std::to_string(get<uint32_t>(tensor.data, i));
    return;
  case DType::kU64:
    out += std::to_string(get<uint64_t>(tensor.data, i));
    return;
  }
}

/// The leaves of a (possibly nested) JSON array, in row-major order.
void flatten(const json::Value &value, std::vector<const json::Value *> &out,
             size_t limit) {
  if (out.size() > limit)
    return;
  if (!value.isArray()) {
    out.push_back(&value);
    return;
  }
  for (const json::Value &item : value.items())
    flatten(item, out, limit);
}

std::string tensorJsonHeader(const std::string &name, DType type,
                             const std::vector<int64_t> &shape) {
  std::string out = "{\"name\":" + json::quote(name) + ",\"datatype\":\"" +
                    protocolDatatype(type) + "\",\"shape\":" +
                    shapeText(shape);
  return out;
}

const rt::TensorSpec *findSpec(const std::vector<rt::TensorSpec> &specs,
                               const std::string &name) {
  for (const rt::TensorSpec &spec : specs)
    if (spec.name == name)
      return &spec;
  return nullptr;
}

Status readParameters(const json::Value &document, InferRequest &request) {
  const json::Value *parameters = document.find("parameters");
  if (!parameters)
    return Status::ok();
  if (!parameters->isObject())
    return rt::invalidArgument("\"parameters\" must be an object");
  if (const json::Value *priority = parameters->find("priority")) {
    double v = priority->isNumber() ? priority->asNumber() : -1;
    if (v != std::floor(v) || v < 0 || v > 1000)
      return rt::invalidArgument(
          "parameters.priority must be a non-negative integer level");
    request.priority = int(v);
  }
  if (const json::Value *timeout = parameters->find("timeout")) {
    double v = timeout->isNumber() ? timeout->asNumber() : -1;
    if (v != std::floor(v) || v <= 0 || v > 1e12)
      return rt::invalidArgument(
          "parameters.timeout must be a positive number of microseconds");
    request.timeoutMicros = int64_t(v);
  }
  if (const json::Value *binary = parameters->find("binary_data_output")) {
    if (!binary->isBool())
      return rt::invalidArgument(
          "parameters.binary_data_output must be a boolean");
    request.allOutputsBinary = binary->asBool();
  }
  return Status::ok();
}

Status readOutputs(const json::Value &document, InferRequest &request) {
  const json::Value *outputs = document.find("outputs");
  if (!outputs)
    return Status::ok();
  if (!outputs->isArray())
    return rt::invalidArgument("\"outputs\" must be an array");
  for (const json::Value &output : outputs->items()) {
    const json::Value *name = output.isObject() ? output.find("name") : nullptr;
    if (!name || !name->isString())
      return rt::invalidArgument("every requested output needs a \"name\"");
    request.outputs.push_back(name->asString());
    if (const json::Value *parameters = output.find("parameters"))
      if (const json::Value *binary = parameters->isObject()
                                          ? parameters->find("binary_data")
                                          : nullptr)
        if (binary->isBool() && binary->asBool())
          request.binaryOutputs.insert(name->asString());
  }
  return Status::ok();
}

} // namespace

const char *protocolDatatype(DType type) {
  for (const DatatypeName &entry : kDatatypes)
    if (entry.type == type)
      return entry.name;
  return "UNKNOWN";
}

std::optional<DType> parseProtocolDatatype(const std::string &name) {
  for (const DatatypeName &entry : kDatatypes)
    if (name == entry.name)
      return entry.type;
  return std::nullopt;
}

StatusOr<InferRequest> parseInferRequest(const std::string &body,
                                         std::optional<size_t> jsonLength,
                                         const rt::Program &program) {
  if (jsonLength && *jsonLength > body.size())
    return rt::invalidArgument(
        "Inference-Header-Content-Length (" + std::to_string(*jsonLength) +
        ") is larger than the body (" + std::to_string(body.size()) + ")");
  size_t headerSize = jsonLength ? *jsonLength : body.size();
  StatusOr<json::Value> parsed = json::parse(body.substr(0, headerSize));
  if (!parsed.isOk())
    return parsed.status().withContext("request body");
  const json::Value &document = *parsed;
  if (!document.isObject())
    return rt::invalidArgument("the request must be a JSON object");
  InferRequest request;
  if (const json::Value *id = document.find("id")) {
    if (!id->isString())
      return rt::invalidArgument("\"id\" must be a string");
    request.id = id->asString();
  }
  if (Status status = readParameters(document, request); !status.isOk())
    return status;
  if (Status status = readOutputs(document, request); !status.isOk())
    return status;

  const json::Value *inputs = document.find("inputs");
  if (!inputs || !inputs->isArray())
    return rt::invalidArgument("the request needs an \"inputs\" array");
  std::vector<std::optional<HostTensor>> byIndex(program.inputs.size());
  size_t binaryOffset = headerSize;
  for (const json::Value &input : inputs->items()) {
    const json::Value *name = input.isObject() ? input.find("name") : nullptr;
    if (!name || !name->isString())
      return rt::invalidArgument("every input needs a \"name\"");
    const std::string &inputName = name->asString();
    std::string where = "input '" + inputName + "': ";
    const rt::TensorSpec *spec = findSpec(program.inputs, inputName);
    if (!spec)
      return rt::invalidArgument(where + "the model has no such input");
    size_t index = size_t(spec - program.inputs.data());
    if (byIndex[index])
      return rt::invalidArgument(where + "given twice");

    const json::Value *datatype = input.find("datatype");
    if (!datatype || !datatype->isString())
      return rt::invalidArgument(where + "needs a \"datatype\"");
    std::optional<DType> type = parseProtocolDatatype(datatype->asString());
    if (!type)
      return rt::invalidArgument(where + "unknown datatype \"" +
                                 datatype->asString() + "\"");
    if (*type != spec->dtype)
      return rt::invalidArgument(where + "datatype " + datatype->asString() +
                                 ", the model expects " +
                                 protocolDatatype(spec->dtype));
    const json::Value *shape = input.find("shape");
    if (!shape || !shape->isArray())
      return rt::invalidArgument(where + "needs a \"shape\" array");
    std::vector<int64_t> dims;
    for (const json::Value &dim : shape->items()) {
      if (!dim.isNumber() || dim.asNumber() < 0 ||
          dim.asNumber() != std::floor(dim.asNumber()) ||
          dim.asNumber() > 9e15)
        return rt::invalidArgument(where +
                                   "shape entries must be non-negative "
                                   "integers");
      dims.push_back(int64_t(dim.asNumber()));
    }
    if (dims != spec->shape)
      return rt::invalidArgument(where + "shape " + shapeText(dims) +
                                 ", the model expects " +
                                 shapeText(spec->shape));

    HostTensor tensor;
    tensor.dtype = spec->dtype;
    tensor.shape = spec->shape;
    size_t count = size_t(tensor.numElements());
    size_t bytes = count * rt::dtypeSize(spec->dtype);
    tensor.data.assign(bytes, 0);

    const json::Value *parameters = input.find("parameters");
    const json::Value *binarySize =
        parameters && parameters->isObject()
            ? parameters->find("binary_data_size")
            : nullptr;
    const json::Value *data = input.find("data");
    if (binarySize) {
      if (!jsonLength)
        return rt::invalidArgument(
            where + "binary_data_size without an "
                    "Inference-Header-Content-Length header");
      if (!binarySize->isNumber() || binarySize->asNumber() != double(bytes))
        return rt::invalidArgument(where + "binary_data_size must be " +
                                   std::to_string(bytes) + " bytes");
      if (data)
        return rt::invalidArgument(where +
                                   "both \"data\" and binary_data_size");
      if (body.size() - binaryOffset < bytes)
        return rt::invalidArgument(where + "the body ends inside its " +
                                   std::to_string(bytes) + " binary bytes");
      std::memcpy(tensor.data.data(), body.data() + binaryOffset, bytes);
      binaryOffset += bytes;
    } else {
      if (!data)
        return rt::invalidArgument(where + "needs \"data\" (or binary data)");
      std::vector<const json::Value *> leaves;
      flatten(*data, leaves, count);
      if (leaves.size() != count)
        return rt::invalidArgument(
            where + (leaves.size() > count ? "more than " : "") +
            std::to_string(leaves.size() > count ? count : leaves.size()) +
            " elements for shape " + shapeText(dims) + " (" +
            std::to_string(count) + " needed)");
      for (size_t i = 0; i < count; ++i)
        if (Status status = putElement(tensor, i, *leaves[i]); !status.isOk())
          return status.withContext("input '" + inputName + "'");
    }
    byIndex[index] = std::move(tensor);
  }
  if (binaryOffset != body.size())
    return rt::invalidArgument(
        std::to_string(body.size() - binaryOffset) +
        " bytes of binary data after the last binary input");
  for (size_t i = 0; i < byIndex.size(); ++i) {
    if (!byIndex[i])
      return rt::invalidArgument("input '" + program.inputs[i].name +
                                 "' is missing");
    request.inputs.push_back(std::move(*byIndex[i]));
  }
  return request;
}

StatusOr<InferResponseBody>
encodeInferResponse(const std::string &model, const InferRequest &request,
                    const rt::Program &program,
                    const std::vector<HostTensor> &outputs,
                    const std::string &version) {
  std::vector<size_t> chosen;
  if (request.outputs.empty()) {
    for (size_t i = 0; i < program.outputs.size(); ++i)
      chosen.push_back(i);
  } else {
    for (const std::string &name : request.outputs) {
      const rt::TensorSpec *spec = findSpec(program.outputs, name);
      if (!spec)
        return rt::invalidArgument("output '" + name +
                                   "': the model has no such output");
      chosen.push_back(size_t(spec - program.outputs.data()));
    }
  }
  std::string header = "{\"model_name\":" + json::quote(model) +
                       ",\"model_version\":" + json::quote(version);
  if (!request.id.empty())
    header += ",\"id\":" + json::quote(request.id);
  header += ",\"outputs\":[";
  std::string binary;
  for (size_t n = 0; n < chosen.size(); ++n) {
    const rt::TensorSpec &spec = program.outputs[chosen[n]];
    const HostTensor &tensor = outputs.at(chosen[n]);
    header += (n ? "," : "") +
              tensorJsonHeader(spec.name, tensor.dtype, tensor.shape);
    if (request.allOutputsBinary || request.binaryOutputs.count(spec.name)) {
      header += ",\"parameters\":{\"binary_data_size\":" +
                std::to_string(tensor.data.size()) + "}}";
      binary.append(reinterpret_cast<const char *>(tensor.data.data()),
                    tensor.data.size());
      continue;
    }
    header += ",\"data\":[";
    size_t count = size_t(tensor.numElements());
    header.reserve(header.size() + count * 12);
    for (size_t i = 0; i < count; ++i) {
      if (i)
        header += ',';
      appendElement(header, tensor, i);
    }
    header += "]}";
  }
  header += "]}";
  InferResponseBody response;
  bool anyBinary = request.allOutputsBinary || !request.binaryOutputs.empty();
  if (anyBinary)
    response.jsonLength = header.size();
  response.body = std::move(header) + binary;
  return response;
}

std::string modelMetadataJson(const std::string &model,
                              const rt::Program &program,
                              const std::vector<std::string> &versions) {
  auto tensors = [](const std::vector<rt::TensorSpec> &specs) {
    std::string out = "[";
    for (size_t i = 0; i < specs.size(); ++i) {
      // A length the data decides is variable: -1, as the protocol says.
      std::vector<int64_t> shape = specs[i].shape;
      if (specs[i].hasRuntimeLength())
        shape[size_t(specs[i].lengthAxis)] = -1;
      out += (i ? "," : "") +
             tensorJsonHeader(specs[i].name, specs[i].dtype, shape) + "}";
    }
    return out + "]";
  };
  std::string versionList;
  for (const std::string &version : versions)
    versionList += (versionList.empty() ? "" : ",") + json::quote(version);
  return "{\"name\":" + json::quote(model) + ",\"versions\":[" + versionList +
         "],\"platform\":\"kiln\",\"inputs\":" + tensors(program.inputs) +
         ",\"outputs\":" + tensors(program.outputs) + "}";
}

std::string errorJson(const std::string &message) {
  return "{\"error\":" + json::quote(message) + "}";
}

} // namespace kiln::serve
