func.func @gemm_bf16_f64(%a: tensor<2x3xbf16>, %b: tensor<3x5xbf16>, %c: tensor<5xbf16>,
                         %d: tensor<1x2xf64>, %e: tensor<7x2xf64>) {
  %0 = kiln.gemm %a, %b, %c : (tensor<2x3xbf16>, tensor<3x5xbf16>, tensor<5xbf16>) -> tensor<2x5xbf16>
  %1 = kiln.gemm %d, %e {trans_b} : (tensor<1x2xf64>, tensor<7x2xf64>) -> tensor<1x7xf64>
  return
}
