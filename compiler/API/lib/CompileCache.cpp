//===- CompileCache.cpp - Whole compiled CPU models on disk ---------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "CompileCache.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/TargetParser/Host.h"

#include <algorithm>
#include <cstring>
#include <link.h>

namespace kiln {

namespace {
/// Entries are whole models: bounded so the cache cannot fill a disk.
constexpr uint64_t kMaxCacheBytes = uint64_t(4) << 30;

/// Length-prefixed fields, so no two different inputs share a key.
class KeyWriter {
public:
  void field(llvm::StringRef name, llvm::StringRef value) {
    key_ += name;
    key_ += '=';
    for (int i = 0; i < 8; ++i)
      key_ += char((uint64_t(value.size()) >> (8 * i)) & 0xff);
    key_ += value;
    key_ += '\n';
  }
  void field(llvm::StringRef name, int64_t value) {
    field(name, std::to_string(value));
  }
  std::string take() { return std::move(key_); }

private:
  std::string key_;
};

/// The GNU build ID (a hash the linker computes over the linked output) of
/// the ELF object holding this code: it changes whenever the compiler is
/// rebuilt differently, which a version string does not.
struct BuildIdSearch {
  uintptr_t address;
  std::string id;
};

int findBuildId(dl_phdr_info *info, size_t, void *data) {
  auto *search = static_cast<BuildIdSearch *>(data);
  bool holdsAddress = false;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr) &header = info->dlpi_phdr[i];
    uintptr_t start = info->dlpi_addr + header.p_vaddr;
    if (header.p_type == PT_LOAD && search->address >= start &&
        search->address < start + header.p_memsz)
      holdsAddress = true;
  }
  if (!holdsAddress)
    return 0;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr) &header = info->dlpi_phdr[i];
    if (header.p_type != PT_NOTE)
      continue;
    const char *note =
        reinterpret_cast<const char *>(info->dlpi_addr + header.p_vaddr);
    const char *end = note + header.p_memsz;
    auto align4 = [](size_t size) { return (size + 3) & ~size_t(3); };
    while (note + sizeof(ElfW(Nhdr)) <= end) {
      const auto *entry = reinterpret_cast<const ElfW(Nhdr) *>(note);
      const char *name = note + sizeof(ElfW(Nhdr));
      const char *desc = name + align4(entry->n_namesz);
      if (desc + entry->n_descsz > end)
        break;
      if (entry->n_type == NT_GNU_BUILD_ID && entry->n_namesz == 4 &&
          std::memcmp(name, "GNU", 4) == 0) {
        search->id = llvm::toHex(llvm::StringRef(desc, entry->n_descsz),
                                 /*LowerCase=*/true);
        return 1;
      }
      note = desc + align4(entry->n_descsz);
    }
  }
  return 1;
}

const std::string &compilerBuildId() {
  static const std::string id = [] {
    BuildIdSearch search{reinterpret_cast<uintptr_t>(&findBuildId), {}};
    dl_iterate_phdr(findBuildId, &search);
    return search.id;
  }();
  return id;
}

/// The host CPU's name and features: a JIT (and a "native" artifact) uses
/// every instruction this CPU has.
const std::string &hostCpu() {
  static const std::string description = [] {
    std::string text = llvm::sys::getHostCPUName().str();
    llvm::StringMap<bool> features = llvm::sys::getHostCPUFeatures();
    std::vector<std::string> names;
    for (const auto &feature : features)
      names.push_back((feature.second ? "+" : "-") + feature.first().str());
    std::sort(names.begin(), names.end());
    for (const std::string &name : names)
      text += "," + name;
    return text;
  }();
  return description;
}

bool isOnnx(const ModelSource &source) {
  switch (source.kind()) {
  case ModelSource::Kind::kOnnxBytes:
    return true;
  case ModelSource::Kind::kMlirText:
    return false;
  case ModelSource::Kind::kFile:
    return !llvm::StringRef(source.name()).ends_with(".mlir");
  }
  return true;
}
} // namespace

CompileCache CompileCache::forOptions(const CompileOptions &options) {
  if (!options.compileCache)
    return CompileCache(compiler::DiskCache(""));
  return CompileCache(
      compiler::DiskCache::fromEnvironment("cpu", kMaxCacheBytes));
}

std::optional<CompileCache::Key>
CompileCache::key(const ModelSource &source, const CompileOptions &options,
                  Use use, std::string *why) const {
  auto refuse = [&](std::string reason) -> std::optional<Key> {
    if (why)
      *why = std::move(reason);
    return std::nullopt;
  };
  if (!enabled())
    return refuse(options.compileCache ? "KILN_CACHE_DIR=off or no home"
                                       : "disabled by the options");
  if (options.target != "cpu")
    return refuse("CUDA targets cache their kernels, not the model");
  if (!options.passPlugins.empty())
    return refuse("pass plugins may read anything");
  if (!options.calibrationData.empty())
    return refuse("calibration data is a folder of samples");
  if (options.devices != 1)
    return refuse("sharded models are not cached yet");
  if (compilerBuildId().empty())
    return refuse("the compiler has no build ID");

  Key result;
  result.source = source.bytes();
  if (source.kind() == ModelSource::Kind::kFile) {
    auto file = llvm::MemoryBuffer::getFile(source.name(), /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
    if (!file)
      return refuse("cannot read the model");
    result.file = std::move(*file);
    result.source = result.file->getBuffer();
  }
  // An ONNX tensor's external data is named by a "location" entry; a model
  // that might have one reads other files, which the key does not hold.
  // (memmem: StringRef::find took a quarter of a cache hit's time.)
  static constexpr char kLocation[] = "location";
  if (isOnnx(source) && ::memmem(result.source.data(), result.source.size(),
                                 kLocation, sizeof(kLocation) - 1))
    return refuse("the model may have external data");

  KeyWriter key;
  key.field("kiln compile cache", int64_t(1));
  key.field("compiler", compilerBuildId());
  key.field("host", hostCpu());
  key.field("use", use == Use::kJit ? "jit" : "artifact");
  key.field("target", options.target);
  key.field("target-cpu", use == Use::kJit ? "native" : options.targetCpu);
  key.field("entry", options.entry);
  for (const auto &[name, shape] : options.inputShapes) {
    key.field("input-shape", name);
    for (int64_t dim : shape)
      key.field("dim", dim);
  }
  for (int64_t size : options.batchSizes)
    key.field("batch-size", size);
  for (const auto &[name, tensor] : options.boundInputs) {
    key.field("bound-input", name);
    key.field("dtype", rt::dtypeName(tensor.dtype));
    for (int64_t dim : tensor.shape)
      key.field("dim", dim);
    key.field("data", llvm::StringRef(
                          reinterpret_cast<const char *>(tensor.data.data()),
                          tensor.data.size()));
  }
  key.field("fusion", int64_t(options.fusion));
  key.field("step-per-kernel", int64_t(options.stepPerKernel));
  for (int64_t group : options.fusionGroups)
    key.field("fusion-group", group);
  key.field("test-miscompile", options.testMiscompileFusionGroup);
  key.field("precision", options.precision);
  for (const std::string &name : options.keepFp32)
    key.field("keep-fp32", name);
  key.field("weight-only", options.weightOnly);
  key.field("parallel", options.parallel);
  key.field("fuse-collectives-below", options.fuseCollectivesBelow);
  key.field("source-kind", int64_t(source.kind()));
  // Locations in the artifact's debug information name it.
  key.field("source-name", source.name());
  key.field("source-size", int64_t(result.source.size()));
  result.header = key.take();
  return result;
}

std::optional<compiler::DiskCache::Hit>
CompileCache::lookup(const Key &key) const {
  llvm::StringRef parts[] = {key.header, key.source};
  return disk_.lookup(parts);
}

std::optional<rt::Artifact>
CompileCache::lookupArtifact(const Key &key, const std::string &name) const {
  std::optional<compiler::DiskCache::Hit> hit = lookup(key);
  if (!hit)
    return std::nullopt;
  rt::StatusOr<rt::Artifact> artifact =
      rt::decodeArtifact(hit->value.bytes_begin(), hit->value.size(), name);
  if (!artifact.isOk())
    return std::nullopt;
  return std::move(*artifact);
}

void CompileCache::store(const Key &key, const rt::Artifact &artifact) const {
  llvm::StringRef parts[] = {key.header, key.source};
  std::vector<uint8_t> bytes = rt::encodeArtifact(artifact);
  disk_.store(parts, llvm::toStringRef(bytes));
}

} // namespace kiln
