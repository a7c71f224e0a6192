// onnx-jit: JIT-compile an ONNX file from a C++ program and run it on
// buffers the program owns (no copies), after showing that a wrong input is
// a clear error, not a crash.
//
//   onnx-jit MODEL.onnx [NAME=DxD...]   (shapes for symbolic dimensions)
#include <kiln/kiln.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

int main(int argc, char **argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: onnx-jit MODEL.onnx [NAME=DxD...]\n");
    return 1;
  }
  kiln::CompileOptions options;
  for (int i = 2; i < argc; ++i) {
    std::string spec = argv[i];
    size_t eq = spec.find('=');
    std::vector<int64_t> shape;
    for (size_t at = eq + 1; eq != std::string::npos && at <= spec.size();) {
      size_t x = spec.find('x', at);
      shape.push_back(std::stoll(spec.substr(at, x - at)));
      at = x == std::string::npos ? spec.size() + 1 : x + 1;
    }
    options.inputShapes[spec.substr(0, eq)] = shape;
  }
  auto compiler = kiln::Compiler::create(options);
  if (!compiler.isOk()) {
    std::fprintf(stderr, "%s\n", compiler.status().message().c_str());
    return kiln::exitCodeFor(compiler.status());
  }
  auto model = (*compiler)->compile(kiln::ModelSource::file(argv[1]));
  if (!model.isOk()) {
    // The same located message kilnc prints, e.g.
    // "model.onnx: error: node 'fc1': ...".
    std::fprintf(stderr, "%s\n", model.status().message().c_str());
    return kiln::exitCodeFor(model.status());
  }
  kiln::Executable &executable = **model;

  // Buffers owned by this program: inputs filled with 0.5, outputs empty.
  std::vector<std::vector<float>> inputData, outputData;
  std::vector<kiln::TensorRef> inputs, outputs;
  for (const kiln::TensorInfo &info : executable.inputs()) {
    if (info.dtype != kiln::DType::kF32) {
      std::fprintf(stderr,
                   "onnx-jit: this example feeds float32 inputs only\n");
      return 1;
    }
    size_t count = 1;
    for (int64_t d : info.shape)
      count *= size_t(d);
    inputData.emplace_back(count, 0.5f);
  }
  for (const kiln::TensorInfo &info : executable.outputs()) {
    size_t count = 1;
    for (int64_t d : info.shape)
      count *= size_t(d);
    outputData.emplace_back(
        count * kiln::rt::dtypeSize(info.dtype) / sizeof(float) + 1);
  }
  for (size_t i = 0; i < inputData.size(); ++i)
    inputs.push_back({kiln::DType::kF32, executable.inputs()[i].shape,
                      inputData[i].data(),
                      inputData[i].size() * sizeof(float)});
  for (size_t i = 0; i < outputData.size(); ++i)
    outputs.push_back({executable.outputs()[i].dtype,
                       executable.outputs()[i].shape, outputData[i].data(),
                       outputData[i].size() * sizeof(float)});

  // Misuse is an error with a message, never a crash.
  if (!inputs.empty()) {
    std::vector<kiln::TensorRef> wrong = inputs;
    wrong[0].shape.push_back(7);
    kiln::Status status = executable.run(wrong, outputs);
    std::printf("wrong input shape -> %s\n", status.toString().c_str());
  }

  kiln::Status status = executable.run(inputs, outputs);
  if (!status.isOk()) {
    std::fprintf(stderr, "%s\n", status.message().c_str());
    return kiln::exitCodeFor(status);
  }
  for (size_t i = 0; i < outputs.size(); ++i) {
    const kiln::TensorInfo &info = executable.outputs()[i];
    std::printf("output '%s' %s[", info.name.c_str(),
                kiln::rt::dtypeName(info.dtype));
    for (size_t d = 0; d < info.shape.size(); ++d)
      std::printf("%s%lld", d ? ", " : "", (long long)info.shape[d]);
    std::printf("]");
    if (info.dtype == kiln::DType::kF32)
      for (size_t j = 0; j < 4 && j < outputData[i].size() - 1; ++j)
        std::printf(" %.5f", outputData[i][j]);
    std::printf("\n");
  }
  return 0;
}
