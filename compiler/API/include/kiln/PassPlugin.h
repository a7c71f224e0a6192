//===- PassPlugin.h - Kiln pass plugins -------------------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// A pass plugin is a shared library that adds MLIR passes to Kiln's
// pipeline at named points. kilnc and kiln-opt load plugins with
// `--load-pass-plugin=PATH`; C++ programs with CompileOptions::passPlugins.
//
// Unlike kiln.h, this header exposes MLIR: plugin passes are MLIR passes
// over the `kiln` dialect. A plugin exports one C function:
//
//   extern "C" KILN_PLUGIN_EXPORT kiln::PassPluginInfo kilnGetPassPluginInfo()
//   {
//     return {KILN_PLUGIN_API_VERSION, "my-plugin", "1.0",
//             [](kiln::PassPluginRegistrar &registrar) {
//               registrar.registerPass([] { return createMyPass(); });
//               registrar.addToPipeline(kiln::PipelinePoint::kBeforeFusion,
//                   [](mlir::OpPassManager &pm) { pm.addPass(createMyPass());
//                   });
//             }};
//   }
//
// Kiln refuses a plugin whose apiVersion differs from its own: the classes
// below and the MLIR it links must match exactly.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_PASSPLUGIN_H
#define KILN_PASSPLUGIN_H

#include <cstdint>
#include <functional>
#include <memory>

namespace mlir {
class OpPassManager;
class Pass;
} // namespace mlir

/// Bumped whenever this header or the pipeline points change.
#define KILN_PLUGIN_API_VERSION 1

#define KILN_PLUGIN_EXPORT __attribute__((visibility("default")))

namespace kiln {

/// Where plugin passes run, in pipeline order. Every point sees the whole
/// module (`builtin.module` holding `func.func`s of `kiln` ops).
enum class PipelinePoint {
  kAfterImport,   ///< Straight from the frontend: not yet verified or folded.
  kBeforeFusion,  ///< Verified against the graph contract, constants folded.
  kAfterFusion,   ///< Fusion groups formed (where fusion is enabled).
  kBeforeCodegen, ///< Last graph-level point, before lowering to linalg.
};

/// Number of PipelinePoint values.
inline constexpr int kNumPipelinePoints = 4;

/// The spelling used in messages and docs ("after-import", ...).
const char *pipelinePointName(PipelinePoint point);

/// Given to a plugin's registration function. Not thread-safe: plugins are
/// loaded and registered on one thread before compilation starts.
class PassPluginRegistrar {
public:
  virtual ~PassPluginRegistrar() = default;

  /// Makes a pass known by its argument, so that kiln-opt (and pass
  /// pipeline strings) can run it by name.
  virtual void
  registerPass(std::function<std::unique_ptr<mlir::Pass>()> factory) = 0;

  /// Adds passes at `point` of every compilation (kilnc and the C++ API).
  virtual void
  addToPipeline(PipelinePoint point,
                std::function<void(mlir::OpPassManager &)> build) = 0;
};

/// What kilnGetPassPluginInfo returns.
struct PassPluginInfo {
  /// KILN_PLUGIN_API_VERSION of the headers the plugin was built with.
  uint32_t apiVersion;
  /// Shown in messages; need not be unique.
  const char *name;
  const char *version;
  /// Registers the plugin's passes; called once per load.
  void (*registerPlugin)(PassPluginRegistrar &registrar);
};

} // namespace kiln

extern "C" {
/// The entry point every plugin defines.
KILN_PLUGIN_EXPORT kiln::PassPluginInfo kilnGetPassPluginInfo();
}

#endif // KILN_PASSPLUGIN_H
