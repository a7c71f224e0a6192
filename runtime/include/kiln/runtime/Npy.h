//===- Npy.h - NumPy .npy files in and out ----------------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Model inputs and outputs travel as NumPy .npy files (format versions 1-3,
// little-endian, C order). The parser treats its input as untrusted: every
// length is checked before use and errors name the file and the problem.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_NPY_H
#define KILN_RUNTIME_NPY_H

#include "kiln/runtime/HostTensor.h"
#include "kiln/runtime/Status.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace kiln::rt {

/// Parses the bytes of a .npy file; `name` is used in error messages.
StatusOr<HostTensor> parseNpy(const uint8_t *bytes, size_t size,
                              const std::string &name);

/// Reads and parses the .npy file at `path`.
StatusOr<HostTensor> readNpyFile(const std::string &path);

/// Encodes `tensor` as a version 1.0 .npy file. bf16 has no NumPy dtype and
/// is refused.
StatusOr<std::string> encodeNpy(const HostTensor &tensor);

/// Encodes `tensor` and writes it to `path`.
Status writeNpyFile(const std::string &path, const HostTensor &tensor);

} // namespace kiln::rt

#endif // KILN_RUNTIME_NPY_H
