func.func @gemm_variants(%at: tensor<16x4xf16>, %bt: tensor<32x16xf16>, %c2: tensor<4x32xf16>,
                         %c1: tensor<4x1xf16>, %cs: tensor<f16>, %b: tensor<16x32xf16>) {
  %0 = kiln.gemm %at, %b, %c2 {trans_a} : (tensor<16x4xf16>, tensor<16x32xf16>, tensor<4x32xf16>) -> tensor<4x32xf16>
  %1 = kiln.gemm %at, %bt, %c1 {trans_a, trans_b} : (tensor<16x4xf16>, tensor<32x16xf16>, tensor<4x1xf16>) -> tensor<4x32xf16>
  %2 = kiln.gemm %at, %bt, %cs {alpha = 0.5 : f64, beta = 2.0 : f64, trans_a, trans_b} : (tensor<16x4xf16>, tensor<32x16xf16>, tensor<f16>) -> tensor<4x32xf16>
  %3 = kiln.gemm %at, %bt {alpha = 3.0 : f64, trans_a, trans_b} : (tensor<16x4xf16>, tensor<32x16xf16>) -> tensor<4x32xf16>
  return
}
