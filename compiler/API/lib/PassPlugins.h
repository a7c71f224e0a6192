//===- PassPlugins.h - Load pass plugins ------------------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_API_PASSPLUGINS_H
#define KILN_COMPILER_API_PASSPLUGINS_H

#include "compiler/Pipelines/PipelineExtensions.h"
#include "kiln/runtime/Status.h"

#include <string>

namespace kiln::compiler {

/// Loads the pass plugin at `path` (once per process: later loads of the
/// same file reuse the first registration), refusing it when its API
/// version differs, and adds its pipeline passes to `extensions`. Its
/// passes are registered by name (for kiln-opt and pipeline strings).
/// Thread-safe.
rt::Status loadPassPlugin(const std::string &path,
                          PipelineExtensions &extensions);

} // namespace kiln::compiler

#endif // KILN_COMPILER_API_PASSPLUGINS_H
