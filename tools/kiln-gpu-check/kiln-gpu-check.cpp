//===- kiln-gpu-check.cpp - Run the prepared GPU checks -------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Reads the manifest scripts/gpu-prepare.sh wrote and runs it on the GPU:
// numeric checks of CUDA artifacts against reference outputs, end-to-end
// latency with and without CUDA Graphs and with fusion off, kernel
// bandwidth against a device-to-device copy, GEMM throughput against
// cuBLASLt. Everything goes into one JSON file. Runtime only: no MLIR,
// no LLVM, no compiler on the GPU machine.
//
// Manifest lines (paths relative to the manifest's folder):
//   check NAME ARTIFACT RTOL ATOL INPUT=FILE.npy... -- OUTPUT=FILE.npy...
//   latency NAME FUSED.kiln UNFUSED.kiln INPUT=FILE.npy...
//   bandwidth NAME ARTIFACT
//   gemm NAME ARTIFACT M N K
//
// Exit codes: 0 every check passed; 1 a numeric check failed; 2 bad
// manifest or files; 5 no GPU or driver.
//
//===----------------------------------------------------------------------===//

#include "CublasLt.h"

#include "kiln/runtime/Artifact.h"
#include "kiln/runtime/CudaExecutable.h"
#include "kiln/runtime/Npy.h"
#include "kiln/runtime/NumericsCheck.h"

#include <algorithm>
#include <chrono>
#include <optional>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <vector>

using namespace kiln;

namespace {

/// JSON text of one record, built by hand (no JSON library in the runtime).
class Record {
public:
  Record &add(const std::string &key, const std::string &value) {
    std::string escaped;
    for (char c : value)
      escaped += (c == '"' || c == '\\') ? std::string("\\") + c
                 : (c == '\n')           ? std::string("\\n")
                                         : std::string(1, c);
    fields_.push_back("\"" + key + "\": \"" + escaped + "\"");
    return *this;
  }
  Record &add(const std::string &key, double value) {
    char text[64];
    std::snprintf(text, sizeof text, std::isfinite(value) ? "%.6g" : "null",
                  value);
    fields_.push_back("\"" + key + "\": " + text);
    return *this;
  }
  Record &flag(const std::string &key, bool value) {
    fields_.push_back("\"" + key + "\": " + (value ? "true" : "false"));
    return *this;
  }
  std::string text() const {
    std::string out = "{";
    for (size_t i = 0; i < fields_.size(); ++i)
      out += (i ? ", " : "") + fields_[i];
    return out + "}";
  }

private:
  std::vector<std::string> fields_;
};

struct Context {
  std::string folder;
  std::vector<std::string> records;
  int failures = 0;
  bool noGpu = false;
};

std::string pathOf(const Context &context, const std::string &file) {
  return file.empty() || file[0] == '/' ? file : context.folder + "/" + file;
}

rt::StatusOr<std::unique_ptr<rt::CudaExecutable>>
load(const Context &context, const std::string &file, bool graphs) {
  auto artifact = rt::readArtifactFile(pathOf(context, file));
  if (!artifact.isOk())
    return artifact.status();
  rt::CudaLoadOptions options;
  options.graphs = graphs;
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

double elementAsDouble(const rt::HostTensor &tensor, int64_t i) {
  const uint8_t *p = tensor.data.data();
  switch (tensor.dtype) {
  case rt::DType::kF32: {
    float v;
    std::memcpy(&v, p + 4 * i, 4);
    return v;
  }
  case rt::DType::kF64: {
    double v;
    std::memcpy(&v, p + 8 * i, 8);
    return v;
  }
  case rt::DType::kI32: {
    int32_t v;
    std::memcpy(&v, p + 4 * i, 4);
    return v;
  }
  case rt::DType::kI64: {
    int64_t v;
    std::memcpy(&v, p + 8 * i, 8);
    return double(v);
  }
  default:
    return p[i];
  }
}

void fail(Context &context, Record record, const rt::Status &status) {
  if (status.code() == rt::StatusCode::kUnavailable)
    context.noGpu = true;
  ++context.failures;
  record.flag("ok", false).add("error", status.message());
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
  std::vector<rt::HostTensor> in, want, got;
  rt::Status status =
      readTensors(context, inputs, (*executable)->program().inputs, in);
  if (status.isOk())
    status =
        readTensors(context, expected, (*executable)->program().outputs, want);
  if (status.isOk())
    status = (*executable)->run(in, got);
  if (!status.isOk())
    return fail(context, record, status);
  double worst = 0, worstAbs = 0;
  bool ok = true;
  for (size_t o = 0; o < got.size(); ++o) {
    if (got[o].numElements() != want[o].numElements()) {
      ok = false;
      continue;
    }
    for (int64_t i = 0; i < got[o].numElements(); ++i) {
      double a = elementAsDouble(got[o], i), b = elementAsDouble(want[o], i);
      if (std::isnan(a) && std::isnan(b))
        continue;
      double error = std::fabs(a - b);
      worstAbs = std::max(worstAbs, error);
      worst = std::max(worst, error / (atol + rtol * std::fabs(b)));
      if (!(error <= atol + rtol * std::fabs(b)))
        ok = false;
    }
  }
  // The hooked path (profiles, --check-numerics) launches step by step and
  // copies results back: it must compute the same bytes, and on a correct
  // model find nothing non-finite that the direct run's outputs lack.
  rt::NumericsCheck numerics;
  rt::RunOptions hooked;
  hooked.hooks = &numerics;
  std::vector<rt::HostTensor> again;
  status = (*executable)->run(in, again, hooked);
  if (!status.isOk())
    return fail(context, record, status.withContext("hooked run"));
  bool hookedEqual = again.size() == got.size();
  for (size_t o = 0; hookedEqual && o < got.size(); ++o)
    hookedEqual = again[o].data == got[o].data;
  ok = ok && hookedEqual;
  if (!ok)
    ++context.failures;
  std::optional<rt::NumericsFinding> finding = numerics.first();
  record.flag("ok", ok)
      .flag("hooked_run_equal", hookedEqual)
      .add("numerics_checked_steps", double(numerics.checkedSteps()))
      .add("numerics_finding", finding ? finding->describe() : "")
      .add("max_abs_error", worstAbs)
      .add("error_over_tolerance", worst)
      .add("module", (*executable)->moduleChoices().empty()
                         ? ""
                         : (*executable)->moduleChoices().front());
  context.records.push_back(record.text());
  std::cout << (ok ? "PASS " : "FAIL ") << name << " (max abs error "
            << worstAbs << ")\n";
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
    if (variant.graphs && variant.file == fused) {
      auto device = (*executable)->timeLaunches(50, true);
      if (device.isOk())
        record.add("device_ms", *device);
      record.add("kernels",
                 double((*executable)->program().devices[0].steps.size()));
    }
  }
  context.records.push_back(record.flag("ok", true).text());
  std::cout << "latency " << name << " done\n";
}

void bandwidth(Context &context, std::istringstream &line) {
  std::string name, file;
  line >> name >> file;
  Record record;
  record.add("kind", "bandwidth").add("name", name);
  auto executable = load(context, file, true);
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
  auto executable = load(context, file, true);
  if (!executable.isOk())
    return fail(context, record, executable.status());
  auto kilnMs = (*executable)->timeLaunches(20, true);
  if (!kilnMs.isOk())
    return fail(context, record, kilnMs.status());
  double flops = 2.0 * m * n * k;
  record.flag("ok", true)
      .add("kiln_ms", *kilnMs)
      .add("kiln_TFLOPs", flops / (*kilnMs * 1e9));
  auto cublas = gpucheck::timeCublasLtSgemm(m, n, k, 20);
  if (cublas.isOk())
    record.add("cublaslt_ms", *cublas)
        .add("cublaslt_TFLOPs", flops / (*cublas * 1e9))
        .add("kiln_over_cublaslt", *kilnMs / *cublas);
  else
    record.add("cublaslt_error", cublas.status().message());
  if (auto tf32 = gpucheck::timeCublasLtSgemm(m, n, k, 20, true); tf32.isOk())
    record.add("cublaslt_tf32_ms", *tf32)
        .add("cublaslt_tf32_TFLOPs", flops / (*tf32 * 1e9))
        .add("kiln_over_cublaslt_tf32", *kilnMs / *tf32);
  context.records.push_back(record.text());
  std::cout << "gemm " << name << ": " << flops / (*kilnMs * 1e9)
            << " TFLOP/s\n";
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 4 || std::string(argv[2]) != "--json") {
    std::cerr << "usage: kiln-gpu-check MANIFEST --json OUT.json\n";
    return 2;
  }
  std::string manifest = argv[1];
  std::ifstream input(manifest);
  if (!input) {
    std::cerr << "kiln-gpu-check: cannot read " << manifest << "\n";
    return 2;
  }
  Context context;
  size_t slash = manifest.rfind('/');
  context.folder = slash == std::string::npos ? "." : manifest.substr(0, slash);
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
    else {
      std::cerr << "kiln-gpu-check: unknown manifest line '" << text << "'\n";
      return 2;
    }
    if (context.noGpu)
      break; // Every other line would fail the same way.
  }
  std::ofstream json(argv[3]);
  json << "{\"records\": [\n";
  for (size_t i = 0; i < context.records.size(); ++i)
    json << "  " << context.records[i]
         << (i + 1 < context.records.size() ? ",\n" : "\n");
  json << "], \"failures\": " << context.failures << "}\n";
  std::cout << "wrote " << argv[3] << ": " << context.records.size()
            << " records, " << context.failures << " failures\n";
  if (context.noGpu)
    return 5;
  return context.failures ? 1 : 0;
}
