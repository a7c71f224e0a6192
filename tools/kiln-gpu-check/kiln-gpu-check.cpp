//===- kiln-gpu-check.cpp - Run the prepared GPU checks -------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Reads the manifest scripts/gpu-prepare.sh wrote and runs it on the GPU:
// numeric checks of CUDA artifacts against independent reference outputs
// (direct launches, replayed CUDA graphs and the step-by-step hooked path,
// each compared), end-to-end latency with and without CUDA Graphs and with
// fusion off, kernel bandwidth against a device-to-device copy, GEMM
// throughput and results against cuBLASLt, NCCL's all-reduce bus bandwidth
// across the GPUs. Everything goes into one JSON
// file that starts with the GPU, its driver and clocks. Runtime only: no
// MLIR, no LLVM, no compiler on the GPU machine.
//
// Manifest lines (paths relative to the manifest's folder):
//   check NAME ARTIFACT RTOL ATOL INPUT=FILE.npy... -- OUTPUT=FILE.npy...
//   latency NAME FUSED.kiln UNFUSED.kiln INPUT=FILE.npy...
//   bandwidth NAME ARTIFACT
//   gemm NAME ARTIFACT M N K
//   nccl NAME MIB ITERATIONS   (an all-reduce over every GPU; needs two)
//
// Exit codes: 0 every check passed; 1 a check failed; 2 bad manifest or
// files; 3 the driver is too old for Kiln; 5 no GPU or driver (the JSON
// then says "status": "no_gpu" and why).
//
//===----------------------------------------------------------------------===//

#include "Compare.h"
#include "CublasLt.h"
#include "RandomInputs.h"
#include "Record.h"

#include "kiln/runtime/Artifact.h"
#include "kiln/runtime/CudaExecutable.h"
#include "kiln/runtime/NcclCommunicator.h"
#include "kiln/runtime/Npy.h"
#include "kiln/runtime/NumericsCheck.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>
#include <vector>

using namespace kiln;
using gpucheck::Record;

namespace {

/// Seed of the inputs of timed workloads (GEMM, bandwidth).
constexpr uint64_t kInputSeed = 20261202;

struct Context {
  std::string folder;
  std::vector<std::string> records;
  std::vector<std::string> warnings;
  int failures = 0;
  /// Set when a check found no GPU or driver: the rest would fail alike.
  bool noGpu = false;
};

std::string pathOf(const Context &context, const std::string &file) {
  return file.empty() || file[0] == '/' ? file : context.folder + "/" + file;
}

rt::StatusOr<std::unique_ptr<rt::CudaExecutable>>
load(const Context &context, const std::string &file, bool graphs,
     rt::GemmPath gemm = rt::GemmPath::kGenerated) {
  auto artifact = rt::readArtifactFile(pathOf(context, file));
  if (!artifact.isOk())
    return artifact.status();
  rt::CudaLoadOptions options;
  options.graphs = graphs;
  options.gemm = gemm;
  return rt::CudaExecutable::load(std::move(*artifact), file, options);
}

/// NAME=FILE pairs read as tensors, in the order the program lists them.
rt::Status readTensors(const Context &context,
                       const std::vector<std::string> &specs,
                       const std::vector<rt::TensorSpec> &wanted,
                       std::vector<rt::HostTensor> &tensors) {
  std::map<std::string, std::string> files;
  for (const std::string &spec : specs) {
    size_t equals = spec.find('=');
    if (equals == std::string::npos)
      return rt::invalidArgument("expected NAME=FILE, got '" + spec + "'");
    files[spec.substr(0, equals)] = spec.substr(equals + 1);
  }
  tensors.clear();
  for (const rt::TensorSpec &spec : wanted) {
    auto found = files.find(spec.name);
    if (found == files.end())
      return rt::invalidArgument("no file for '" + spec.name + "'");
    auto tensor = rt::readNpyFile(pathOf(context, found->second));
    if (!tensor.isOk())
      return tensor.status();
    tensors.push_back(std::move(*tensor));
  }
  return rt::Status::ok();
}

/// Keeps what the runtime worked around (CUBIN->PTX, failed captures).
void collectWarnings(Context &context, const std::string &name,
                     const rt::CudaExecutable &executable) {
  for (const std::string &warning : executable.warnings())
    context.warnings.push_back(name + ": " + warning);
}

void fail(Context &context, Record record, const rt::Status &status) {
  // Only a missing GPU or driver stops the run; out of memory, a module the
  // driver cannot load or a bad file fail this record alone.
  if (status.code() == rt::StatusCode::kUnavailable)
    context.noGpu = true;
  ++context.failures;
  record.flag("ok", false)
      .add("error_class", rt::statusCodeName(status.code()))
      .add("error", status.message());
  context.records.push_back(record.text());
  std::cerr << "FAIL: " << status.message() << "\n";
}

void check(Context &context, std::istringstream &line) {
  std::string name, file, word;
  double rtol = 0, atol = 0;
  line >> name >> file >> rtol >> atol;
  std::vector<std::string> inputs, expected;
  bool afterDash = false;
  while (line >> word)
    word == "--" ? void(afterDash = true)
                 : (afterDash ? expected : inputs).push_back(word);
  Record record;
  record.add("kind", "check").add("name", name);
  auto executable = load(context, file, true);
  if (!executable.isOk())
    return fail(context, record, executable.status());
  rt::CudaExecutable &exe = **executable;
  std::vector<rt::HostTensor> in, want, direct;
  rt::Status status = readTensors(context, inputs, exe.program().inputs, in);
  if (status.isOk())
    status = readTensors(context, expected, exe.program().outputs, want);
  // The first run launches kernel by kernel; the second captures a graph
  // and the third replays it: all three must give the same bytes.
  if (status.isOk())
    status = exe.run(in, direct);
  std::vector<rt::HostTensor> captured, replayed;
  if (status.isOk())
    status = exe.run(in, captured).withContext("capturing run");
  if (status.isOk())
    status = exe.run(in, replayed).withContext("replayed run");
  if (!status.isOk())
    return fail(context, record, status);
  gpucheck::Comparison comparison =
      gpucheck::compareOutputs(direct, want, rtol, atol);
  bool graphReplayed = exe.counters().graphLaunches > 0;
  bool replayEqual = gpucheck::sameBytes(direct, captured) &&
                     gpucheck::sameBytes(direct, replayed);
  // The hooked path (profiles, --check-numerics) launches step by step and
  // copies results back: it must compute the same bytes, and on a correct
  // model find nothing non-finite.
  rt::NumericsCheck numerics;
  rt::RunOptions hooked;
  hooked.hooks = &numerics;
  std::vector<rt::HostTensor> again;
  status = exe.run(in, again, hooked);
  if (!status.isOk())
    return fail(context, record, status.withContext("hooked run"));
  bool hookedEqual = gpucheck::sameBytes(direct, again);
  // The same model with its GEMM calls on cuBLASLt where auto finds it
  // faster: the reference must hold on that path too.
  std::optional<gpucheck::Comparison> autoGemm;
  std::vector<std::string> gemmChoices;
  auto automatic = load(context, file, true, rt::GemmPath::kAuto);
  if (!automatic.isOk())
    return fail(context, record, automatic.status().withContext("--gemm auto"));
  if (!(*automatic)->gemmChoices().empty()) {
    std::vector<rt::HostTensor> viaAuto;
    status = (*automatic)->run(in, viaAuto);
    if (!status.isOk())
      return fail(context, record, status.withContext("--gemm auto"));
    autoGemm = gpucheck::compareOutputs(viaAuto, want, rtol, atol);
    gemmChoices = (*automatic)->gemmChoices();
    collectWarnings(context, name + " (--gemm auto)", **automatic);
  }
  bool ok = comparison.ok && replayEqual && hookedEqual &&
            (!autoGemm || autoGemm->ok);
  if (!ok)
    ++context.failures;
  std::optional<rt::NumericsFinding> finding = numerics.first();
  collectWarnings(context, name, exe);
  record.flag("ok", ok)
      .flag("hooked_run_equal", hookedEqual)
      .flag("graph_replay_equal", replayEqual)
      .flag("graph_replayed", graphReplayed)
      .add("numerics_checked_steps", double(numerics.checkedSteps()))
      .add("numerics_finding", finding ? finding->describe() : "")
      .add("max_abs_error", comparison.maxAbsError)
      .add("error_over_tolerance", comparison.errorOverTolerance)
      .add("mismatch", comparison.mismatch)
      .list("modules", exe.moduleChoices());
  if (autoGemm)
    record.flag("auto_gemm_ok", autoGemm->ok)
        .add("auto_gemm_max_abs_error", autoGemm->maxAbsError)
        .list("gemm_choices", gemmChoices);
  context.records.push_back(record.text());
  std::cout << (ok ? "PASS " : "FAIL ") << name << " (max abs error "
            << comparison.maxAbsError
            << (replayEqual ? "" : "; graph replay differs")
            << (hookedEqual ? "" : "; hooked run differs")
            << (comparison.mismatch.empty() ? "" : "; " + comparison.mismatch)
            << ")\n";
}

/// Median host-side latency (copies included) of `runs` runs.
rt::StatusOr<double> medianLatency(rt::CudaExecutable &executable,
                                   const std::vector<rt::HostTensor> &in,
                                   int runs) {
  std::vector<rt::HostTensor> out;
  std::vector<double> times;
  for (int i = 0; i < runs + 3; ++i) {
    auto start = std::chrono::steady_clock::now();
    KILN_RETURN_IF_ERROR(executable.run(in, out));
    if (i >= 3) // The first runs load, JIT and capture.
      times.push_back(std::chrono::duration<double, std::milli>(
                          std::chrono::steady_clock::now() - start)
                          .count());
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

void latency(Context &context, std::istringstream &line) {
  std::string name, fused, unfused, word;
  line >> name >> fused >> unfused;
  std::vector<std::string> inputs;
  while (line >> word)
    inputs.push_back(word);
  Record record;
  record.add("kind", "latency").add("name", name);
  struct Variant {
    const char *key;
    std::string file;
    bool graphs;
  } variants[] = {{"graphs_ms", fused, true},
                  {"no_graphs_ms", fused, false},
                  {"fusion_off_ms", unfused, true}};
  for (const Variant &variant : variants) {
    auto executable = load(context, variant.file, variant.graphs);
    std::vector<rt::HostTensor> in;
    rt::Status status = executable.status();
    if (status.isOk())
      status =
          readTensors(context, inputs, (*executable)->program().inputs, in);
    if (!status.isOk())
      return fail(context, record, status);
    auto ms = medianLatency(**executable, in, 50);
    if (!ms.isOk())
      return fail(context, record, ms.status());
    record.add(variant.key, *ms);
    if (&variant == &variants[0]) { // Device time: the fused graph only.
      auto device = (*executable)->timeLaunches(50, true);
      if (device.isOk())
        record.add("device_ms", *device);
      else
        record.add("device_ms_error", device.status().message());
      record.add("kernels",
                 double((*executable)->program().devices[0].steps.size()));
    }
    collectWarnings(context, name, **executable);
  }
  context.records.push_back(record.flag("ok", true).text());
  std::cout << "latency " << name << " done\n";
}

/// Loads `file` and runs it once on seeded inputs, so that timed launches
/// read real values rather than a zeroed arena.
rt::StatusOr<std::unique_ptr<rt::CudaExecutable>>
loadWithSeededInputs(Context &context, const std::string &file,
                     std::vector<rt::HostTensor> &in,
                     std::vector<rt::HostTensor> &out) {
  auto executable = load(context, file, true);
  if (!executable.isOk())
    return executable.status();
  in = gpucheck::randomTensors((*executable)->program().inputs, kInputSeed);
  KILN_RETURN_IF_ERROR((*executable)->run(in, out));
  return executable;
}

void bandwidth(Context &context, std::istringstream &line) {
  std::string name, file;
  line >> name >> file;
  Record record;
  record.add("kind", "bandwidth").add("name", name);
  std::vector<rt::HostTensor> in, out;
  auto executable = loadWithSeededInputs(context, file, in, out);
  if (!executable.isOk())
    return fail(context, record, executable.status());
  auto kernelMs = (*executable)->timeLaunches(100, true);
  if (!kernelMs.isOk())
    return fail(context, record, kernelMs.status());
  // A copy reads and writes its size: copy half the kernels' traffic.
  uint64_t bytes = (*executable)->launchArgumentBytes();
  auto copyMs = (*executable)->timeDeviceCopy(bytes / 2, 100);
  if (!copyMs.isOk())
    return fail(context, record, copyMs.status());
  double kernelGBs = bytes / (*kernelMs * 1e6),
         copyGBs = bytes / (*copyMs * 1e6);
  collectWarnings(context, name, **executable);
  record.flag("ok", true)
      .add("bytes", double(bytes))
      .add("kernel_ms", *kernelMs)
      .add("copy_ms", *copyMs)
      .add("kernel_GBps", kernelGBs)
      .add("copy_GBps", copyGBs)
      .add("fraction_of_copy", kernelGBs / copyGBs);
  context.records.push_back(record.text());
  std::cout << "bandwidth " << name << ": " << kernelGBs << " GB/s, "
            << 100 * kernelGBs / copyGBs << "% of copy\n";
}

void gemm(Context &context, std::istringstream &line) {
  std::string name, file;
  int64_t m = 0, n = 0, k = 0;
  line >> name >> file >> m >> n >> k;
  Record record;
  record.add("kind", "gemm").add("name", name);
  std::vector<rt::HostTensor> in, out;
  auto executable = loadWithSeededInputs(context, file, in, out);
  if (!executable.isOk())
    return fail(context, record, executable.status());
  const rt::Program &program = (*executable)->program();
  bool shapesMatch = in.size() == 2 && out.size() == 1 &&
                     in[0].dtype == rt::DType::kF32 &&
                     in[1].dtype == rt::DType::kF32 &&
                     in[0].shape == std::vector<int64_t>{m, k} &&
                     in[1].shape == std::vector<int64_t>{k, n} &&
                     out[0].shape == std::vector<int64_t>{m, n};
  if (!shapesMatch)
    return fail(context, record,
                rt::invalidArgument(
                    file + ": " + std::to_string(program.inputs.size()) +
                    " inputs do not make an f32 " + std::to_string(m) + "x" +
                    std::to_string(n) + "x" + std::to_string(k) + " GEMM"));
  auto kilnMs = (*executable)->timeLaunches(20, true);
  if (!kilnMs.isOk())
    return fail(context, record, kilnMs.status());
  double flops = 2.0 * m * n * k;
  record.add("kiln_ms", *kilnMs).add("kiln_TFLOPs", flops / (*kilnMs * 1e9));
  // cuBLASLt on the same operands: the time to beat and an independent
  // result (fp32 accumulation both; Kiln's 3xTF32 keeps fp32 accuracy).
  bool ok = true;
  std::vector<float> a = gpucheck::asFloats(in[0]),
                     b = gpucheck::asFloats(in[1]);
  auto cublas = gpucheck::runCublasLtSgemm(m, n, k, a, b, 20);
  if (cublas.isOk()) {
    rt::HostTensor reference{rt::DType::kF32, {m, n}, {}};
    reference.data.resize(cublas->c.size() * 4);
    std::memcpy(reference.data.data(), cublas->c.data(), reference.data.size());
    gpucheck::Comparison agree =
        gpucheck::compareOutputs(out, {reference}, 1e-4, 1e-3);
    ok = agree.ok;
    record.add("cublaslt_ms", cublas->ms)
        .add("cublaslt_TFLOPs", flops / (cublas->ms * 1e9))
        .add("kiln_over_cublaslt", *kilnMs / cublas->ms)
        .flag("agrees_with_cublaslt", agree.ok)
        .add("max_abs_difference", agree.maxAbsError);
  } else {
    record
        .add("cublaslt_error_class", rt::statusCodeName(cublas.status().code()))
        .add("cublaslt_error", cublas.status().message());
  }
  // Kiln's own cuBLASLt path (--gemm cublaslt) on the same artifact.
  auto viaLibrary = load(context, file, true, rt::GemmPath::kCublasLt);
  if (viaLibrary.isOk() && (*viaLibrary)->counters().blasLtSteps > 0) {
    std::vector<rt::HostTensor> libraryOut;
    rt::Status ran = (*viaLibrary)->run(in, libraryOut);
    auto libraryMs = ran.isOk() ? (*viaLibrary)->timeLaunches(20, true)
                                : rt::StatusOr<double>(ran);
    if (libraryMs.isOk()) {
      gpucheck::Comparison same =
          gpucheck::compareOutputs(libraryOut, out, 1e-4, 1e-3);
      ok = ok && same.ok;
      record.add("kiln_cublaslt_path_ms", *libraryMs)
          .flag("cublaslt_path_agrees", same.ok);
    } else {
      record.add("kiln_cublaslt_path_error", libraryMs.status().message());
    }
  } else {
    record.add("kiln_cublaslt_path_error",
               viaLibrary.isOk() ? "no GEMM call ran on cuBLASLt"
                                 : viaLibrary.status().message());
  }
  if (auto tf32 = gpucheck::runCublasLtSgemm(m, n, k, a, b, 20, true);
      tf32.isOk())
    record.add("cublaslt_tf32_ms", tf32->ms)
        .add("cublaslt_tf32_TFLOPs", flops / (tf32->ms * 1e9))
        .add("kiln_over_cublaslt_tf32", *kilnMs / tf32->ms);
  if (!ok)
    ++context.failures;
  collectWarnings(context, name, **executable);
  context.records.push_back(record.flag("ok", ok).text());
  std::cout << "gemm " << name << ": " << flops / (*kilnMs * 1e9) << " TFLOP/s"
            << (ok ? "" : " (differs from cuBLASLt)") << "\n";
}

/// GPUs the driver shows: the first ordinal it cannot open ends the count.
int countGpus() {
  int count = 0;
  while (count < 64 && rt::describeCudaDevice(count).isOk())
    ++count;
  return count;
}

void ncclAllReduce(Context &context, std::istringstream &line) {
  std::string name;
  double mib = 0;
  int iterations = 0;
  line >> name >> mib >> iterations;
  Record record;
  record.add("kind", "nccl").add("name", name);
  auto nccl = rt::ncclDescription();
  int gpus = countGpus();
  std::string skipped =
      !nccl.isOk() ? "no NCCL: " + nccl.status().message()
      : gpus < 2   ? "needs 2 or more GPUs, found " + std::to_string(gpus)
                   : "";
  if (nccl.isOk())
    record.add("nccl", *nccl);
  record.add("gpus", double(gpus));
  if (!skipped.empty()) {
    // Not a failure: one GPU cannot host two ranks of a communicator.
    context.records.push_back(record.add("skipped", skipped).text());
    std::cout << "nccl " << name << ": skipped (" << skipped << ")\n";
    return;
  }
  std::vector<int> devices;
  for (int d = 0; d < gpus; ++d)
    devices.push_back(d);
  size_t bytes = size_t(mib * (1 << 20)) / 4 * 4;
  auto measured = rt::measureNcclAllReduce(devices, bytes, iterations);
  if (!measured.isOk())
    return fail(context, record, measured.status());
  record.flag("ok", true)
      .add("ranks", double(measured->ranks))
      .add("bytes", double(measured->bytes))
      .add("median_ms", measured->medianMs)
      .add("algbw_GBps", measured->algorithmGBps)
      .add("busbw_GBps", measured->busGBps);
  context.records.push_back(record.text());
  std::cout << "nccl " << name << ": " << measured->busGBps
            << " GB/s bus bandwidth over " << measured->ranks << " GPUs\n";
}

Record deviceRecord(const rt::CudaDeviceInfo &info) {
  Record record;
  record.add("name", info.name)
      .add("sm", double(info.sm))
      .add("driver_cuda_version",
           std::to_string(info.driverVersion / 1000) + "." +
               std::to_string(info.driverVersion % 1000 / 10))
      .add("multiprocessors", double(info.multiprocessors))
      .add("clock_MHz", info.clockKHz / 1000.0)
      .add("memory_clock_MHz", info.memoryClockKHz / 1000.0)
      .add("memory_GiB", double(info.totalMemoryBytes) / (1ull << 30))
      .add("max_threads_per_block", double(info.maxThreadsPerBlock))
      .add("max_shared_bytes_per_block", double(info.maxSharedBytesPerBlock))
      .list("driver_fallbacks", info.driverFallbacks);
  return record;
}

/// Writes the JSON: status, device, records, failures, warnings.
bool writeJson(const std::string &path, const std::string &status,
               const std::string &head, const Context &context) {
  std::ofstream json(path);
  json << "{\"status\": " << gpucheck::jsonString(status) << ", " << head
       << "\"records\": [\n";
  for (size_t i = 0; i < context.records.size(); ++i)
    json << "  " << context.records[i]
         << (i + 1 < context.records.size() ? ",\n" : "\n");
  Record tail;
  tail.list("warnings", context.warnings);
  json << "], \"failures\": " << context.failures << ", "
       << tail.text().substr(1) << "\n";
  return bool(json);
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 4 || std::string(argv[2]) != "--json") {
    std::cerr << "usage: kiln-gpu-check MANIFEST --json OUT.json\n";
    return 2;
  }
  std::string manifest = argv[1], jsonPath = argv[3];
  std::ifstream input(manifest);
  if (!input) {
    std::cerr << "kiln-gpu-check: cannot read " << manifest << "\n";
    return 2;
  }
  Context context;
  size_t slash = manifest.rfind('/');
  context.folder = slash == std::string::npos ? "." : manifest.substr(0, slash);

  // The GPU first: without one (or with a driver too old) say so and stop.
  auto device = rt::describeCudaDevice(0);
  if (!device.isOk()) {
    rt::StatusCode code = device.status().code();
    const char *status = code == rt::StatusCode::kUnavailable ? "no_gpu"
                         : code == rt::StatusCode::kUnimplemented
                             ? "driver_unsupported"
                             : "error";
    Record why;
    why.add("error_class", rt::statusCodeName(code))
        .add("reason", device.status().message());
    writeJson(jsonPath, status,
              why.text().substr(1, why.text().size() - 2) + ", ", context);
    std::cerr << "kiln-gpu-check: " << status << ": "
              << device.status().message() << "\n";
    return code == rt::StatusCode::kUnavailable     ? 5
           : code == rt::StatusCode::kUnimplemented ? 3
                                                    : 4;
  }
  std::cout << "GPU 0: " << device->name << " (sm_" << device->sm
            << "), driver for CUDA " << device->driverVersion / 1000 << "."
            << device->driverVersion % 1000 / 10 << "\n";
  for (const std::string &fallback : device->driverFallbacks)
    context.warnings.push_back("driver: " + fallback);

  std::string text;
  while (std::getline(input, text)) {
    std::istringstream line(text);
    std::string kind;
    if (!(line >> kind) || kind[0] == '#')
      continue;
    if (kind == "check")
      check(context, line);
    else if (kind == "latency")
      latency(context, line);
    else if (kind == "bandwidth")
      bandwidth(context, line);
    else if (kind == "gemm")
      gemm(context, line);
    else if (kind == "nccl")
      ncclAllReduce(context, line);
    else {
      std::cerr << "kiln-gpu-check: unknown manifest line '" << text << "'\n";
      return 2;
    }
    if (context.noGpu)
      break; // Every other line would fail the same way.
  }
  std::string status = context.noGpu      ? "no_gpu"
                       : context.failures ? "failed"
                                          : "passed";
  writeJson(jsonPath, status,
            "\"device\": " + deviceRecord(*device).text() + ", ", context);
  std::cout << "wrote " << jsonPath << ": " << context.records.size()
            << " records, " << context.failures << " failures, "
            << context.warnings.size() << " warnings\n";
  if (context.noGpu)
    return 5;
  return context.failures ? 1 : 0;
}
