//===- Nvrtc.h - NVRTC, loaded at run time ------------------------*- C++
//-*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Compiles CUDA C++ to PTX or CUBIN with NVRTC. The library is opened with
// dlopen, so that Kiln builds and runs (CPU only) without the CUDA
// toolkit; only compiling for a CUDA target needs it. KILN_NVRTC names the
// library to load instead of libnvrtc.so.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_TARGET_NVRTC_H
#define KILN_COMPILER_TARGET_NVRTC_H

#include "kiln/runtime/Status.h"

#include <cstdint>
#include <string>
#include <vector>

namespace kiln::compiler {

/// What NVRTC produces.
enum class NvrtcOutput { kPtx, kCubin };

class Nvrtc {
public:
  /// The process-wide NVRTC, loaded on first use; kUnavailable when the
  /// library cannot be found.
  static rt::StatusOr<const Nvrtc *> get();

  /// NVRTC's version as "major.minor".
  std::string version() const;

  /// Compiles `source` for `arch` (e.g. 90: compute_90 for PTX, sm_90 for
  /// CUBIN). A CUBIN compilation also has the PTX it assembled: `ptx`, when
  /// given, receives it (one front-end run instead of two). The log of a
  /// failed compilation is in the status message.
  rt::StatusOr<std::vector<uint8_t>>
  compile(const std::string &source, unsigned arch, NvrtcOutput output,
          const std::vector<std::string> &options,
          std::vector<uint8_t> *ptx = nullptr) const;

  /// Options Kiln compiles every program with (without the arch).
  static std::vector<std::string> defaultOptions();

  struct Api;

private:
  explicit Nvrtc(const Api *api) : api_(api) {}
  const Api *api_;
};

} // namespace kiln::compiler

#endif // KILN_COMPILER_TARGET_NVRTC_H
