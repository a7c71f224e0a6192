// A model whose input and output carry names, as the ONNX importer will set
// them; the output name is not file-safe on purpose.
func.func @named(%x: tensor<2x3xf32> {kiln.name = "pixels"})
    -> (tensor<2x3xf32> {kiln.name = "probs/../out:0"}) {
  %0 = kiln.relu %x : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
