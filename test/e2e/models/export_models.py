#!/usr/bin/python3
"""Exports small PyTorch models to ONNX with reference inputs and outputs.

For each model NAME writes OUT/NAME.onnx, OUT/NAME.input.npy and
OUT/NAME.expected.npy (PyTorch's output). Models (random weights, fixed
seed, eval mode, opset 17):

  mlp       3-layer perceptron with ReLU and softmax
  resnet    ResNet-18-style CNN: 7x7 stem, max pool, 4 stages of 2 basic
            blocks (conv-bn-relu, residual add, strided downsampling
            shortcuts), global average pool, linear head
  bert      BERT-style encoder: token + position embeddings, 2 post-LN
            encoder layers (multi-head attention, GELU feed-forward)
  gpt       GPT-style decoder: pre-LN blocks with causal self-attention
            (masked with a triangular mask and Where), GELU MLP, LM head
  lstm      LSTM language model: embedding, 2-layer LSTM (batch first),
            LM head on every step
  gru       bidirectional GRU classifier over a sequence of feature
            vectors, linear head on the last step

Sizes are small so the test command stays fast; the architectures are the
real ones. Usage: export_models.py OUT [--size test|bench] [--only NAME...]
[--state-dicts]
"""
import argparse
import math
import os

import numpy as np
import torch
from torch import nn

torch.manual_seed(0)


class MLP(nn.Module):
    def __init__(self, d_in=64, hidden=128, classes=10):
        super().__init__()
        self.net = nn.Sequential(nn.Flatten(), nn.Linear(d_in, hidden), nn.ReLU(),
                                 nn.Linear(hidden, hidden), nn.ReLU(),
                                 nn.Linear(hidden, classes))

    def forward(self, x):
        return torch.softmax(self.net(x), dim=-1)


class BasicBlock(nn.Module):
    def __init__(self, cin, cout, stride):
        super().__init__()
        self.conv1 = nn.Conv2d(cin, cout, 3, stride, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(cout)
        self.conv2 = nn.Conv2d(cout, cout, 3, 1, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(cout)
        self.shortcut = nn.Sequential()
        if stride != 1 or cin != cout:
            self.shortcut = nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False),
                                          nn.BatchNorm2d(cout))

    def forward(self, x):
        y = torch.relu(self.bn1(self.conv1(x)))
        y = self.bn2(self.conv2(y))
        return torch.relu(y + self.shortcut(x))


class ResNet18(nn.Module):
    def __init__(self, width=16, classes=10):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, width, 7, 2, 3, bias=False),
                                  nn.BatchNorm2d(width), nn.ReLU(),
                                  nn.MaxPool2d(3, 2, 1))
        layers, cin = [], width
        for i, stride in enumerate([1, 2, 2, 2]):
            cout = width * 2 ** i
            layers += [BasicBlock(cin, cout, stride), BasicBlock(cout, cout, 1)]
            cin = cout
        self.layers = nn.Sequential(*layers)
        self.head = nn.Linear(cin, classes)

    def forward(self, x):
        x = self.layers(self.stem(x))
        x = torch.flatten(nn.functional.adaptive_avg_pool2d(x, 1), 1)
        return self.head(x)


def randomize_batchnorm(model):
    # Non-trivial running statistics, so that BatchNormalization matters.
    for m in model.modules():
        if isinstance(m, nn.BatchNorm2d):
            m.running_mean.uniform_(-0.5, 0.5)
            m.running_var.uniform_(0.5, 1.5)
            m.weight.data.uniform_(0.5, 1.5)
            m.bias.data.uniform_(-0.2, 0.2)


class Attention(nn.Module):
    def __init__(self, d, heads, causal):
        super().__init__()
        self.heads, self.causal = heads, causal
        self.qkv = nn.Linear(d, 3 * d)
        self.out = nn.Linear(d, d)

    def forward(self, x):
        b, t, d = x.shape
        h = self.heads
        q, k, v = self.qkv(x).split(d, dim=-1)
        q = q.reshape(b, t, h, d // h).transpose(1, 2)
        k = k.reshape(b, t, h, d // h).transpose(1, 2)
        v = v.reshape(b, t, h, d // h).transpose(1, 2)
        scores = q @ k.transpose(-2, -1) / math.sqrt(d // h)
        if self.causal:
            mask = torch.triu(torch.ones(t, t, dtype=torch.bool), diagonal=1)
            scores = scores.masked_fill(mask, float("-inf"))
        y = torch.softmax(scores, dim=-1) @ v
        return self.out(y.transpose(1, 2).reshape(b, t, d))


class EncoderLayer(nn.Module):
    def __init__(self, d, heads, ff):
        super().__init__()
        self.attn = Attention(d, heads, causal=False)
        self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.ff = nn.Sequential(nn.Linear(d, ff), nn.GELU(), nn.Linear(ff, d))

    def forward(self, x):
        x = self.ln1(x + self.attn(x))
        return self.ln2(x + self.ff(x))


class Bert(nn.Module):
    def __init__(self, vocab=1000, d=64, heads=4, ff=256, layers=2, seq=32):
        super().__init__()
        self.tok = nn.Embedding(vocab, d)
        self.pos = nn.Parameter(torch.randn(1, seq, d) * 0.02)
        self.ln = nn.LayerNorm(d)
        self.layers = nn.ModuleList(EncoderLayer(d, heads, ff) for _ in range(layers))

    def forward(self, ids):
        x = self.ln(self.tok(ids) + self.pos)
        for layer in self.layers:
            x = layer(x)
        return x


class DecoderBlock(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.attn = Attention(d, heads, causal=True)
        self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(approximate="tanh"),
                                 nn.Linear(4 * d, d))

    def forward(self, x):
        x = x + self.attn(self.ln1(x))
        return x + self.mlp(self.ln2(x))


class Gpt(nn.Module):
    def __init__(self, vocab=1000, d=64, heads=4, layers=2, seq=32):
        super().__init__()
        self.tok = nn.Embedding(vocab, d)
        self.pos = nn.Parameter(torch.randn(1, seq, d) * 0.02)
        self.blocks = nn.ModuleList(DecoderBlock(d, heads) for _ in range(layers))
        self.ln = nn.LayerNorm(d)
        self.head = nn.Linear(d, vocab, bias=False)

    def forward(self, ids):
        x = self.tok(ids) + self.pos
        for block in self.blocks:
            x = block(x)
        return self.head(self.ln(x))


class LstmLm(nn.Module):
    def __init__(self, vocab=1000, d=64, hidden=96, layers=2):
        super().__init__()
        self.tok = nn.Embedding(vocab, d)
        self.lstm = nn.LSTM(d, hidden, num_layers=layers, batch_first=True)
        self.head = nn.Linear(hidden, vocab)

    def forward(self, ids):
        y, _ = self.lstm(self.tok(ids))
        return self.head(y)


class GruClassifier(nn.Module):
    def __init__(self, features=32, hidden=48, classes=10):
        super().__init__()
        self.gru = nn.GRU(features, hidden, batch_first=True, bidirectional=True)
        self.head = nn.Linear(2 * hidden, classes)

    def forward(self, x):
        y, _ = self.gru(x)
        return self.head(y[:, -1])


def models(size):
    bench = size == "bench"
    resnet = ResNet18(width=64 if bench else 16)
    randomize_batchnorm(resnet)
    seq = 128 if bench else 32
    return {
        "mlp": (MLP(), torch.randn(1 if not bench else 64, 1, 8, 8)),
        "resnet": (resnet, torch.randn(1, 3, 224 if bench else 64, 224 if bench else 64)),
        "bert": (Bert(d=128 if bench else 64, seq=seq, layers=4 if bench else 2),
                 torch.randint(0, 1000, (1, seq))),
        "gpt": (Gpt(d=128 if bench else 64, seq=seq), torch.randint(0, 1000, (1, seq))),
        "lstm": (LstmLm(), torch.randint(0, 1000, (1, 64 if bench else 16))),
        "gru": (GruClassifier(), torch.randn(2, 64 if bench else 20, 32)),
    }


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("out")
    parser.add_argument("--size", choices=["test", "bench"], default="test")
    parser.add_argument("--only", nargs="*")
    parser.add_argument("--state-dicts", action="store_true",
                        help="also write NAME.pt (PyTorch weights) for peers "
                             "that rebuild the model, e.g. bench/gpu/torch_peers.py")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    for name, (model, example) in models(args.size).items():
        if args.only and name not in args.only:
            continue
        model.eval()
        with torch.no_grad():
            expected = model(example)
        path = os.path.join(args.out, name + ".onnx")
        torch.onnx.export(model, (example,), path, opset_version=17,
                          input_names=["input"], output_names=["output"],
                          do_constant_folding=True)
        np.save(os.path.join(args.out, name + ".input.npy"), example.numpy())
        np.save(os.path.join(args.out, name + ".expected.npy"), expected.numpy())
        if args.state_dicts:
            torch.save(model.state_dict(), os.path.join(args.out, name + ".pt"))
        print(f"exported {name}: input {tuple(example.shape)} -> output "
              f"{tuple(expected.shape)}")


if __name__ == "__main__":
    main()
