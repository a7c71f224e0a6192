func.func @batch_norm_ranks(%x: tensor<8x16xf16>, %p: tensor<16xf16>, %y: tensor<2x4x10xbf16>, %q: tensor<4xbf16>) {
  %0 = kiln.batch_norm %x, %p, %p, %p, %p epsilon 1.0e-03
      : (tensor<8x16xf16>, tensor<16xf16>, tensor<16xf16>, tensor<16xf16>, tensor<16xf16>) -> tensor<8x16xf16>
  %1 = kiln.batch_norm %y, %q, %q, %q, %q epsilon 0.0
      : (tensor<2x4x10xbf16>, tensor<4xbf16>, tensor<4xbf16>, tensor<4xbf16>, tensor<4xbf16>) -> tensor<2x4x10xbf16>
  return
}
