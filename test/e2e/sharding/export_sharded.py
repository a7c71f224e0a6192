"""Exports the models the sharding tests run on 2 and 4 CPU ranks.

export_sharded.py OUT writes OUT/NAME.onnx, NAME.input.npy and
NAME.expected.npy (PyTorch's output) for:

  mlp_b4     the MLP of export_models.py at batch 4 (data and tensor)
  resnet_b4  its ResNet-18-style CNN at batch 4, 32x32 (data)
  bert       its BERT-style encoder, 2 layers, 4 heads (tensor)
  bert_b4    the same encoder at batch 4 (data, pipeline, 2-D meshes)
  gpt_b4     the same decoder at batch 4 (data, pipeline)
  gpt        its GPT-style decoder with an LM head (tensor)

Random weights with a fixed seed, opset 17; the architectures are those of
test/e2e/models/export_models.py.
"""
import os
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "models"))
import export_models as em  # noqa: E402


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    torch.manual_seed(0)
    resnet = em.ResNet18(width=16)
    em.randomize_batchnorm(resnet)
    models = {
        "mlp_b4": (em.MLP(), torch.randn(4, 1, 8, 8)),
        "resnet_b4": (resnet, torch.randn(4, 3, 32, 32)),
        "bert": (em.Bert(d=64, seq=32, layers=2),
                 torch.randint(0, 1000, (1, 32))),
        "gpt": (em.Gpt(d=64, seq=32), torch.randint(0, 1000, (1, 32))),
    }
    models["bert_b4"] = (models["bert"][0], torch.randint(0, 1000, (4, 32)))
    models["gpt_b4"] = (models["gpt"][0], torch.randint(0, 1000, (4, 32)))
    for name, (model, example) in models.items():
        model.eval()
        with torch.no_grad():
            expected = model(example)
        torch.onnx.export(model, (example,), os.path.join(out, name + ".onnx"),
                          opset_version=17, input_names=["input"],
                          output_names=["output"], do_constant_folding=True)
        np.save(os.path.join(out, name + ".input.npy"), example.numpy())
        np.save(os.path.join(out, name + ".expected.npy"), expected.numpy())
        print(f"exported {name}")


if __name__ == "__main__":
    main()
