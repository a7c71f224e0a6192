func.func @float_unary(%f: tensor<8xf32>, %h: tensor<8xf16>, %b: tensor<8xbf16>, %d: tensor<f64>) {
  %0 = kiln.exp %f : tensor<8xf32>
  %1 = kiln.log %h : tensor<8xf16>
  %2 = kiln.sqrt %b : tensor<8xbf16>
  %3 = kiln.rsqrt %d : tensor<f64>
  %4 = kiln.reciprocal %f : tensor<8xf32>
  %5 = kiln.tanh %h : tensor<8xf16>
  %6 = kiln.sigmoid %b : tensor<8xbf16>
  %7 = kiln.erf %f : tensor<8xf32>
  %8 = kiln.floor %h : tensor<8xf16>
  %9 = kiln.ceil %b : tensor<8xbf16>
  %10 = kiln.sin %d : tensor<f64>
  %11 = kiln.cos %f : tensor<8xf32>
  %12 = kiln.hardswish %h : tensor<8xf16>
  return
}
