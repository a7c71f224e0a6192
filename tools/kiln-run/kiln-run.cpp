//===- kiln-run.cpp - Run a .kiln artifact with the runtime alone ---------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The deployment-side runner: links only the Kiln runtime (no MLIR, no
// LLVM), loads and validates an artifact, runs it on .npy inputs.
// Exit codes match kilnc: 0 success, 1 usage error, 2 invalid artifact or
// inputs, 3 unsupported (newer format, other target), 4 internal error,
// 5 device unavailable (no GPU or driver, out of memory).
//
//===----------------------------------------------------------------------===//

#include "kiln/runtime/Artifact.h"
#include "kiln/runtime/CudaExecutable.h"
#include "kiln/runtime/DeviceExecutable.h"
#include "kiln/runtime/ModelIO.h"
#include "kiln/runtime/NumericsCheck.h"

#include "Exit.h"
#include "RankedRun.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

using namespace kiln::rt;

namespace {

constexpr const char *kUsage =
    "usage: kiln-run MODEL.kiln [--input NAME=FILE.npy]... [--output-dir DIR]\n"
    "                [--iterations N] [--warmup N] [--threads N]\n"
    "                [--check-numerics] [--gemm generated|cublaslt|auto]\n"
    "                [--gemm-cache FILE] [--ranks N] [--timeout-ms MS]\n"
    "                [--batch N]\n"
    "\n"
    "Runs a compiled Kiln artifact on .npy inputs with the runtime alone,\n"
    "on the CPU or on CUDA device 0, as the artifact says.\n"
    "Writes DIR/<output name>.npy per output; with --iterations > 1 also\n"
    "prints median/p10/p90 latency. --threads N runs a CPU program on N\n"
    "threads, this one included (default: every core this process may use;\n"
    "1: this thread only); results are bitwise the same for every N.\n"
    "--check-numerics looks for NaN and infinities in what every step\n"
    "computed and reports the first step that made one, with its source\n"
    "ops (exit 2); slow (on a GPU it goes launch by launch).\n"
    "--gemm picks what runs a CUDA artifact's GEMMs: its generated kernels\n"
    "(default), cuBLASLt, or auto: both timed on the GPU at load and the\n"
    "faster kept, remembered in --gemm-cache FILE (default:\n"
    "$KILN_CUDA_GEMM_CACHE); the choices are printed to stderr.\n"
    "A sharded artifact (kilnc compile --devices N) runs all N ranks in\n"
    "this process, one thread each (--ranks N, if given, must match), or\n"
    "one rank per process under mpirun -np N; every rank takes the same\n"
    "inputs and rank 0 prints and writes the outputs. --threads is then\n"
    "per rank (default 1); a collective waits at most --timeout-ms\n"
    "(default 60000) for the other ranks.\n"
    "--batch N runs the artifact's batch-N program: an artifact compiled\n"
    "with kilnc compile --batch-sizes packs one per size (default: the\n"
    "artifact's own, the smallest).\n"
    "\n"
    "Exit codes: 0 success, 1 usage error, 2 invalid artifact or inputs,\n"
    "3 unsupported (newer format, other target), 4 internal error,\n"
    "5 device unavailable (no GPU or driver, out of memory), 7 a collective\n"
    "failed (a rank aborted, a peer missed the deadline); a driver too\n"
    "old for the artifact is 3.\n";

bool parseCount(const std::string &text, unsigned &value) {
  char *end = nullptr;
  unsigned long parsed = std::strtoul(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || parsed > 1000000)
    return false;
  value = unsigned(parsed);
  return true;
}

} // namespace

int main(int argc, char **argv) {
  std::string model, outputDir;
  std::vector<InputFile> inputs;
  unsigned iterations = 1, warmup = 0, threads = 0, ranks = 0;
  unsigned timeoutMs = 60000, batch = 0;
  bool checkNumerics = false;
  ExecutableOptions loadOptions;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&](const char *flag) -> const char * {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "kiln-run: error: %s needs a value\n", flag);
        return nullptr;
      }
      return argv[++i];
    };
    if (arg == "--help" || arg == "-h") {
      std::fputs(kUsage, stdout);
      return 0;
    }
    if (arg == "--input") {
      const char *spec = value("--input");
      if (!spec)
        return 1;
      StatusOr<InputFile> file = parseInputSpec(spec);
      if (!file.isOk())
        return fail(1, file.status().message());
      inputs.push_back(*file);
    } else if (arg == "--output-dir") {
      const char *dir = value("--output-dir");
      if (!dir)
        return 1;
      outputDir = dir;
    } else if (arg == "--check-numerics") {
      checkNumerics = true;
    } else if (arg == "--threads") {
      const char *count = value("--threads");
      if (!count || !parseCount(count, threads) || threads == 0 ||
          threads > 1024)
        return fail(1, "--threads expects a count from 1 to 1024");
    } else if (arg == "--gemm") {
      const char *path = value("--gemm");
      std::optional<GemmPath> parsed =
          path ? parseGemmPath(path) : std::nullopt;
      if (!parsed)
        return fail(1, "--gemm expects generated, cublaslt or auto");
      loadOptions.gemm = *parsed;
    } else if (arg == "--gemm-cache") {
      const char *file = value("--gemm-cache");
      if (!file)
        return 1;
      loadOptions.gemmTimingCache = file;
    } else if (arg == "--ranks") {
      const char *count = value("--ranks");
      if (!count || !parseCount(count, ranks) || ranks == 0 || ranks > 4096)
        return fail(1, "--ranks expects a count from 1 to 4096");
    } else if (arg == "--timeout-ms") {
      const char *ms = value("--timeout-ms");
      if (!ms || !parseCount(ms, timeoutMs) || timeoutMs == 0)
        return fail(1, "--timeout-ms expects a positive count");
    } else if (arg == "--batch") {
      const char *count = value("--batch");
      if (!count || !parseCount(count, batch) || batch == 0)
        return fail(1, "--batch expects a positive count");
    } else if (arg == "--iterations" || arg == "--warmup") {
      const char *count = value(arg.c_str());
      if (!count || !parseCount(count, arg == "--warmup" ? warmup : iterations))
        return fail(1, arg + " expects a count");
    } else if (!arg.empty() && arg[0] == '-') {
      return fail(1, "unknown option '" + arg + "'\n" + kUsage);
    } else if (model.empty()) {
      model = arg;
    } else {
      return fail(1, "more than one model given");
    }
  }
  if (model.empty() || iterations == 0)
    return fail(1, std::string("no model given\n") + kUsage);

  StatusOr<RankedArtifact> ranked = readRankedArtifactFile(model);
  if (!ranked.isOk())
    return fail(exitCodeFor(ranked.status()), ranked.status().message());
  if (ranked->worldSize() > 1 || ranks > 1 || launchedByMpi()) {
    if (checkNumerics || loadOptions.gemm != GemmPath::kGenerated || batch != 0)
      return fail(1, "--check-numerics, --gemm and --batch run single-device "
                     "artifacts only");
    RankedRunOptions options;
    options.model = model;
    options.inputs = inputs;
    options.outputDir = outputDir;
    options.iterations = iterations;
    options.warmup = warmup;
    options.threadsPerRank = threads == 0 ? 1 : threads;
    options.ranks = ranks;
    options.timeoutMs = timeoutMs;
    return runRanked(std::move(*ranked), options);
  }
  StatusOr<Artifact> artifact = std::move(ranked->ranks.front());
  if (batch != 0) {
    const Artifact *chosen = artifactForBatch(*artifact, batch);
    if (!chosen) {
      std::string sizes;
      StatusOr<int64_t> own = programBatch(artifact->program);
      if (own.isOk())
        sizes = std::to_string(*own);
      for (const BatchVariant &variant : artifact->batchVariants)
        sizes += (sizes.empty() ? "" : ", ") + std::to_string(variant.batch);
      return fail(2, model + ": no program for batch " + std::to_string(batch) +
                         (sizes.empty() ? " (it has no batch axis)"
                                        : " (it has batch " + sizes + ")"));
    }
    if (chosen != &*artifact)
      artifact = Artifact(*chosen);
  }
  artifact->batchVariants.clear(); // only the chosen program is loaded
  loadOptions.threads = threads;
  StatusOr<std::unique_ptr<DeviceExecutable>> executable =
      loadExecutable(std::move(*artifact), model, loadOptions);
  if (!executable.isOk())
    return fail(exitCodeFor(executable.status()),
                executable.status().message());
  DeviceExecutable &program = **executable;
  if (auto *cuda = dynamic_cast<CudaExecutable *>(&program)) {
    for (const std::string &warning : cuda->warnings())
      std::fprintf(stderr, "kiln-run: warning: %s\n", warning.c_str());
    for (const std::string &choice : cuda->gemmChoices())
      std::fprintf(stderr, "kiln-run: gemm: %s\n", choice.c_str());
  }

  StatusOr<std::vector<HostTensor>> tensors =
      loadInputs(inputs, program.program().inputs, /*synthesizeMissing=*/false);
  if (!tensors.isOk())
    return fail(2, tensors.status().message());
  std::vector<HostTensor> outputs;
  NumericsCheck check;
  RunOptions options;
  if (checkNumerics)
    options.hooks = &check;
  // One run; a numerics finding is an invalid-input error (exit 2).
  auto runOnce = [&]() -> Status {
    KILN_RETURN_IF_ERROR(program.run(*tensors, outputs, options));
    if (std::optional<NumericsFinding> finding = check.first())
      return invalidArgument("numerics check: " + finding->describe());
    return Status::ok();
  };
  for (unsigned i = 0; i < warmup; ++i)
    if (Status status = runOnce(); !status.isOk())
      return fail(exitCodeFor(status), status.message());
  std::vector<double> times;
  for (unsigned i = 0; i < iterations; ++i) {
    auto start = std::chrono::steady_clock::now();
    if (Status status = runOnce(); !status.isOk())
      return fail(exitCodeFor(status), status.message());
    times.push_back(std::chrono::duration<double, std::milli>(
                        std::chrono::steady_clock::now() - start)
                        .count());
  }
  if (checkNumerics && check.checkedSteps() == 0)
    std::fputs("kiln-run: warning: --check-numerics: no step of this program "
               "records what it computes, so nothing was checked\n",
               stderr);
  std::fputs(summarizeOutputs(program.program().outputs, outputs).c_str(),
             stdout);
  if (!outputDir.empty())
    if (Status status =
            writeOutputs(outputDir, program.program().outputs, outputs);
        !status.isOk())
      return fail(1, status.message());
  std::sort(times.begin(), times.end());
  if (times.size() == 1) {
    std::printf("ran in %.3f ms\n", times[0]);
  } else {
    auto at = [&](double p) {
      return times[std::min(times.size() - 1, size_t(p * times.size()))];
    };
    std::printf("latency over %zu runs: median %.4f ms, p10 %.4f ms, p90 "
                "%.4f ms\n",
                times.size(), at(0.5), at(0.1), at(0.9));
  }
  return 0;
}
