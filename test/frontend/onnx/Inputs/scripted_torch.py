#!/usr/bin/python3
"""scripted_torch.py OUTDIR --kilnc KILNC: TorchScript control flow as
PyTorch's ONNX exporter writes it, against PyTorch: a recurrent cell in a
`for` loop over the sequence length that appends to a list (a Loop
carrying a sequence, then ConcatFromSequence) with an `if` on data inside
(an If on a run-time condition). Fixed seed."""
import io

import numpy as np
import onnx
import torch

from kilnc_cases import cases_from_command_line

cases = cases_from_command_line()
torch.manual_seed(0)


class Recurrence(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.cell = torch.nn.Linear(8, 8)

    def forward(self, x, h):
        outs = []
        for t in range(x.shape[0]):
            h = torch.tanh(self.cell(x[t]) + h)
            if bool(h.sum() > 0):
                h = h * 0.5
            outs.append(h)
        return torch.stack(outs), h


module = torch.jit.script(Recurrence())
x, h = torch.randn(6, 2, 8), torch.randn(2, 8)
buffer = io.BytesIO()
torch.onnx.export(module, (x, h), buffer, opset_version=17,
                  input_names=["x", "h"], output_names=["ys", "hn"])
model = onnx.load_from_string(buffer.getvalue())
ops = sorted({n.op_type for n in model.graph.node})
print("exported ops:", " ".join(ops))
with torch.no_grad():
    ys, hn = module(x, h)
cases.add_model("scripted_recurrence", model, {"x": x.numpy(), "h": h.numpy()},
                {"ys": ys.numpy(), "hn": hn.numpy()})
cases.check()
