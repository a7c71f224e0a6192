func.func @global_pool(%x: tensor<1x512x7x7xf32>, %y: tensor<2x4x9xf16>, %z: tensor<1x2x3x4x5xbf16>) {
  %0 = kiln.global_avg_pool %x : tensor<1x512x7x7xf32> -> tensor<1x512x1x1xf32>
  %1 = kiln.global_max_pool %x : tensor<1x512x7x7xf32> -> tensor<1x512x1x1xf32>
  %2 = kiln.global_avg_pool %y : tensor<2x4x9xf16> -> tensor<2x4x1xf16>
  %3 = kiln.global_max_pool %z : tensor<1x2x3x4x5xbf16> -> tensor<1x2x1x1x1xbf16>
  return
}
