//===- Roofline.cpp - This machine's peak FMA rate and bandwidth ----------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The FMA loop keeps ten independent accumulators per thread (more than
// an FMA's latency times its throughput), in the widest vectors the CPU
// has, chosen at run time: the runtime itself is built for baseline
// x86-64.
//
//===----------------------------------------------------------------------===//

#include "kiln/runtime/Roofline.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <thread>
#include <vector>

namespace kiln::rt {

namespace {
constexpr int kAccumulators = 10;

// The loop is written once as a macro: each copy is compiled for its own
// target, which a shared (inlined) template would not be.
#define KILN_FMA_LOOP(Vector)                                                  \
  Vector a = Vector{} + 0.9999f, b = Vector{} + 1e-4f;                         \
  Vector acc[kAccumulators];                                                   \
  for (int k = 0; k < kAccumulators; ++k)                                      \
    acc[k] = a + float(k);                                                     \
  for (int64_t i = 0; i < iterations; ++i)                                     \
    for (int k = 0; k < kAccumulators; ++k)                                    \
      acc[k] = __builtin_elementwise_fma(acc[k], a, b);                        \
  float sum = 0;                                                               \
  for (int k = 0; k < kAccumulators; ++k)                                      \
    sum += acc[k][0];                                                          \
  return sum;

typedef float Float16x __attribute__((vector_size(64)));
typedef float Float8x __attribute__((vector_size(32)));
typedef float Float4x __attribute__((vector_size(16)));

__attribute__((target("avx512f"))) float fma512(int64_t iterations) {
  KILN_FMA_LOOP(Float16x)
}
__attribute__((target("avx2,fma"))) float fma256(int64_t iterations) {
  KILN_FMA_LOOP(Float8x)
}
float fma128(int64_t iterations) { KILN_FMA_LOOP(Float4x) }
#undef KILN_FMA_LOOP

/// Best rate of `threads` threads each running `work(count)` (count units
/// of `unitsPerCount` each), over a few tries.
template <typename Work>
double bestRate(unsigned threads, int64_t count, double unitsPerCount,
                Work work) {
  double best = 0;
  for (int attempt = 0; attempt < 3; ++attempt) {
    std::vector<std::thread> pool;
    std::vector<float> sinks(threads);
    auto start = std::chrono::steady_clock::now();
    for (unsigned t = 0; t < threads; ++t)
      pool.emplace_back([&, t] { sinks[t] = work(t, count); });
    for (std::thread &thread : pool)
      thread.join();
    double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
    volatile float keep = sinks[0];
    (void)keep;
    best = std::max(best, threads * count * unitsPerCount / seconds);
  }
  return best;
}

std::string cacheFile() {
  if (const char *xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
    return std::string(xdg) + "/kiln/roofline.txt";
  if (const char *home = std::getenv("HOME"); home && *home)
    return std::string(home) + "/.cache/kiln/roofline.txt";
  return "";
}
} // namespace

std::string cpuModelName() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line))
    if (line.rfind("model name", 0) == 0) {
      size_t colon = line.find(':');
      return colon == std::string::npos ? line : line.substr(colon + 2);
    }
  return "unknown cpu";
}

MachinePeaks measurePeaks(unsigned threads) {
  MachinePeaks peaks;
  peaks.threads = std::max(1u, threads);
  float (*fma)(int64_t) = fma128;
  int lanes = 4;
  peaks.vectors = "sse";
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f")) {
    fma = fma512, lanes = 16, peaks.vectors = "avx512";
  } else if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
    fma = fma256, lanes = 8, peaks.vectors = "avx2+fma";
  }
  // About 0.1 s a try on a few GHz.
  const int64_t iterations = 20'000'000;
  peaks.gflops =
      bestRate(peaks.threads, iterations, 2.0 * kAccumulators * lanes,
               [&](unsigned, int64_t n) { return fma(n); }) /
      1e9;
  // 256 MiB per try: far beyond any cache of this class of machine.
  const size_t floats = size_t(64) << 20;
  std::unique_ptr<float[]> buffer(new float[floats]);
  std::fill(buffer.get(), buffer.get() + floats, 1.0f);
  size_t share = floats / peaks.threads;
  peaks.gbytesPerSecond = bestRate(peaks.threads, int64_t(share), 4.0,
                                   [&](unsigned t, int64_t n) {
                                     const float *p = buffer.get() + t * share;
                                     float sum[8] = {};
                                     for (int64_t i = 0; i + 8 <= n; i += 8)
                                       for (int k = 0; k < 8; ++k)
                                         sum[k] += p[i + k];
                                     return sum[0] + sum[7];
                                   }) /
                          1e9;
  return peaks;
}

std::optional<MachinePeaks> peaksFromEnvironment(unsigned threads) {
  const char *given = std::getenv("KILN_ROOFLINE");
  if (!given || !*given)
    return std::nullopt;
  MachinePeaks peaks;
  peaks.threads = std::max(1u, threads);
  peaks.vectors = "KILN_ROOFLINE";
  peaks.cached = true;
  char comma = 0;
  std::istringstream fields(given);
  if (fields >> peaks.gflops >> comma >> peaks.gbytesPerSecond &&
      comma == ',' && peaks.gflops > 0 && peaks.gbytesPerSecond > 0)
    return peaks;
  return std::nullopt;
}

MachinePeaks machinePeaks(unsigned threads) {
  threads = std::max(1u, threads);
  if (std::optional<MachinePeaks> given = peaksFromEnvironment(threads))
    return *given;
  std::string path = cacheFile();
  std::string model = cpuModelName();
  // One line per measurement: threads, GFLOP/s, GB/s, vectors, CPU model.
  if (!path.empty()) {
    std::ifstream cache(path);
    std::string line;
    while (std::getline(cache, line)) {
      std::istringstream fields(line);
      MachinePeaks peaks;
      std::string rest;
      if (fields >> peaks.threads >> peaks.gflops >> peaks.gbytesPerSecond >>
              peaks.vectors &&
          std::getline(fields >> std::ws, rest) && rest == model &&
          peaks.threads == threads && peaks.gflops > 0 &&
          peaks.gbytesPerSecond > 0) {
        peaks.cached = true;
        peaks.vectors += ", cached";
        return peaks;
      }
    }
  }
  MachinePeaks peaks = measurePeaks(threads);
  if (!path.empty()) {
    std::error_code ignored;
    std::filesystem::create_directories(
        std::filesystem::path(path).parent_path(), ignored);
    std::ofstream cache(path, std::ios::app);
    cache << peaks.threads << " " << peaks.gflops << " "
          << peaks.gbytesPerSecond << " " << peaks.vectors << " " << model
          << "\n";
  }
  return peaks;
}

} // namespace kiln::rt
