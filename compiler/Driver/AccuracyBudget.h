//===- AccuracyBudget.h - int8 layers chosen within a top-1 budget -*- C++
//-*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// kilnc --precision int8 --max-accuracy-drop PTS --validation-data DIR
// --validation-labels FILE.npy: which calibrated contractions to quantize
// so that the measured top-1 stays within PTS points of fp32.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_DRIVER_ACCURACYBUDGET_H
#define KILN_COMPILER_DRIVER_ACCURACYBUDGET_H

#include "compiler/Driver/Driver.h"
#include "compiler/Quantization/Observers.h"
#include "kiln/runtime/PrecisionReport.h"

#include <vector>

namespace kiln::compiler {

/// Measures top-1 on the validation samples through copies of `module`
/// compiled for this CPU: in fp32, with every one of its int8
/// quantization points (int8QuantizationPoints of `function`, calibrated
/// to `params`) in int8, and with each alone (its sensitivity). If all of
/// them lose more than the budget, it adds points from the least
/// sensitive on, measuring each step, while the loss stays within it.
/// `quantize` says which points to quantize; `report` what was measured.
/// Bad validation data is kInvalidInput, naming the sample or file.
DriverError chooseInt8Layers(mlir::ModuleOp module, const std::string &function,
                             const std::vector<QuantParams> &params,
                             const PipelineOptions &options,
                             std::vector<bool> &quantize,
                             rt::PrecisionReport &report);

} // namespace kiln::compiler

#endif // KILN_COMPILER_DRIVER_ACCURACYBUDGET_H
