//===- PassPlugins.cpp - Load pass plugins --------------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// A plugin is dlopen'ed for good (its passes' code must outlive every
// compilation) and registered once: MLIR's pass registry is process-wide,
// so a second registration of the same library would only repeat work.
//
//===----------------------------------------------------------------------===//

#include "PassPlugins.h"

#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/DynamicLibrary.h"
#include "llvm/Support/FileSystem.h"

#include <map>
#include <mutex>

namespace kiln::compiler {

namespace {
/// Collects what a plugin registers.
class Registrar : public PassPluginRegistrar {
public:
  void
  registerPass(std::function<std::unique_ptr<mlir::Pass>()> factory) override {
    mlir::registerPass(factory);
  }
  void
  addToPipeline(PipelinePoint point,
                std::function<void(mlir::OpPassManager &)> build) override {
    extensions.add(point, std::move(build));
  }
  PipelineExtensions extensions;
};

std::mutex pluginsMutex;
/// Loaded plugins by real path: what each added to the pipeline. Never
/// destroyed: its std::functions point into the plugins, which LLVM may
/// already have unloaded when static destructors run.
std::map<std::string, PipelineExtensions> &loadedPlugins() {
  static auto *plugins = new std::map<std::string, PipelineExtensions>();
  return *plugins;
}

rt::Status usage(std::string message) {
  return rt::Status(rt::StatusCode::kFailedPrecondition, std::move(message));
}
} // namespace

rt::Status loadPassPlugin(const std::string &path,
                          PipelineExtensions &extensions) {
  llvm::SmallString<256> real;
  if (llvm::sys::fs::real_path(path, real))
    return usage("cannot load pass plugin '" + path + "': no such file");
  std::lock_guard<std::mutex> lock(pluginsMutex);
  auto found = loadedPlugins().find(std::string(real));
  if (found != loadedPlugins().end()) {
    extensions.append(found->second);
    return rt::Status::ok();
  }
  std::string error;
  auto library =
      llvm::sys::DynamicLibrary::getPermanentLibrary(real.c_str(), &error);
  if (!library.isValid())
    return usage("cannot load pass plugin '" + path + "': " + error);
  void *symbol = library.getAddressOfSymbol("kilnGetPassPluginInfo");
  if (!symbol)
    return usage("'" + path +
                 "' is not a Kiln pass plugin: it does not define "
                 "kilnGetPassPluginInfo (see kiln/PassPlugin.h)");
  auto getInfo = reinterpret_cast<PassPluginInfo (*)()>(symbol);
  PassPluginInfo info = getInfo();
  std::string name = info.name ? info.name : "?";
  if (info.apiVersion != KILN_PLUGIN_API_VERSION)
    return usage("pass plugin '" + name + "' (" + path +
                 ") was built for Kiln plugin API version " +
                 std::to_string(info.apiVersion) + ", but this Kiln has " +
                 "version " + std::to_string(KILN_PLUGIN_API_VERSION) +
                 ": rebuild the plugin against this Kiln");
  if (!info.registerPlugin)
    return usage("pass plugin '" + name + "' (" + path +
                 ") has no registration function");
  Registrar registrar;
  info.registerPlugin(registrar);
  extensions.append(registrar.extensions);
  loadedPlugins().emplace(std::string(real), std::move(registrar.extensions));
  return rt::Status::ok();
}

} // namespace kiln::compiler
