"""Building blocks of the malformed-model corpus (see make_corpus.py):
the case list, protobuf field encoding, model construction, the writer."""
import os

import numpy as np
from onnx import TensorProto, helper, numpy_helper

T = TensorProto
vi = helper.make_tensor_value_info
node = helper.make_node

CASES = []  # (relative path, exit, message, args, why)


def case(path, exit_code, message, why, args=()):
    CASES.append((path, exit_code, message, list(args), why))


# ---------------------------------------------------------------------------
# Building blocks
# ---------------------------------------------------------------------------

def varint(n):
    n &= (1 << 64) - 1  # negative ints are 10-byte two's complement varints
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def field(num, wire, payload):
    """One protobuf field: wire 0 (varint int) or 2 (bytes/str/message)."""
    key = varint((num << 3) | wire)
    if wire == 0:
        return key + varint(payload)
    if isinstance(payload, str):
        payload = payload.encode()
    return key + varint(len(payload)) + payload


def make_model(nodes, inputs, outputs, inits=(), opset=13, name="g",
               extra_opsets=(), sparse=()):
    graph = helper.make_graph(nodes, name, inputs, outputs, list(inits),
                              sparse_initializer=list(sparse))
    opsets = [helper.make_opsetid("", opset)] if opset is not None else []
    opsets += [helper.make_opsetid(d, v) for d, v in extra_opsets]
    model = helper.make_model(graph, opset_imports=opsets,
                              producer_name="kiln-malformed-corpus")
    model.ir_version = 8
    return model


def const(name, array):
    return numpy_helper.from_array(np.asarray(array), name)


def f32(*shape):
    return np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape)


class Writer:
    def __init__(self, out):
        self.out = out

    def path(self, rel):
        return os.path.join(self.out, rel)

    def bytes(self, rel, data, exit_code, message, why, args=()):
        full = self.path(rel)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "wb") as f:
            f.write(data)
        case(rel, exit_code, message, why, args)

    def model(self, rel, model, exit_code, message, why, args=()):
        self.bytes(rel, model.SerializeToString(), exit_code, message, why,
                   args)

    def simple(self, rel, nodes, inputs, outputs, inits=(), exit_code=2,
               message="", why="", opset=13, args=()):
        self.model(rel, make_model(nodes, inputs, outputs, inits, opset),
                   exit_code, message, why, args)

    def side(self, rel, data):
        full = self.path(rel)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "wb") as f:
            f.write(data)


# A valid model used as the base of byte-level damage: one input, a 16x16
# float weight (raw_data, 1 KiB) and a MatMul.
def base_model():
    w = numpy_helper.from_array(
        np.random.RandomState(7).randn(16, 16).astype(np.float32), "weight")
    return make_model(
        [node("MatMul", ["x", "weight"], ["y"], name="mm")],
        [vi("x", T.FLOAT, [2, 16])], [vi("y", T.FLOAT, [2, 16])], [w])


PARSE = "protobuf parsing failed"
MARKER = ".kiln-malformed-corpus"
