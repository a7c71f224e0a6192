//===- LaunchCommand.cpp - `kiln-cuda-emulate launch` ---------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "LaunchCommand.h"
#include "DeviceMemory.h"
#include "LaunchLimits.h"
#include "Schedules.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

namespace kiln::emu {

namespace {

int fail(int code, const std::string &message) {
  llvm::errs() << "kilnc: error: " << message << "\n";
  return code;
}

/// "X[,Y[,Z]]" into three extents; false if malformed.
bool parseDims(llvm::StringRef spec, uint32_t out[3]) {
  llvm::SmallVector<llvm::StringRef, 3> parts;
  spec.split(parts, ',');
  if (parts.empty() || parts.size() > 3)
    return false;
  out[0] = out[1] = out[2] = 1;
  for (size_t i = 0; i < parts.size(); ++i)
    if (parts[i].trim().getAsInteger(10, out[i]))
      return false;
  return true;
}

} // namespace

int runLaunchCommand(const LaunchRequest &request,
                     const EmulationOptions &options) {
  uint32_t grid[3], block[3];
  if (!parseDims(request.grid, grid) || !parseDims(request.block, block))
    return fail(1, "--grid and --block take X[,Y[,Z]]");
  auto text = llvm::MemoryBuffer::getFile(request.file);
  if (!text)
    return fail(1, "cannot read " + request.file);
  std::string source = (*text)->getBuffer().str();

  if (std::string error =
          checkLaunch(request.kernel, grid, block, readLaunchBounds(source));
      !error.empty())
    return fail(kKernelDefectExit, error);

  TempDir dir;
  if (std::string error = dir.create(); !error.empty())
    return fail(4, error);
  if (options.keepTemps)
    dir.keep();
  KernelDecl decl{request.kernel, request.buffers.size()};
  if (std::string error = compileHost(dir.path(), hostSource(source, decl),
                                      options.hostCompiler);
      !error.empty())
    return fail(4, error);
  HostLibrary library;
  if (std::string error = library.load(dir.path()); !error.empty())
    return fail(4, error);
  KernelEntry entry = library.entry(request.kernel);
  if (!entry)
    return fail(1, "no kernel " + request.kernel + " in " + request.file);

  std::vector<DeviceBuffer> buffers;
  buffers.reserve(request.buffers.size());
  std::vector<void *> args;
  std::vector<DeviceBuffer *> memory;
  for (uint64_t elements : request.buffers) {
    buffers.emplace_back("buffer " + std::to_string(buffers.size()),
                         elements * sizeof(float), false);
    float *data = reinterpret_cast<float *>(buffers.back().data.get());
    for (uint64_t i = 0; i < elements; ++i)
      data[i] = float(i);
    args.push_back(data);
    memory.push_back(&buffers.back());
  }

  Launch launch{&request.kernel,
                entry,
                args.data(),
                {grid[0], grid[1], grid[2]},
                {block[0], block[1], block[2]},
                options.allThreaded || needsThreads(source),
                options.seed,
                options.checkShared};
  if (std::string error =
          launchUnderSchedules(launch, memory, options.schedules);
      !error.empty())
    return fail(kKernelDefectExit, error);

  for (const DeviceBuffer &buffer : buffers) {
    const float *data = reinterpret_cast<const float *>(buffer.data.get());
    uint64_t shown = std::min<uint64_t>(8, buffer.bytes / sizeof(float));
    llvm::outs() << buffer.name << ":";
    for (uint64_t i = 0; i < shown; ++i)
      llvm::outs() << " " << data[i];
    llvm::outs() << (shown * sizeof(float) < buffer.bytes ? " ...\n" : "\n");
  }
  return 0;
}

} // namespace kiln::emu
