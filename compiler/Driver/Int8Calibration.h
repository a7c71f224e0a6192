//===- Int8Calibration.h - int8 post-training quantization ------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_DRIVER_INT8CALIBRATION_H
#define KILN_COMPILER_DRIVER_INT8CALIBRATION_H

#include "compiler/Driver/Driver.h"

namespace kiln::compiler {

/// Calibrates `module` (checked and cleaned up) on the samples of
/// `options.calibrationData` with `options.calibrationMethod` and rewrites
/// its contractions into the int8 QDQ form. Bad calibration data is
/// kInvalidInput, naming the sample and file.
DriverError quantizeInt8(mlir::ModuleOp module, const PipelineOptions &options);

} // namespace kiln::compiler

#endif // KILN_COMPILER_DRIVER_INT8CALIBRATION_H
