func.func @clip_min_above_max(%a: tensor<4xf32>) {
  %0 = kiln.clip %a min 6.0 max 0.5 : tensor<4xf32>
  return
}
