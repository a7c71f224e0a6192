// RUN: kiln-opt %s --kiln-verify-graph-contract -split-input-file -verify-diagnostics

// The graph contract admits kiln and func ops inside the module, and no other
// builtin op: an unrealized_conversion_cast means a conversion went wrong.
// (Regression: the message used to claim "builtin ops" were allowed.)

func.func @builtin_cast(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{op 'builtin.unrealized_conversion_cast' is not allowed by the graph contract (only kiln and func ops inside the module)}}
  %0 = builtin.unrealized_conversion_cast %x : tensor<2xf32> to tensor<2xf32>
  return %0 : tensor<2xf32>
}
