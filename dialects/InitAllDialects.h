//===- InitAllDialects.h - Register every Kiln dialect ----------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECTS_INITALLDIALECTS_H
#define KILN_DIALECTS_INITALLDIALECTS_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace kiln {

/// Adds every Kiln dialect, and the upstream dialects Kiln IR may contain, to
/// `registry`.
void registerAllDialects(mlir::DialectRegistry &registry);

} // namespace kiln

#endif // KILN_DIALECTS_INITALLDIALECTS_H
