//===- StepCodec.h - Encoding of program steps ------------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// One format for the steps of every device (format version 2). Per step:
//
//   u32 kind, string kernel, u32 grid[3], u32 block[3], u32 shared bytes,
//   u32 argument count, per argument {u32 base, u32 index, u64 offset,
//   u64 bytes, u32 access}, u32 dependency count, u32 dependencies...,
//   then for kFill {u64 pattern, u32 pattern bytes} and for kCollective
//   {u32 kind, u32 reduction, u32 ranks, u32 peer, u32 element dtype}.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_SRC_ARTIFACT_STEPCODEC_H
#define KILN_RUNTIME_SRC_ARTIFACT_STEPCODEC_H

#include "ByteIO.h"
#include "kiln/runtime/Artifact.h"

namespace kiln::rt {

void encodeStep(ByteWriter &w, const Step &step);

/// Decodes step `index` of `device` (whose kind and arena are known) and
/// checks it on its own: kind allowed on the device, launch limits,
/// bindings inside the model's tensors and the arena, dependencies on
/// earlier steps only, sizes of copies, fills and collectives. Arguments
/// into the constants are checked once that section is known.
Status decodeStep(ByteReader &r, const Program &program,
                  const DeviceProgram &device, uint32_t index, Step &step,
                  const std::string &name, const std::string &where);

} // namespace kiln::rt

#endif // KILN_RUNTIME_SRC_ARTIFACT_STEPCODEC_H
