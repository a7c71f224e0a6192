#!/usr/bin/env python3
"""NumPy oracle for kilnc --weight-only int8|int4[:gGROUP].

  model DIR KIND   writes DIR/model.onnx and DIR/x.npy. KIND:
                   mlp      x[ROWS, 300] -> MatMul W1[300, 70] -> Relu ->
                            Gemm(transB, alpha 0.5, bias) with W2[130, 70]
                   gemv     x[1, 300], the same MLP (one row)
                   batched  x[2, 3, 300] -> MatMul W1 (batch folds into rows)
  check DIR BITS GROUP
                   quantizes W1 and W2 as the kiln-weight-only pass does
                   (symmetric per group of GROUP rows and column, scale =
                   max|w| / (2^(BITS-1) - 1), round half to even, in f32),
                   runs the model in float64 on the dequantized weights and
                   compares DIR/out/y.npy: equal up to f32 summation order,
                   and measurably different from the fp32 model.
"""

import sys

import numpy as np

K, N1, N2 = 300, 70, 130


def weights():
    rng = np.random.default_rng(7)
    w1 = rng.standard_normal((K, N1)).astype(np.float32)
    w2 = rng.standard_normal((N2, N1)).astype(np.float32)  # Gemm transB
    bias = rng.standard_normal(N2).astype(np.float32)
    # A column of zeros: its scale is 0 and its values 0.
    w1[:, 5] = 0
    return w1, w2, bias


def write_model(folder, kind):
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    w1, w2, bias = weights()
    shape = {"mlp": [5, K], "gemv": [1, K], "batched": [2, 3, K]}[kind]
    nodes = [helper.make_node("MatMul", ["x", "w1"], ["h"], name="fc1")]
    initializers = [numpy_helper.from_array(w1, "w1")]
    output_shape = shape[:-1] + [N1]
    if kind != "batched":
        nodes += [
            helper.make_node("Relu", ["h"], ["r"]),
            helper.make_node("Gemm", ["r", "w2", "b"], ["y"], transB=1,
                             alpha=0.5, name="fc2"),
        ]
        initializers += [numpy_helper.from_array(w2, "w2"),
                         numpy_helper.from_array(bias, "b")]
        output_shape = shape[:-1] + [N2]
    else:
        nodes[0].output[0] = "y"
    graph = helper.make_graph(
        nodes, "weight_only",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, shape)],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, output_shape)],
        initializers)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    onnx.save(model, folder + "/model.onnx")
    rng = np.random.default_rng(11)
    np.save(folder + "/x.npy", rng.standard_normal(shape).astype(np.float32))


def quantize(w, bits, group):
    """w: K x N f32. The dequantized weights, as f64."""
    qmax = np.float32(127 if bits == 8 else 7)
    out = np.zeros(w.shape, dtype=np.float64)
    for first in range(0, w.shape[0], group):
        block = w[first:first + group]
        scale = (np.abs(block).max(axis=0) / qmax).astype(np.float32)
        safe = np.where(scale == 0, np.float32(1), scale)
        q = np.clip(np.rint(block / safe), -qmax - 1, qmax)
        q = np.where(scale == 0, 0, q)
        out[first:first + group] = q.astype(np.float64) * scale.astype(np.float64)
    return out


def run(x, w1, w2, bias, batched):
    h = x @ w1
    if batched:
        return h
    return 0.5 * (np.maximum(h, 0) @ w2.T) + bias


def check(folder, bits, group):
    w1, w2, bias = weights()
    x = np.load(folder + "/x.npy").astype(np.float64)
    batched = x.ndim == 3
    expected = run(x, quantize(w1, bits, group), quantize(w2.T, bits, group).T,
                   bias.astype(np.float64), batched)
    fp32 = run(x, w1.astype(np.float64), w2.astype(np.float64),
               bias.astype(np.float64), batched)
    y = np.load(folder + "/out/y.npy")
    if y.shape != expected.shape:
        print("FAILED: shape %s, expected %s" % (y.shape, expected.shape))
        sys.exit(1)
    magnitude = np.abs(expected).max()
    error = np.abs(y - expected).max() / magnitude
    drift = np.abs(fp32 - expected).max() / magnitude
    if error > 1e-5 or drift < 1e-4:
        print("FAILED: %.3g from the quantized reference, %.3g between it and fp32"
              % (error, drift))
        sys.exit(1)
    print("int%d g%d matches the quantized reference (relative error %.1g; "
          "fp32 differs by %.2g)" % (bits, group, error, drift))


def main():
    if sys.argv[1] == "model":
        write_model(sys.argv[2], sys.argv[3])
    else:
        check(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))


if __name__ == "__main__":
    main()
