//===- ModelIO.h - Model inputs and outputs as .npy files -------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// What every runner does around a model: match NAME=FILE.npy arguments to
// the model's inputs, check them, and write each output to
// DIR/<file-safe name>.npy. Shared by kilnc and kiln-run.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_MODELIO_H
#define KILN_RUNTIME_MODELIO_H

#include "kiln/runtime/Artifact.h"
#include "kiln/runtime/HostTensor.h"
#include "kiln/runtime/Status.h"

#include <string>
#include <vector>

namespace kiln::rt {

/// An output name as a file name: every character outside [A-Za-z0-9_.-]
/// becomes '_', and a leading '.' gets a '_' in front (no hidden files, no
/// "..", no path separators).
std::string fileSafeName(const std::string &name);

/// A command-line input: NAME=FILE.npy.
struct InputFile {
  std::string name;
  std::string path;
};

/// Parses "NAME=FILE.npy".
StatusOr<InputFile> parseInputSpec(const std::string &spec);

/// Loads `files` in the order of the model's `inputs` and checks each
/// against its spec. A missing input is an error unless `synthesizeMissing`,
/// which fills it with deterministic pseudo-random values (benchmarks).
StatusOr<std::vector<HostTensor>>
loadInputs(const std::vector<InputFile> &files,
           const std::vector<TensorSpec> &inputs, bool synthesizeMissing);

/// Writes outputs[i] to `folder`/<fileSafeName(specs[i].name)>.npy, creating
/// the folder.
Status writeOutputs(const std::string &folder,
                    const std::vector<TensorSpec> &specs,
                    const std::vector<HostTensor> &outputs);

/// One line per output: name, dtype, shape and the first few values.
std::string summarizeOutputs(const std::vector<TensorSpec> &specs,
                             const std::vector<HostTensor> &outputs);

} // namespace kiln::rt

#endif // KILN_RUNTIME_MODELIO_H
