func.func @shared_read(%x: tensor<1024xf32>) -> (tensor<1024xf32>, tensor<1024xf32>) {
  %e = kiln.exp %x : tensor<1024xf32>
  %n = kiln.neg %e : tensor<1024xf32>
  %a = kiln.abs %e : tensor<1024xf32>
  return %n, %a : tensor<1024xf32>, tensor<1024xf32>
}
