// A small GEMM for runner.test: the fake cuBLASLt computes on the host.
func.func @main(%a: tensor<64x32xf32>, %b: tensor<32x48xf32>) -> tensor<64x48xf32> {
  %0 = kiln.matmul %a, %b : (tensor<64x32xf32>, tensor<32x48xf32>) -> tensor<64x48xf32>
  return %0 : tensor<64x48xf32>
}
