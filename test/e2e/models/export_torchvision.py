#!/usr/bin/python3
"""Exports torchvision architectures (Debian's python3-torchvision; random
weights, fixed seed, eval mode, opset 17) to ONNX with a reference input and
PyTorch's output: OUT/NAME.onnx, OUT/NAME.input.npy, OUT/NAME.expected.npy.

  vit                 VisionTransformer, ViT-B/16's architecture reduced
                      (32x32 image, 16x16 patches, 2 layers of width 64); its
                      class-token Expand comes from a ConstantOfShape chain
  efficientnet_b0     EfficientNet-B0 at 64x64 (squeeze-excitation, SiLU)
  mobilenet_v3_large  MobileNet-V3-Large at 64x64 (hard-swish, SE blocks)

BatchNorm statistics are randomised but well conditioned (variance in
[0.75, 1.25]) and zero-initialised heads get random weights, so that the
outputs are not trivially zero. Usage: export_torchvision.py OUT [NAME...]
"""
import os
import sys

import numpy as np
import torch
import torchvision
from torchvision.models.vision_transformer import VisionTransformer


def well_conditioned(model):
    generator = torch.Generator().manual_seed(1)
    for module in model.modules():
        if isinstance(module, torch.nn.BatchNorm2d):
            n = module.num_features
            module.running_mean.copy_(torch.randn(n, generator=generator) * 0.1)
            module.running_var.copy_(torch.rand(n, generator=generator) * 0.5 + 0.75)
        if isinstance(module, torch.nn.Linear):
            with torch.no_grad():
                module.weight.copy_(torch.randn(module.weight.shape,
                                                generator=generator) * 0.05)
    return model


def models():
    return {
        "vit": (VisionTransformer(image_size=32, patch_size=16, num_layers=2,
                                  num_heads=4, hidden_dim=64, mlp_dim=128,
                                  num_classes=10), (1, 3, 32, 32)),
        "efficientnet_b0": (torchvision.models.efficientnet_b0(num_classes=10),
                            (1, 3, 64, 64)),
        "mobilenet_v3_large": (torchvision.models.mobilenet_v3_large(num_classes=10),
                               (1, 3, 64, 64)),
    }


def main():
    out, names = sys.argv[1], sys.argv[2:]
    os.makedirs(out, exist_ok=True)
    torch.manual_seed(0)
    for name, (model, shape) in models().items():
        if names and name not in names:
            continue
        model = well_conditioned(model).eval()
        x = torch.randn(*shape)
        with torch.no_grad():
            expected = model(x)
        torch.onnx.export(model, (x,), os.path.join(out, name + ".onnx"),
                          opset_version=17, input_names=["input"],
                          output_names=["output"], do_constant_folding=True)
        np.save(os.path.join(out, name + ".input.npy"), x.numpy())
        np.save(os.path.join(out, name + ".expected.npy"), expected.numpy())
        print(f"exported {name}: input {tuple(shape)} -> output "
              f"{tuple(expected.shape)}, output std {expected.std():.3g}")


if __name__ == "__main__":
    main()
