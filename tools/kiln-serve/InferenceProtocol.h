//===- InferenceProtocol.h - KServe v2 tensors in and out -------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The Open Inference Protocol (KServe v2) over REST: an infer request is a
// JSON document whose tensors are either JSON arrays or, with the binary
// tensor extension, raw little-endian bytes appended after the JSON (whose
// length the Inference-Header-Content-Length header gives). This file turns
// such a request into the model's input tensors, checked against its
// program, and its outputs back into a response. No HTTP here.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TOOLS_KILN_SERVE_INFERENCEPROTOCOL_H
#define KILN_TOOLS_KILN_SERVE_INFERENCEPROTOCOL_H

#include "kiln/runtime/Artifact.h"
#include "kiln/runtime/HostTensor.h"
#include "kiln/runtime/Status.h"

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace kiln::serve {

/// The protocol's name of a tensor type ("FP32", "INT64", "BOOL").
const char *protocolDatatype(rt::DType type);
std::optional<rt::DType> parseProtocolDatatype(const std::string &name);

/// A parsed infer request, its inputs in the program's order.
struct InferRequest {
  std::string id;
  std::vector<rt::HostTensor> inputs;
  /// parameters.priority (a level, 0 the highest), when given.
  std::optional<int> priority;
  /// parameters.timeout in microseconds (Triton's spelling), when given.
  std::optional<std::int64_t> timeoutMicros;
  /// Outputs asked for, in order (empty: every output, as JSON).
  std::vector<std::string> outputs;
  /// Outputs to send as binary data (by name).
  std::set<std::string> binaryOutputs;
  /// parameters.binary_data_output: every output as binary.
  bool allOutputsBinary = false;
};

/// Parses `body` for `program`. `jsonLength` is the
/// Inference-Header-Content-Length header (absent: the body is all JSON).
/// INVALID_ARGUMENT naming the input and what is wrong (or the JSON's
/// line:column) for anything malformed.
rt::StatusOr<InferRequest> parseInferRequest(const std::string &body,
                                             std::optional<size_t> jsonLength,
                                             const rt::Program &program);

struct InferResponseBody {
  std::string body;
  /// Set when binary outputs follow the JSON: its length, for the
  /// Inference-Header-Content-Length header.
  std::optional<size_t> jsonLength;
};

/// The response to `request` from `model` with `outputs` (the program's).
/// INVALID_ARGUMENT when the request names an output the model lacks.
rt::StatusOr<InferResponseBody>
encodeInferResponse(const std::string &model, const InferRequest &request,
                    const rt::Program &program,
                    const std::vector<rt::HostTensor> &outputs,
                    const std::string &version = "1");

/// `{"name":…,"versions":["1"],"platform":"kiln","inputs":[…],"outputs":[…]}`
/// (`versions`: every version of the model that is served).
std::string modelMetadataJson(const std::string &model,
                              const rt::Program &program,
                              const std::vector<std::string> &versions = {"1"});
/// `{"error":"…"}`
std::string errorJson(const std::string &message);

} // namespace kiln::serve

#endif // KILN_TOOLS_KILN_SERVE_INFERENCEPROTOCOL_H
