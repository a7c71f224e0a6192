//===- BatchVariants.cpp - Section kind 10 --------------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// variants := u32 count, variant*
// variant  := u32 batch, u64 size, size bytes (a complete artifact)
//
//===----------------------------------------------------------------------===//

#include "kiln/runtime/BatchVariants.h"

#include "ByteIO.h"
#include "NestedArtifact.h"

#include "kiln/runtime/Artifact.h"

namespace kiln::rt {

std::vector<uint8_t>
encodeBatchVariants(const std::vector<BatchVariant> &variants) {
  ByteWriter w;
  w.u32(uint32_t(variants.size()));
  for (const BatchVariant &variant : variants) {
    std::vector<uint8_t> bytes = encodeArtifact(*variant.artifact);
    w.u32(variant.batch);
    w.u64(bytes.size());
    w.raw(bytes.data(), bytes.size());
  }
  return std::move(w.bytes());
}

StatusOr<int64_t> programBatch(const Program &program) {
  int64_t rows = -1;
  std::string first;
  auto visit = [&](const std::vector<TensorSpec> &tensors,
                   const char *what) -> Status {
    for (const TensorSpec &tensor : tensors) {
      std::string named = std::string(what) + " '" + tensor.name + "'";
      if (tensor.hasRuntimeLength())
        return invalidArgument(named + " has a length that depends on the "
                                       "data: its rows are not a batch");
      if (tensor.shape.empty())
        return invalidArgument(named + " is a scalar: the model has no batch "
                                       "axis");
      if (rows >= 0 && tensor.shape[0] != rows)
        return invalidArgument(
            named + " has " + std::to_string(tensor.shape[0]) +
            " rows on axis 0, " + first + " has " + std::to_string(rows) +
            ": the model has no single batch axis");
      if (rows < 0) {
        rows = tensor.shape[0];
        first = named;
      }
    }
    return Status::ok();
  };
  KILN_RETURN_IF_ERROR(visit(program.inputs, "input"));
  KILN_RETURN_IF_ERROR(visit(program.outputs, "output"));
  if (rows < 0)
    return invalidArgument("the model has neither inputs nor outputs");
  return rows;
}

Status checkBatchVariant(const Program &base, const Program &variant,
                         int64_t batch) {
  auto compare = [&](const std::vector<TensorSpec> &ones,
                     const std::vector<TensorSpec> &many,
                     const char *what) -> Status {
    if (ones.size() != many.size())
      return invalidArgument(std::string("has a different number of ") + what +
                             "s");
    for (size_t i = 0; i < ones.size(); ++i) {
      const TensorSpec &one = ones[i], &row = many[i];
      std::vector<int64_t> expected = one.shape;
      if (!expected.empty())
        expected[0] = batch;
      if (row.name != one.name || row.dtype != one.dtype ||
          row.shape != expected)
        return invalidArgument(std::string(what) + " '" + row.name +
                               "' is not '" + one.name + "' with " +
                               std::to_string(batch) + " rows");
    }
    return Status::ok();
  };
  KILN_RETURN_IF_ERROR(compare(base.inputs, variant.inputs, "input"));
  return compare(base.outputs, variant.outputs, "output");
}

StatusOr<std::vector<BatchVariant>>
decodeBatchVariants(const uint8_t *bytes, size_t size, const Program &base,
                    const std::string &target, const std::string &name) {
  auto corrupt = [&](const std::string &what) {
    return dataLoss(name + ": corrupt batch variants section: " + what);
  };
  StatusOr<int64_t> baseRows = programBatch(base);
  if (!baseRows.isOk())
    return corrupt("batch variants of a model without one: " +
                   baseRows.status().message());
  ByteReader r(bytes, size);
  uint32_t count = r.u32();
  if (!r.ok() || count == 0 || count > kMaxBatchVariants)
    return corrupt("bad variant count");
  std::vector<BatchVariant> variants;
  int64_t previous = *baseRows;
  for (uint32_t i = 0; i < count; ++i) {
    uint32_t batch = r.u32();
    uint64_t length = r.u64();
    const uint8_t *data =
        r.ok() && length <= r.remaining() ? r.take(size_t(length)) : nullptr;
    std::string where = "variant #" + std::to_string(i);
    if (!data)
      return corrupt("truncated " + where);
    if (int64_t(batch) <= previous)
      return corrupt(where + " has batch " + std::to_string(batch) +
                     ", not above " + std::to_string(previous));
    previous = batch;
    std::string variantName = name + " (batch " + std::to_string(batch) + ")";
    StatusOr<Artifact> artifact =
        decodeNestedArtifact(data, size_t(length), variantName);
    if (!artifact.isOk())
      return artifact.status();
    if (artifact->target != target)
      return corrupt(where + " is for target '" + artifact->target +
                     "', the artifact for '" + target + "'");
    if (Status same = checkBatchVariant(base, artifact->program, batch);
        !same.isOk())
      return corrupt(where + ": " + same.message());
    variants.push_back(
        {batch, std::make_shared<const Artifact>(std::move(*artifact))});
  }
  if (r.remaining() != 0)
    return corrupt("trailing bytes");
  return variants;
}

} // namespace kiln::rt
