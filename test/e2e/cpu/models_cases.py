"""Cases of models.mlir: independent float64 NumPy references of the three
small models. The weights are read back from models.mlir (they are data, the
computation is written out here)."""

import os

import numpy as np

import nnref
from e2e import Case, randn
from gen_models import read_constants

MODEL = os.path.join(os.path.dirname(os.path.abspath(__file__)), "models.mlir")


def weights(function):
    return {k: np.asarray(v, dtype=np.float64) if v.dtype != np.bool_ else v
            for k, v in read_constants(MODEL, function).items()}


def mlp_ref(x):
    w = weights("mlp")
    h = np.maximum(x.astype(np.float64) @ w["w1"].T + w["b1"], 0.0)
    logits = h @ w["w2"].T + w["b2"]
    return nnref.softmax(logits, -1).astype(np.float32)


def cnn_ref(x):
    w = weights("cnn")
    y = nnref.conv2d(x, w["w1"], w["c1"], pads=(1, 1, 1, 1))
    y = nnref.batch_norm(y, w["bn_scale"], w["bn_bias"], w["bn_mean"],
                         w["bn_var"], 1e-5)
    y = np.maximum(y, 0.0)
    y = nnref.pool2d(y, "max", (2, 2), strides=(2, 2))
    y = nnref.conv2d(y, w["w2"], w["c2"], strides=(2, 2), pads=(1, 1, 1, 1))
    y = np.maximum(y, 0.0)
    y = y.mean(axis=(2, 3))
    return (y @ w["wf"].T + w["bf"]).astype(np.float32)


def transformer_ref(x):
    w = weights("transformer_block")
    x = x.astype(np.float64)[0]                      # [S, H]
    seq, hidden = x.shape
    heads, dim = 2, hidden // 2
    n1 = nnref.layer_norm(x, 1.0 + w["ln1_g"], w["ln1_b"], -1, 1e-5)

    def split_heads(t):                              # [S, H] -> [NH, S, D]
        return t.reshape(seq, heads, dim).transpose(1, 0, 2)

    q = split_heads(n1 @ w["wq"] + w["bq"])
    k = split_heads(n1 @ w["wk"] + w["bk"])
    v = split_heads(n1 @ w["wv"] + w["bv"])
    scores = q @ k.transpose(0, 2, 1) / np.sqrt(dim)
    causal = np.tril(np.ones((seq, seq), dtype=bool))
    scores = np.where(causal, scores, -np.inf)
    probs = nnref.softmax(scores, -1)
    context = (probs @ v).transpose(1, 0, 2).reshape(seq, hidden)
    r1 = x + context @ w["wo"] + w["bo"]
    n2 = nnref.layer_norm(r1, 1.0 + w["ln2_g"], w["ln2_b"], -1, 1e-5)
    f = nnref.gelu(n2 @ w["wf1"] + w["bf1"]) @ w["wf2"] + w["bf2"]
    return (r1 + f)[None].astype(np.float32)


CASES = [
    Case("mlp", lambda rng: [randn(rng, 4, 16)], mlp_ref),
    Case("cnn", lambda rng: [randn(rng, 2, 3, 8, 8)], cnn_ref),
    Case("transformer_block", lambda rng: [randn(rng, 1, 8, 16)],
         transformer_ref),
]
