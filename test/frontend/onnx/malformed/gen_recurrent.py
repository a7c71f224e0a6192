"""RNN, GRU and LSTM attributes and operand shapes, and training-mode
Dropout.

Part of the malformed-model corpus: make_corpus.py calls every gen_*
function with its Writer.
"""
import numpy as np

from corpus_lib import T, vi, node, const


def gen_recurrent(w):
    # X [seq 3, batch 2, input 4]; hidden 5.
    x = [vi("x", T.FLOAT, [3, 2, 4])]
    y = [vi("y", T.FLOAT, None)]

    def weights(gates, hidden=5, inputs=4, dirs=1):
        return [const("w", np.ones((dirs, gates * hidden, inputs), np.float32)),
                const("r", np.ones((dirs, gates * hidden, hidden), np.float32))]

    def cell(rel, op, gates, exit_code, message, why, extra_inputs=(),
             extra_inits=(), inputs=None, inits=None, **attrs):
        ins = ["x", "w", "r"] + list(extra_inputs)
        w.simple(rel, [node(op, ins, ["y"], name="cell", **attrs)],
                 inputs or x, y,
                 (inits if inits is not None else weights(gates)) +
                 list(extra_inits), exit_code, message, why, opset=14)

    cell("lstm_bad_direction.onnx", "LSTM", 4, 2,
         "unknown direction 'sideways'", "direction is not one of the three",
         hidden_size=5, direction="sideways")
    cell("rnn_bad_layout.onnx", "RNN", 1, 2, "'layout' must be 0 or 1, got 2",
         "layout 2", hidden_size=5, layout=2)
    cell("gru_zero_hidden_size.onnx", "GRU", 3, 2,
         "'hidden_size' must be positive, got 0", "hidden_size 0",
         hidden_size=0)
    cell("lstm_negative_clip.onnx", "LSTM", 4, 2, "'clip' must be positive",
         "clip -1 (a bound of the gates' pre-activations)", hidden_size=5,
         clip=-1.0)
    cell("lstm_w_wrong_shape.onnx", "LSTM", 4, 2,
         "W must be 1x20x4 of X's element type",
         "W has 3 gates' rows, LSTM has 4", hidden_size=5,
         inits=weights(3)[:1] + weights(4)[1:])
    cell("rnn_hidden_size_disagrees.onnx", "RNN", 1, 2, "W must be 1x6x4",
         "hidden_size 6, but R is for 5", hidden_size=6)
    cell("rnn_x_rank_2.onnx", "RNN", 1, 2, "X must have rank 3, got 2",
         "X without a batch dimension", inputs=[vi("x", T.FLOAT, [3, 4])],
         hidden_size=5)
    cell("gru_one_activation.onnx", "GRU", 3, 2,
         "'activations' lists 1 functions; this node needs 2 per direction",
         "GRU takes f and g", hidden_size=5, activations=["Sigmoid"])
    cell("rnn_unknown_activation.onnx", "RNN", 1, 3,
         "unknown activation function 'Swish'",
         "an activation the ONNX spec does not list", hidden_size=5,
         activations=["Swish"])
    cell("lstm_sequence_lens_too_long.onnx", "LSTM", 4, 2,
         "sequence_lens entry 9 is outside [0, 3]",
         "a batch entry longer than the sequence", extra_inputs=["", "lens"],
         extra_inits=[const("lens", np.array([3, 9], np.int32))],
         hidden_size=5)
    cell("lstm_sequence_lens_wrong_count.onnx", "LSTM", 4, 2,
         "sequence_lens has 3 entries for a batch of 2",
         "one length per batch entry", extra_inputs=["", "lens"],
         extra_inits=[const("lens", np.array([3, 3, 3], np.int32))],
         hidden_size=5)
    cell("gru_initial_h_wrong_shape.onnx", "GRU", 3, 2,
         "initial_h must be 1x2x5", "initial_h for a batch of 3",
         extra_inputs=["", "", "h0"],
         extra_inits=[const("h0", np.zeros((1, 3, 5), np.float32))],
         hidden_size=5)

    # Dropout that drops values at random, twice: both nodes are named.
    training = const("training", np.array(True))
    w.simple("dropout_training_mode.onnx",
             [node("Dropout", ["x", "", "training"], ["a"], name="drop1"),
              node("Dropout", ["x", "", "training"], ["b"], name="drop2"),
              node("Add", ["a", "b"], ["y"], name="add")],
             [vi("x", T.FLOAT, [2, 3])], y, [training], 3,
             "node 'drop2' (Dropout): training-mode Dropout with a ratio "
             "other than 0 is not supported",
             "training mode with the default ratio 0.5; the second node is "
             "reported too", opset=13)
