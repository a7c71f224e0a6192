//===- Samples.h - Folders of input samples (calibration, validation) -----===//
//
// SPDX-License-Identifier: Apache-2.0
//
// int8 calibration and the accuracy budget read the same layout: a folder
// with one sub-folder per sample, holding one INPUT.npy per model input.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_DRIVER_SAMPLES_H
#define KILN_COMPILER_DRIVER_SAMPLES_H

#include "compiler/Driver/Driver.h"
#include "kiln/runtime/Artifact.h"
#include "kiln/runtime/HostTensor.h"

#include <string>
#include <vector>

namespace kiln::compiler {

/// The sample folders of `folder`, sorted by name; `flag` names the
/// option in errors ("--calibration-data").
DriverError listSamples(const std::string &folder, const std::string &flag,
                        std::vector<std::string> &samples);

/// One sample's inputs, checked against the model's (dtype and shape).
DriverError readSample(const std::string &sample,
                       const std::vector<rt::TensorSpec> &specs,
                       std::vector<rt::HostTensor> &inputs);

} // namespace kiln::compiler

#endif // KILN_COMPILER_DRIVER_SAMPLES_H
