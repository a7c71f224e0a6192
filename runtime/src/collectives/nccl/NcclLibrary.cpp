//===- NcclLibrary.cpp - NCCL, loaded with dlopen -------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "NcclLibrary.h"

#include <cstdlib>
#include <dlfcn.h>
#include <map>
#include <memory>
#include <mutex>

namespace kiln::rt::nccl {

namespace {
constexpr const char *kDefaultLibrary = "libnccl.so.2";

StatusOr<std::unique_ptr<NcclLibrary>> open(const std::string &path) {
  void *handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char *why = dlerror();
    return Status(StatusCode::kUnavailable,
                  "cannot load NCCL (" + path +
                      "): " + (why ? why : "dlopen failed") +
                      "; install NCCL 2.18 or newer (it ships with the CUDA "
                      "toolkit) or point KILN_NCCL_LIBRARY at libnccl.so.2");
  }
  auto library = std::make_unique<NcclLibrary>();
  library->path = path;
  std::string missing;
#define KILN_NCCL_RESOLVE(name, parameters)                                    \
  library->name =                                                              \
      reinterpret_cast<decltype(library->name)>(dlsym(handle, #name));         \
  if (!library->name)                                                          \
    missing += std::string(missing.empty() ? "" : ", ") + #name;
  KILN_NCCL_FUNCTIONS(KILN_NCCL_RESOLVE)
  KILN_NCCL_RESOLVE(ncclGetErrorString, ())
#undef KILN_NCCL_RESOLVE
  if (library->ncclGetVersion)
    library->ncclGetVersion(&library->version);
  std::string found = library->version
                          ? "NCCL " + ncclVersionName(library->version)
                          : std::string("a version it does not report");
  if (library->version && library->version < kOldestSupportedNccl) {
    dlclose(handle);
    return unimplemented(path + " is " + found + "; Kiln needs NCCL " +
                         ncclVersionName(kOldestSupportedNccl) + " or newer");
  }
  if (!missing.empty()) {
    dlclose(handle);
    return unimplemented(path + " (" + found + ") lacks " + missing +
                         "; Kiln needs NCCL " +
                         ncclVersionName(kOldestSupportedNccl) + " or newer");
  }
  return library;
}
} // namespace

std::string ncclVersionName(int version) {
  // NCCL >= 2.9 encodes major * 10000 + minor * 100 + patch.
  return std::to_string(version / 10000) + "." +
         std::to_string(version / 100 % 100) + "." +
         std::to_string(version % 100);
}

StatusOr<const NcclLibrary *> NcclLibrary::get() {
  const char *override = std::getenv("KILN_NCCL_LIBRARY");
  std::string path = override && *override ? override : kDefaultLibrary;
  static std::mutex mutex;
  static std::map<std::string, std::unique_ptr<NcclLibrary>> libraries;
  std::lock_guard<std::mutex> lock(mutex);
  auto found = libraries.find(path);
  if (found != libraries.end())
    return static_cast<const NcclLibrary *>(found->second.get());
  StatusOr<std::unique_ptr<NcclLibrary>> opened = open(path);
  if (!opened.isOk())
    return opened.status();
  const NcclLibrary *library = opened->get();
  libraries.emplace(path, std::move(*opened));
  return library;
}

std::string NcclLibrary::describe(ncclResult_t result) const {
  static const char *const kNames[] = {
      "ncclSuccess",       "ncclUnhandledCudaError", "ncclSystemError",
      "ncclInternalError", "ncclInvalidArgument",    "ncclInvalidUsage",
      "ncclRemoteError",   "ncclInProgress"};
  std::string out = result >= 0 && result < 8
                        ? kNames[result]
                        : "NCCL error " + std::to_string(result);
  const char *text = ncclGetErrorString ? ncclGetErrorString(result) : nullptr;
  if (text && *text)
    out += std::string(" (") + text + ")";
  return out;
}

Status NcclLibrary::error(ncclResult_t result, const std::string &call) const {
  std::string message = call + " failed: " + describe(result);
  switch (result) {
  case ncclRemoteError:
    return aborted(message + " (a peer rank failed or left)");
  case ncclUnhandledCudaError:
  case ncclSystemError:
    return Status(StatusCode::kUnavailable, message);
  case ncclInvalidArgument:
  case ncclInvalidUsage:
    return invalidArgument(message);
  default:
    return internalError(message);
  }
}

} // namespace kiln::rt::nccl
