// GPU GEMM workload: 2048 x 2048 x 2048 fp32, against cuBLASLt.
func.func @main(%a: tensor<2048x2048xf32>, %b: tensor<2048x2048xf32>) -> tensor<2048x2048xf32> {
  %0 = kiln.matmul %a, %b : (tensor<2048x2048xf32>, tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  return %0 : tensor<2048x2048xf32>
}
