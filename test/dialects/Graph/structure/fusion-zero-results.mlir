// RUN: kiln-opt %s -split-input-file -verify-diagnostics

// Regression test: a kiln.fusion without results used to verify but printed
// as `-> {`, which does not parse back. A fusion computes something, so the
// verifier rejects an empty result list.

func.func @fusion_no_results(%x: tensor<2xf32>) {
  // expected-error @+1 {{'kiln.fusion' op expects at least one result}}
  "kiln.fusion"(%x) ({
  ^bb0(%a: tensor<2xf32>):
    "kiln.yield"() : () -> ()
  }) : (tensor<2xf32>) -> ()
  return
}
