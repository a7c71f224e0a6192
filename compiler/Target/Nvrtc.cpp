//===- Nvrtc.cpp - NVRTC, loaded at run time ------------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "compiler/Target/Nvrtc.h"

#include <cstdlib>
#include <dlfcn.h>
#include <memory>
#include <mutex>

namespace kiln::compiler {

/// NVRTC's C API, declared here (only the calls Kiln makes) so that no CUDA
/// header is needed to build. The signatures are NVRTC's stable ABI.
struct Nvrtc::Api {
  using Program = struct _nvrtcProgram *;
  using Result = int;
  const char *(*getErrorString)(Result);
  Result (*version)(int *, int *);
  Result (*createProgram)(Program *, const char *, const char *, int,
                          const char *const *, const char *const *);
  Result (*destroyProgram)(Program *);
  Result (*compileProgram)(Program, int, const char *const *);
  Result (*getPTXSize)(Program, size_t *);
  Result (*getPTX)(Program, char *);
  Result (*getCUBINSize)(Program, size_t *);
  Result (*getCUBIN)(Program, char *);
  Result (*getProgramLogSize)(Program, size_t *);
  Result (*getProgramLog)(Program, char *);
  int major = 0, minor = 0;
};

namespace {

template <typename F> bool bind(void *library, const char *name, F &slot) {
  slot = reinterpret_cast<F>(dlsym(library, name));
  return slot != nullptr;
}

rt::StatusOr<Nvrtc::Api *> loadApi() {
  std::vector<std::string> candidates;
  // An explicit choice is the only candidate: falling back would hide it.
  if (const char *path = std::getenv("KILN_NVRTC"))
    candidates.push_back(path);
  else
    for (const char *name : {"libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so",
                             "/usr/local/cuda/lib64/libnvrtc.so"})
      candidates.push_back(name);
  void *library = nullptr;
  for (const std::string &candidate : candidates)
    if ((library = dlopen(candidate.c_str(), RTLD_NOW | RTLD_LOCAL)))
      break;
  if (!library)
    return rt::Status(rt::StatusCode::kUnavailable,
                      "cannot load NVRTC (libnvrtc.so): compiling for a CUDA "
                      "target needs the CUDA toolkit (set KILN_NVRTC to the "
                      "library's path)");
  auto api = std::make_unique<Nvrtc::Api>();
  bool ok = bind(library, "nvrtcGetErrorString", api->getErrorString) &&
            bind(library, "nvrtcVersion", api->version) &&
            bind(library, "nvrtcCreateProgram", api->createProgram) &&
            bind(library, "nvrtcDestroyProgram", api->destroyProgram) &&
            bind(library, "nvrtcCompileProgram", api->compileProgram) &&
            bind(library, "nvrtcGetPTXSize", api->getPTXSize) &&
            bind(library, "nvrtcGetPTX", api->getPTX) &&
            bind(library, "nvrtcGetCUBINSize", api->getCUBINSize) &&
            bind(library, "nvrtcGetCUBIN", api->getCUBIN) &&
            bind(library, "nvrtcGetProgramLogSize", api->getProgramLogSize) &&
            bind(library, "nvrtcGetProgramLog", api->getProgramLog);
  if (!ok || api->version(&api->major, &api->minor) != 0)
    return rt::Status(rt::StatusCode::kUnavailable,
                      "the NVRTC library found lacks the expected API");
  return api.release(); // Lives as long as the process, like the library.
}

/// Where NVRTC's headers (cuda_fp16.h) are: next to the toolkit.
std::string includeDirectory() {
  if (const char *home = std::getenv("CUDA_HOME"))
    return std::string(home) + "/include";
  return "/usr/local/cuda/include";
}

} // namespace

rt::StatusOr<const Nvrtc *> Nvrtc::get() {
  static std::once_flag once;
  static rt::StatusOr<Api *> api = rt::Status(rt::StatusCode::kInternal, "");
  std::call_once(once, [] { api = loadApi(); });
  if (!api.isOk())
    return api.status();
  static Nvrtc instance(*api);
  return &instance;
}

std::string Nvrtc::version() const {
  return std::to_string(api_->major) + "." + std::to_string(api_->minor);
}

std::vector<std::string> Nvrtc::defaultOptions() {
  // No fast math: results must match the CPU backend's within tolerance.
  return {"--std=c++17", "-I" + includeDirectory()};
}

rt::StatusOr<std::vector<uint8_t>>
Nvrtc::compile(const std::string &source, unsigned arch, NvrtcOutput output,
               const std::vector<std::string> &options,
               std::vector<uint8_t> *ptx) const {
  Api::Program program = nullptr;
  if (int rc = api_->createProgram(&program, source.c_str(), "kiln.cu", 0,
                                   nullptr, nullptr))
    return rt::internalError(std::string("nvrtcCreateProgram failed: ") +
                             api_->getErrorString(rc));
  std::vector<std::string> all = options;
  all.push_back(std::string("--gpu-architecture=") +
                (output == NvrtcOutput::kPtx ? "compute_" : "sm_") +
                std::to_string(arch));
  std::vector<const char *> argv;
  for (const std::string &option : all)
    argv.push_back(option.c_str());
  int rc = api_->compileProgram(program, int(argv.size()), argv.data());
  std::vector<uint8_t> image;
  if (rc != 0) {
    size_t size = 0;
    api_->getProgramLogSize(program, &size);
    std::string log(size, '\0');
    if (size)
      api_->getProgramLog(program, log.data());
    api_->destroyProgram(&program);
    return rt::internalError(std::string("NVRTC rejected the generated "
                                         "CUDA C++ (") +
                             api_->getErrorString(rc) + "):\n" + log);
  }
  size_t size = 0;
  auto getPtx = [&](std::vector<uint8_t> &into) {
    api_->getPTXSize(program, &size);
    into.resize(size);
    api_->getPTX(program, reinterpret_cast<char *>(into.data()));
  };
  if (output == NvrtcOutput::kPtx) {
    getPtx(image);
  } else {
    if (ptx)
      getPtx(*ptx);
    api_->getCUBINSize(program, &size);
    image.resize(size);
    api_->getCUBIN(program, reinterpret_cast<char *>(image.data()));
  }
  api_->destroyProgram(&program);
  return image;
}

} // namespace kiln::compiler
