//===- JitModel.h - A model compiled for the inputs it runs on --*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Kiln compiles static shapes. A model whose shapes come from its inputs
// (Reshape's target shape, Slice's bounds, a symbolic batch dimension)
// cannot be compiled before those inputs are known; kiln::JitModel compiles
// it when it runs, specialised to them, and keeps each specialisation:
//
//   auto compiler = kiln::Compiler::create();
//   auto model = kiln::JitModel::create(std::move(*compiler),
//                                       kiln::ModelSource::file("m.onnx"));
//   auto outputs = (*model)->run({data, shape});   // compiles for `shape`
//   outputs = (*model)->run({data2, shape});       // cached: runs at once
//   outputs = (*model)->run({data, otherShape});   // compiles again
//
// What a specialisation is keyed by: the values of the inputs that feed a
// shape (they become constants and leave the compiled model's inputs) and
// the shapes of inputs with symbolic dimensions. Everything else is a
// run-time input as usual. Which inputs are which, the importer finds out:
// the first compile that stops at such an input names it, and the JIT binds
// it and compiles again.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_JITMODEL_H
#define KILN_JITMODEL_H

#include "kiln/kiln.h"

#include <cstddef>
#include <list>
#include <memory>
#include <string>
#include <vector>

namespace kiln {

/// A model compiled at its first run for the inputs given, and again for
/// each new set of shape-feeding values (cached by value).
///
/// Ownership: owns its compiler and every cached Executable.
/// Thread safety: as Executable: serialise the calls on one JitModel.
class JitModel {
public:
  /// Most specialisations kept; the least recently used goes first.
  static constexpr size_t kDefaultMaxVariants = 8;

  /// Tries to compile `source` as it is. A model that needs no input to
  /// compile is compiled now (its errors are returned here); one that does
  /// is compiled by the first run(). Other failures are returned as
  /// Compiler::compile returns them.
  static StatusOr<std::unique_ptr<JitModel>>
  create(std::unique_ptr<Compiler> compiler, ModelSource source,
         size_t maxVariants = kDefaultMaxVariants);

  ~JitModel();
  JitModel(const JitModel &) = delete;
  JitModel &operator=(const JitModel &) = delete;

  /// The model's inputs in the order run() takes them: every graph input,
  /// the compiled-in ones included (inputs the compiler's options bind are
  /// not inputs).
  const std::vector<std::string> &inputNames() const { return inputNames_; }
  /// Inputs whose values are compiled in, as found so far.
  const std::vector<std::string> &compileTimeInputs() const {
    return compileTimeInputs_;
  }
  /// Inputs whose shapes are taken from each run's tensors.
  const std::vector<std::string> &shapeInputs() const { return shapeInputs_; }

  /// The Executable specialised to `inputs` (one per inputNames()), compiled
  /// now unless cached. It takes runtimeInputs(inputs). The pointer stays
  /// valid until this specialisation is evicted (by a later specialize or
  /// run) or the JitModel goes.
  StatusOr<Executable *> specialize(const std::vector<Tensor> &inputs);
  /// The tensors of `inputs` that the specialisation runs on: all but the
  /// compiled-in ones, in the order Executable::inputs() lists them.
  StatusOr<std::vector<Tensor>>
  runtimeInputs(const Executable &executable,
                const std::vector<Tensor> &inputs) const;

  /// specialize(), then runs it with the run-time inputs.
  Status run(const std::vector<Tensor> &inputs, std::vector<Tensor> &outputs);
  StatusOr<std::vector<Tensor>> run(const std::vector<Tensor> &inputs);

  /// How many compiles ran (the first included); cache hits do not count.
  size_t compilations() const { return compilations_; }
  /// Specialisations cached now.
  size_t cachedVariants() const { return variants_.size(); }

private:
  struct Variant {
    std::string key;
    std::unique_ptr<Executable> executable;
  };
  JitModel(std::unique_ptr<Compiler> compiler, ModelSource source,
           size_t maxVariants);
  /// What distinguishes one specialisation from another for `inputs`.
  std::string keyFor(const std::vector<Tensor> &inputs) const;
  /// Compiles for `inputs`, learning new compile-time and shape inputs from
  /// where each attempt stops.
  StatusOr<std::unique_ptr<Executable>>
  compileFor(const std::vector<Tensor> &inputs);
  /// Index of `name` in inputNames(), or -1.
  int indexOf(const std::string &name) const;

  std::unique_ptr<Compiler> compiler_;
  ModelSource source_;
  size_t maxVariants_;
  std::vector<std::string> inputNames_;
  std::vector<std::string> compileTimeInputs_;
  std::vector<std::string> shapeInputs_;
  /// Most recently used first.
  std::list<Variant> variants_;
  size_t compilations_ = 0;
};

} // namespace kiln

#endif // KILN_JITMODEL_H
