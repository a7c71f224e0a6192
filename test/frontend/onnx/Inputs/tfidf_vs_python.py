#!/usr/bin/python3
"""tfidf_vs_python.py OUTDIR --kilnc KILNC: TfIdfVectorizer in every mode
(TF, IDF, TFIDF with weights), with trigrams, skips, a permuted and
repeated output slot map and 1-D and 2-D inputs, against a direct Python
count over every window (independent of Kiln's vectorised form); a string
pool is refused (exit 3). Fixed seed."""
import numpy as np
from onnx import helper

from kilnc_cases import cases_from_command_line

rng = np.random.default_rng(0)
cases = cases_from_command_line(rtol=0, atol=1e-6)


def reference(x, mode, lo, hi, skip, counts, slots, pool, weights=None):
    grams = []  # (tokens, gram index)
    for n in range(1, len(counts) + 1):
        end = counts[n] if n < len(counts) else len(pool)
        segment = pool[counts[n - 1]:end]
        for g in range(len(segment) // n):
            grams.append((tuple(segment[g * n:(g + 1) * n]), len(grams)))
    weights = weights or [1.0] * len(grams)
    rows = np.atleast_2d(x)
    out = np.zeros((rows.shape[0], max(slots) + 1), np.float32)
    for r, row in enumerate(rows):
        for gram, index in grams:
            n = len(gram)
            if not lo <= n <= hi:
                continue
            found = 0
            for s in [0] if n == 1 else range(skip + 1):
                for i in range(len(row)):
                    picks = [i + k * (s + 1) for k in range(n)]
                    if picks[-1] < len(row) and tuple(row[picks]) == gram:
                        found += 1
            value = {"TF": found, "IDF": float(found > 0) * weights[index],
                     "TFIDF": found * weights[index]}[mode]
            out[r, slots[index]] += value
    return out if x.ndim == 2 else out[0]


x2 = rng.integers(0, 5, (3, 14)).astype(np.int64)
x1 = rng.integers(0, 5, (20,)).astype(np.int32)
counts, pool = [0, 3, 9], [1, 2, 4, 0, 1, 2, 3, 3, 4, 1, 2, 3, 0, 0, 1]
slots = [6, 5, 4, 3, 2, 1, 0, 1]  # grams 5 and 7 share slot 1
weights = [0.5, 1.5, 2.0, 3.0, 0.25, 1.0, 4.0, 2.5]
for name, x, mode, lo, hi, skip, w in [
        ("tf_trigrams_skip2", x2, "TF", 1, 3, 2, None),
        ("idf_bigrams_only", x2, "IDF", 2, 2, 1, weights),
        ("tfidf_1d_all", x1, "TFIDF", 1, 3, 3, weights)]:
    attrs = dict(mode=mode, min_gram_length=lo, max_gram_length=hi,
                 max_skip_count=skip, ngram_counts=counts,
                 ngram_indexes=slots, pool_int64s=pool)
    if w:
        attrs["weights"] = w
    cases.add(name, [helper.make_node("TfIdfVectorizer", ["x"], ["y"],
                                      **attrs)],
              {"x": x}, {"y": reference(x, mode, lo, hi, skip, counts,
                                        slots, pool, w)})
cases.add("string_pool",
          [helper.make_node("TfIdfVectorizer", ["x"], ["y"], mode="TF",
                            min_gram_length=1, max_gram_length=1,
                            max_skip_count=0, ngram_counts=[0],
                            ngram_indexes=[0], pool_strings=["a"])],
          {"x": x1}, {"y": x1}, expect_exit=3,
          expect_error="pool_strings needs string tensors")
cases.check()
