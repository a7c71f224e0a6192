"""Writes an MLP whose two 512x512 weights (262144 elements each) are not
splats; with --check FILE, checks that FILE holds rank 1's halves."""
import re
import struct
import sys

import numpy as np

W1 = np.arange(512 * 512, dtype=np.float32).reshape(512, 512) / 1000.0
W2 = -W1.T.copy()


def hex_of(array):
    return "0x" + array.astype("<f4").tobytes().hex().upper()


def constants(path):
    found = {}
    for data, shape in re.findall(
            r'kiln.constant dense<"(0x[0-9A-F]+)"> : tensor<([0-9x]+)xf32>',
            open(path).read()):
        dims = tuple(int(d) for d in shape.split("x"))
        found.setdefault(dims, []).append(
            np.frombuffer(bytes.fromhex(data[2:]), "<f4").reshape(dims))
    return found


if len(sys.argv) == 3 and sys.argv[1] == "--check":
    found = constants(sys.argv[2])
    assert any(np.array_equal(a, W1[:, 256:]) for a in found[(512, 256)]), \
        "rank 1 lacks W1's second half of columns"
    assert any(np.array_equal(a, W2[256:, :]) for a in found[(256, 512)]), \
        "rank 1 lacks W2's second half of rows"
    print("rank 1 holds its halves")
    sys.exit(0)

print(f'''func.func @mlp(%x: tensor<4x512xf32>) -> tensor<4x512xf32> {{
  %w1 = kiln.constant dense<"{hex_of(W1)}"> : tensor<512x512xf32>
  %w2 = kiln.constant dense<"{hex_of(W2)}"> : tensor<512x512xf32>
  %h = kiln.matmul %x, %w1 : (tensor<4x512xf32>, tensor<512x512xf32>) -> tensor<4x512xf32>
  %r = kiln.relu %h : tensor<4x512xf32>
  %y = kiln.matmul %r, %w2 : (tensor<4x512xf32>, tensor<512x512xf32>) -> tensor<4x512xf32>
  return %y : tensor<4x512xf32>
}}''')
