#!/usr/bin/python3
"""40 concurrent one-row requests to model 'dense' of packed-variants.test
(a kilnc --batch-sizes artifact): each must get its own row back, equal to
NumPy's. usage: packed_client.py URL MODELS_SCRIPT_FOLDER"""
import concurrent.futures
import json
import sys
import urllib.request

import numpy as np

sys.path.insert(0, sys.argv[2])
from make_batch_models import reference  # noqa: E402

URL = sys.argv[1]


def infer(i):
    x = (np.arange(5, dtype=np.float32) + i) % 9 / 2 - 2
    z = np.full(3, i / 8, dtype=np.float32)
    body = json.dumps({"inputs": [
        {"name": "x", "shape": [1, 5], "datatype": "FP32", "data": x.tolist()},
        {"name": "z", "shape": [1, 3], "datatype": "FP32", "data": z.tolist()},
    ]}).encode()
    request = urllib.request.Request(URL + "/v2/models/dense/infer", body,
                                     {"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as response:
        output = json.load(response)["outputs"][0]
    want = reference(x[None, :], z[None, :])
    return output["shape"] == [1, 3] and np.array_equal(
        np.array(output["data"], dtype=np.float32).reshape(1, 3), want)


with concurrent.futures.ThreadPoolExecutor(40) as pool:
    results = list(pool.map(infer, range(40)))
print("dense: %d/40 correct" % sum(results))
