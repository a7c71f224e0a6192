//===- InitAllPasses.h - Register every Kiln pass and pipeline --*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_INITALLPASSES_H
#define KILN_COMPILER_INITALLPASSES_H

namespace kiln {

/// Registers Kiln's passes and named pipelines, and the upstream passes Kiln
/// pipelines use, with the global pass registry (for kiln-opt and
/// `parsePassPipeline`).
void registerAllPasses();

} // namespace kiln

#endif // KILN_COMPILER_INITALLPASSES_H
