#!/usr/bin/python3
"""Writes the models of recurrent.test: ONNX GRU and LSTM nodes built by
hand from the weights of PyTorch's nn.GRU / nn.LSTM (gates reordered to
ONNX's), bidirectional, batch first (layout 1), with batch entries of
different lengths (sequence_lens). The reference is PyTorch on a packed
sequence: outputs past an entry's length are 0, and the final states are
each entry's last valid ones. Deterministic (fixed seed)."""
import os
import sys

import numpy as np
import onnx
import torch
from onnx import TensorProto, helper, numpy_helper
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
torch.manual_seed(0)
SEQ, BATCH, FEATURES, HIDDEN = 5, 3, 4, 6
LENGTHS = [5, 2, 4]


def onnx_weights(module, torch_order, onnx_order):
    """W, R, B of ONNX from a torch module's two directions."""
    def reorder(t):
        chunks = dict(zip(torch_order, t.detach().numpy().reshape(
            len(torch_order), HIDDEN, *t.shape[1:])))
        return np.concatenate([chunks[g] for g in onnx_order])
    ws, rs, bs = [], [], []
    for suffix in ["", "_reverse"]:
        ws.append(reorder(getattr(module, "weight_ih_l0" + suffix)))
        rs.append(reorder(getattr(module, "weight_hh_l0" + suffix)))
        bs.append(np.concatenate([reorder(getattr(module, "bias_ih_l0" + suffix)),
                                  reorder(getattr(module, "bias_hh_l0" + suffix))]))
    return np.stack(ws), np.stack(rs), np.stack(bs)


def write(name, op, module, torch_order, onnx_order, extra_attrs):
    x = torch.randn(BATCH, SEQ, FEATURES)
    packed = pack_padded_sequence(x, torch.tensor(LENGTHS), batch_first=True,
                                  enforce_sorted=False)
    with torch.no_grad():
        y, state = module(packed)
    y, _ = pad_packed_sequence(y, batch_first=True, total_length=SEQ)
    h = state[0] if op == "LSTM" else state
    # Y with layout 1 is [batch, seq, dirs, hidden]; Y_h [batch, dirs, hidden].
    y = y.reshape(BATCH, SEQ, 2, HIDDEN).numpy()
    h = h.permute(1, 0, 2).numpy()
    w, r, b = onnx_weights(module, torch_order, onnx_order)
    outputs = ["y", "y_h"]
    node = helper.make_node(op, ["x", "w", "r", "b", "lens"], outputs,
                            name="the_" + op.lower(), hidden_size=HIDDEN,
                            direction="bidirectional", layout=1, **extra_attrs)
    graph = helper.make_graph(
        [node], name, [helper.make_tensor_value_info("x", TensorProto.FLOAT,
                                                     [BATCH, SEQ, FEATURES])],
        [helper.make_tensor_value_info(o, TensorProto.FLOAT, None) for o in outputs],
        [numpy_helper.from_array(w, "w"), numpy_helper.from_array(r, "r"),
         numpy_helper.from_array(b, "b"),
         numpy_helper.from_array(np.array(LENGTHS, np.int32), "lens")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 14)])
    onnx.save(model, os.path.join(out, name + ".onnx"))
    np.save(os.path.join(out, name + ".x.npy"), x.numpy())
    np.save(os.path.join(out, name + ".y.npy"), y)
    np.save(os.path.join(out, name + ".y_h.npy"), h)


# PyTorch's GRU applies the reset gate after the recurrent product: ONNX's
# linear_before_reset = 1.
write("gru_bidirectional_lengths", "GRU",
      torch.nn.GRU(FEATURES, HIDDEN, batch_first=True, bidirectional=True),
      "rzn", "zrn", {"linear_before_reset": 1})
write("lstm_bidirectional_lengths", "LSTM",
      torch.nn.LSTM(FEATURES, HIDDEN, batch_first=True, bidirectional=True),
      "ifgo", "iofg", {})
