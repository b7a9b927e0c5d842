import { onnxModel, type OnnxInitializerSpec, type OnnxNodeSpec } from './onnxModelProto.js';
import { CheckpointFormatError, readLegacyTorchCheckpoint, TorchTensor } from './readLegacyTorchCheckpoint.js';

/**
 * Resemblyzer's GE2E voice encoder (`resemblyzer/pretrained.pt` in the `resemblyzer` 0.1.4 wheel,
 * Apache-2.0) as the ONNX model the embedding slot loads, converted here so that `callscope models
 * fetch` can install it with nothing but Node; `npm run models:eval` converts the evaluation's copy
 * with it too. An earlier converter in Python (the onnx package) gave the same embeddings to the
 * bit (4 × 1.6 s of random mels), and eval:voice-encoder checks the model against Resemblyzer's
 * own torch code.
 *
 * The network, as resemblyzer's VoiceEncoder.forward computes it:
 *   mels (batch, frames, 40) → 3 stacked LSTM layers of 256 units → the last layer's final hidden
 *   state (batch, 256) → linear 256 → 256 → ReLU → divided by its L2 norm → embedding (batch, 256).
 * ONNX's LSTM takes one layer per node, time first, and its gates in the order input, output,
 * forget, cell, where PyTorch stores input, forget, cell, output: each weight and bias is
 * reordered. The weights are the checkpoint's float32 values, bit for bit.
 */

const LAYERS = 3;
const HIDDEN = 256;
const MEL_BANDS = 40;
const EMBEDDING = 256;

/** What the model states of itself: its kind (SpeakerEncoder reads it) and its front end (ge2eFrontEnd's). */
export const GE2E_METADATA: Readonly<Record<string, string>> = {
  'callscope.embedding.kind': 'ge2e',
  'callscope.embedding.frontEnd': 'mel-power',
  'callscope.embedding.sampleRate': '16000',
  'callscope.embedding.melBands': String(MEL_BANDS),
  'callscope.embedding.windowMs': '25',
  'callscope.embedding.hopMs': '10',
  'callscope.embedding.partialFrames': '160',
  'callscope.embedding.source': 'resemblyzer 0.1.4 pretrained.pt (GE2E voice encoder, Apache-2.0)',
};

/**
 * The ONNX model of a GE2E checkpoint's bytes (a legacy PyTorch file holding `model_state`).
 * Throws CheckpointFormatError when the file is not such a checkpoint or lacks a weight.
 */
export function ge2eCheckpointToOnnx(checkpoint: Uint8Array): Uint8Array {
  const saved = readLegacyTorchCheckpoint(checkpoint);
  const state = saved instanceof Map ? saved.get('model_state') : undefined;
  if (!(state instanceof Map)) throw new CheckpointFormatError('the checkpoint holds no model_state');
  const weight = (name: string, shape: readonly number[]): Float32Array => {
    const tensor = state.get(name);
    if (!(tensor instanceof TorchTensor) || tensor.shape.join(',') !== shape.join(',')) {
      throw new CheckpointFormatError(`model_state.${name} is missing or not of shape [${shape.join(', ')}]`);
    }
    return tensor.values;
  };

  const initializers: OnnxInitializerSpec[] = [
    { name: 'axis_0', dims: [1], values: BigInt64Array.of(0n) },
    { name: 'axis_1', dims: [1], values: BigInt64Array.of(1n) },
  ];
  // (batch, frames, bands) → (frames, batch, bands): ONNX's LSTM is time first.
  const nodes: OnnxNodeSpec[] = [{ opType: 'Transpose', inputs: ['mels'], outputs: ['layer_0_input'], attributes: { perm: [1, 0, 2] } }];
  for (let layer = 0; layer < LAYERS; layer++) {
    const inputSize = layer === 0 ? MEL_BANDS : HIDDEN;
    initializers.push(
      { name: `W_${layer}`, dims: [1, 4 * HIDDEN, inputSize], values: onnxGateOrder(weight(`lstm.weight_ih_l${layer}`, [4 * HIDDEN, inputSize]), inputSize) },
      { name: `R_${layer}`, dims: [1, 4 * HIDDEN, HIDDEN], values: onnxGateOrder(weight(`lstm.weight_hh_l${layer}`, [4 * HIDDEN, HIDDEN]), HIDDEN) },
      {
        name: `B_${layer}`, dims: [1, 8 * HIDDEN],
        values: concatenate(onnxGateOrder(weight(`lstm.bias_ih_l${layer}`, [4 * HIDDEN]), 1), onnxGateOrder(weight(`lstm.bias_hh_l${layer}`, [4 * HIDDEN]), 1)),
      },
    );
    nodes.push({
      opType: 'LSTM',
      inputs: [`layer_${layer}_input`, `W_${layer}`, `R_${layer}`, `B_${layer}`],
      outputs: [`layer_${layer}_sequence`, `layer_${layer}_last`],
      attributes: { hidden_size: HIDDEN },
    });
    // Y is (frames, directions = 1, batch, hidden): the next layer's input without the directions.
    if (layer + 1 < LAYERS) nodes.push({ opType: 'Squeeze', inputs: [`layer_${layer}_sequence`, 'axis_1'], outputs: [`layer_${layer + 1}_input`] });
  }
  initializers.push(
    { name: 'linear_weight', dims: [EMBEDDING, HIDDEN], values: weight('linear.weight', [EMBEDDING, HIDDEN]) },
    { name: 'linear_bias', dims: [EMBEDDING], values: weight('linear.bias', [EMBEDDING]) },
  );
  nodes.push(
    // Y_h is (directions = 1, batch, hidden).
    { opType: 'Squeeze', inputs: [`layer_${LAYERS - 1}_last`, 'axis_0'], outputs: ['final_hidden'] },
    { opType: 'Gemm', inputs: ['final_hidden', 'linear_weight', 'linear_bias'], outputs: ['projected'], attributes: { transB: 1 } },
    { opType: 'Relu', inputs: ['projected'], outputs: ['rectified'] },
    { opType: 'LpNormalization', inputs: ['rectified'], outputs: ['embedding'], attributes: { axis: 1, p: 2 } },
  );
  return onnxModel({
    inputs: [{ name: 'mels', shape: ['batch', 'frames', MEL_BANDS] }],
    outputs: [{ name: 'embedding', shape: ['batch', EMBEDDING] }],
    nodes,
    initializers,
    opset: 17,
    metadata: GE2E_METADATA,
    producer: 'callscope',
    graphName: 'ge2e_voice_encoder',
  });
}

/**
 * PyTorch's gate blocks (i, f, g, o) along the first axis → ONNX's (i, o, f, c).
 * @param weights shape: (4 × HIDDEN, columns)
 */
function onnxGateOrder(weights: Float32Array, columns: number): Float32Array {
  const block = HIDDEN * columns;
  const [input, forget, cell, output] = [0, 1, 2, 3].map((gate) => weights.subarray(gate * block, (gate + 1) * block));
  return concatenate(input!, output!, forget!, cell!);
}

function concatenate(...parts: Float32Array[]): Float32Array {
  const joined = new Float32Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    joined.set(part, offset);
    offset += part.length;
  }
  return joined;
}
