"""
Converts Resemblyzer's GE2E voice encoder (a legacy PyTorch checkpoint, read without torch by
legacyTorchCheckpoint.py) into an ONNX model for onnxruntime: `npm run models:eval` runs it with
the reference environment's interpreter, `{"checkpoint": PATH, "output": PATH}` as JSON on stdin,
and reads one JSON line back.

The network, as resemblyzer's VoiceEncoder.forward computes it:
  mels (batch, frames, 40) → 3 stacked LSTM layers of 256 units → the last layer's final hidden
  state (batch, 256) → linear 256 → 256 → ReLU → divided by its L2 norm → embedding (batch, 256).
ONNX's LSTM takes one layer per node, time first, and its gates in the order input, output,
forget, cell, where PyTorch stores input, forget, cell, output: each weight and bias is reordered.
Nothing else changes: the weights are the checkpoint's float32 values, bit for bit.

The model states its kind and front end in its metadata (`callscope.embedding.*`): 40 mel bands
of the power spectrum (not logarithmic) over 25 ms windows every 10 ms at 16 kHz, in partials of
160 frames (1.6 s).
"""
import json
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from legacyTorchCheckpoint import load_legacy_checkpoint

LAYERS = 3
HIDDEN = 256
MEL_BANDS = 40
EMBEDDING = 256
OPSET = 17
# The IR version opset 17 came with (ONNX 1.12): onnx 1.23 writes 14 by default, which the
# onnxruntime of onnxruntime-node refuses (it reads up to 13).
IR_VERSION = 8
METADATA = {
    'callscope.embedding.kind': 'ge2e',
    'callscope.embedding.frontEnd': 'mel-power',
    'callscope.embedding.sampleRate': '16000',
    'callscope.embedding.melBands': str(MEL_BANDS),
    'callscope.embedding.windowMs': '25',
    'callscope.embedding.hopMs': '10',
    'callscope.embedding.partialFrames': '160',
    'callscope.embedding.source': 'resemblyzer 0.1.4 pretrained.pt (GE2E voice encoder, Apache-2.0)',
}


def onnx_gate_order(weights):
    """PyTorch's gate blocks (i, f, g, o) along the first axis → ONNX's (i, o, f, c)."""
    i, f, g, o = np.split(weights, 4, axis=0)
    return np.concatenate([i, o, f, g], axis=0)


def encoder_model(state):
    initializers = [
        numpy_helper.from_array(np.array([0], dtype=np.int64), 'axis_0'),
        numpy_helper.from_array(np.array([1], dtype=np.int64), 'axis_1'),
    ]
    # (batch, frames, bands) → (frames, batch, bands): ONNX's LSTM is time first.
    nodes = [helper.make_node('Transpose', ['mels'], ['layer_0_input'], perm=[1, 0, 2])]
    for layer in range(LAYERS):
        weights = {
            f'W_{layer}': onnx_gate_order(state[f'lstm.weight_ih_l{layer}'])[None],
            f'R_{layer}': onnx_gate_order(state[f'lstm.weight_hh_l{layer}'])[None],
            f'B_{layer}': np.concatenate([onnx_gate_order(state[f'lstm.bias_ih_l{layer}']), onnx_gate_order(state[f'lstm.bias_hh_l{layer}'])])[None],
        }
        initializers += [numpy_helper.from_array(value.astype(np.float32), name) for name, value in weights.items()]
        nodes.append(helper.make_node('LSTM', [f'layer_{layer}_input', *weights], [f'layer_{layer}_sequence', f'layer_{layer}_last'], hidden_size=HIDDEN))
        if layer + 1 < LAYERS:
            # Y is (frames, directions = 1, batch, hidden): the next layer's input without the directions.
            nodes.append(helper.make_node('Squeeze', [f'layer_{layer}_sequence', 'axis_1'], [f'layer_{layer + 1}_input']))
    initializers += [
        numpy_helper.from_array(state['linear.weight'].astype(np.float32), 'linear_weight'),
        numpy_helper.from_array(state['linear.bias'].astype(np.float32), 'linear_bias'),
    ]
    nodes += [
        # Y_h is (directions = 1, batch, hidden).
        helper.make_node('Squeeze', [f'layer_{LAYERS - 1}_last', 'axis_0'], ['final_hidden']),
        helper.make_node('Gemm', ['final_hidden', 'linear_weight', 'linear_bias'], ['projected'], transB=1),
        helper.make_node('Relu', ['projected'], ['rectified']),
        helper.make_node('LpNormalization', ['rectified'], ['embedding'], axis=1, p=2),
    ]
    graph = helper.make_graph(
        nodes, 'ge2e_voice_encoder',
        [helper.make_tensor_value_info('mels', TensorProto.FLOAT, ['batch', 'frames', MEL_BANDS])],
        [helper.make_tensor_value_info('embedding', TensorProto.FLOAT, ['batch', EMBEDDING])],
        initializers,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid('', OPSET)], producer_name='callscope', producer_version='1', ir_version=IR_VERSION)
    for key, value in METADATA.items():
        model.metadata_props.append(onnx.StringStringEntryProto(key=key, value=value))
    onnx.checker.check_model(model, full_check=True)
    return model


def main():
    request = json.load(sys.stdin)
    checkpoint = load_legacy_checkpoint(request['checkpoint'])
    state = checkpoint['model_state']
    model = encoder_model(state)
    onnx.save(model, request['output'])
    print(json.dumps({'step': int(checkpoint.get('step', -1)), 'parameters': int(sum(np.asarray(value).size for key, value in state.items() if key.startswith(('lstm.', 'linear.'))))}))


if __name__ == '__main__':
    main()
