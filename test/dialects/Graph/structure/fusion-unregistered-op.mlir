// RUN: kiln-opt %s --allow-unregistered-dialect -split-input-file -verify-diagnostics

// Regression test (was a bug): FusionOp::verify calls isa<KilnDialect>(op.getDialect()) on every op
// of the body; an unregistered op has no dialect (null), and kiln-opt
// crashes (SIGSEGV in kiln::FusionOp::verify) instead of reporting the op.
// The correct behaviour is the ordinary "cannot be inside" diagnostic.

// kiln.fusion: an op of an unregistered dialect inside the body.
func.func @fusion_unregistered_op(%x: tensor<2xf32>) -> tensor<2xf32> {
  %r = kiln.fusion ins(%x : tensor<2xf32>) -> tensor<2xf32> {
  ^bb0(%a: tensor<2xf32>):
    // expected-error @+1 {{'test.unregistered' op cannot be inside a 'kiln.fusion' body: only non-fusion kiln ops (or the arith, linalg, math and tensor ops they lower to) can}}
    %c = "test.unregistered"() : () -> tensor<2xf32>
    kiln.yield %c : tensor<2xf32>
  }
  return %r : tensor<2xf32>
}
