//===- GemmTimingCache.cpp - Which GEMM path won, kept on disk ------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "GemmTimingCache.h"

#include <fstream>
#include <sstream>

namespace kiln::rt::cuda {

namespace {
constexpr const char *kTag = "kiln-gemm-timing-v1";

void matrix(std::ostringstream &out, const GemmCall::Matrix &m) {
  out << " " << m.rowStride << "," << m.colStride << "," << m.batchStride;
}
} // namespace

std::string GemmTimingCache::key(const std::string &gpu, int driverVersion,
                                 const GemmCall &call) {
  std::ostringstream out;
  // Tabs separate the fields of a line: keep them out of the key.
  std::string name = gpu;
  for (char &c : name)
    if (c == '\t' || c == '\n')
      c = ' ';
  out << name << "|" << driverVersion << "|" << dtypeName(call.element) << " "
      << call.batch << "x" << call.m << "x" << call.n << "x" << call.k;
  matrix(out, call.a);
  matrix(out, call.b);
  matrix(out, call.d);
  out << " acc" << call.accumulate << " bias"
      << (call.bias ? call.bias->colStride : 0) << " act"
      << uint32_t(call.activation);
  return out.str();
}

GemmTimingCache GemmTimingCache::read(const std::string &path) {
  GemmTimingCache cache;
  cache.path_ = path;
  std::ifstream file(path);
  std::string line;
  while (std::getline(file, line)) {
    // TAG \t key \t generated|cublaslt \t kernel_us \t cublaslt_us
    std::istringstream fields(line);
    std::string tag, key, choice, kernel, blas;
    if (!std::getline(fields, tag, '\t') || tag != kTag ||
        !std::getline(fields, key, '\t') ||
        !std::getline(fields, choice, '\t') ||
        !std::getline(fields, kernel, '\t') || !std::getline(fields, blas) ||
        (choice != "generated" && choice != "cublaslt"))
      continue;
    GemmTiming timing;
    timing.blasLt = choice == "cublaslt";
    try {
      timing.kernelMicroseconds = std::stod(kernel);
      timing.blasLtMicroseconds = std::stod(blas);
    } catch (...) {
      continue;
    }
    cache.entries_[key] = timing;
  }
  return cache;
}

Status GemmTimingCache::append(const std::string &key,
                               const GemmTiming &timing) {
  put(key, timing);
  if (path_.empty())
    return Status::ok();
  std::ofstream file(path_, std::ios::app);
  file << kTag << "\t" << key << "\t"
       << (timing.blasLt ? "cublaslt" : "generated") << "\t"
       << timing.kernelMicroseconds << "\t" << timing.blasLtMicroseconds
       << "\n";
  if (!file)
    return Status(StatusCode::kUnavailable,
                  "cannot write the GEMM timing cache " + path_);
  return Status::ok();
}

const GemmTiming *GemmTimingCache::find(const std::string &key) const {
  auto found = entries_.find(key);
  return found == entries_.end() ? nullptr : &found->second;
}

} // namespace kiln::rt::cuda
