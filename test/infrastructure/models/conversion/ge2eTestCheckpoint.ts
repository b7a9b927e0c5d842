import { createHash } from 'node:crypto';
import JSZip from 'jszip';
import { ge2eCheckpointToOnnx } from '../../../../src/infrastructure/models/conversion/ge2eCheckpointToOnnx.js';
import type { ModelEntry } from '../../../../src/infrastructure/models/manifestSchema.js';
import { legacyCheckpoint, tensor, type FixtureValue } from './legacyCheckpoint.js';

/**
 * A GE2E checkpoint of the real shapes whose embedding can be worked out by hand: every LSTM
 * weight is zero, so each gate is its bias squashed, the same at every frame; only the last
 * layer's biases are set, a different one per gate (PyTorch's order i, f, g, o) and per unit, so
 * a model that mixed up the gates would give another embedding. The linear layer is the identity.
 */
export function ge2eTestCheckpoint(options: { drop?: string; withoutModelState?: boolean } = {}): Buffer {
  const state: [string, FixtureValue][] = [];
  let key = 1000;
  const add = (name: string, size: number[], fill: (index: number) => number = () => 0) => {
    const count = size.reduce((product, dimension) => product * dimension, 1);
    if (name !== options.drop) state.push([name, tensor(String(key++), size, Float32Array.from({ length: count }, (_, index) => fill(index)))]);
  };
  add('similarity_weight', [1], () => 10);
  add('similarity_bias', [1], () => -5);
  for (let layer = 0; layer < 3; layer++) {
    add(`lstm.weight_ih_l${layer}`, [1024, layer === 0 ? 40 : 256]);
    add(`lstm.weight_hh_l${layer}`, [1024, 256]);
    add(`lstm.bias_ih_l${layer}`, [1024], layer === 2 ? (index) => gateBias(index) : undefined);
    add(`lstm.bias_hh_l${layer}`, [1024], layer === 2 ? () => 0.05 : undefined);
  }
  add('linear.weight', [256, 256], (index) => (Math.floor(index / 256) === index % 256 ? 1 : 0));
  add('linear.bias', [256]);
  const saved = new Map<string, FixtureValue>([['step', 7]]);
  if (!options.withoutModelState) saved.set('model_state', { orderedDict: state });
  saved.set('optimizer_state', new Map<string, FixtureValue>([['state', new Map()], ['param_groups', [new Map<string, FixtureValue>([['lr', 0.0001], ['params', [140178894849224n]]])]]]));
  return legacyCheckpoint(saved);
}

/** bias_ih of the last layer at `index` (gate block ⌊index / 256⌋ in PyTorch's order i, f, g, o). */
function gateBias(index: number): number {
  const unit = index % 256;
  const ramp = unit / 256;
  return [0.5 + ramp, -1 + ramp, 0.2 + 0.6 * ramp, 1.5 - ramp][Math.floor(index / 256)]!;
}

/** The embedding that checkpoint gives after `frames` frames, whatever the input. */
export function ge2eTestEmbedding(frames: number): Float64Array {
  const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));
  const hidden = Float64Array.from({ length: 256 }, (_, unit) => {
    const bias = (gate: number) => gateBias(gate * 256 + unit) + 0.05;
    const [input, forget, cell, output] = [sigmoid(bias(0)), sigmoid(bias(1)), Math.tanh(bias(2)), sigmoid(bias(3))];
    // c_t = f c_{t−1} + i g from c_0 = 0: a geometric sum.
    const state = (input * cell * (1 - forget ** frames)) / (1 - forget);
    return output * Math.tanh(state);
  });
  const rectified = hidden.map((value) => Math.max(0, value));
  const norm = Math.hypot(...rectified);
  return rectified.map((value) => value / norm);
}

/**
 * A stand-in for the resemblyzer wheel (a zip holding `resemblyzer/pretrained.pt`) and the
 * manifest entry `ge2e-resemblyzer` pinned to it: the archive's size and digest, and its
 * conversion's.
 */
export async function ge2eTestWheel(): Promise<{ wheel: Buffer; pin: (entry: ModelEntry) => void }> {
  const zip = new JSZip();
  zip.file('resemblyzer/__init__.py', '');
  zip.file('resemblyzer/pretrained.pt', ge2eTestCheckpoint());
  const wheel = await zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
  const model = ge2eCheckpointToOnnx(ge2eTestCheckpoint());
  const digest = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
  return {
    wheel,
    pin: (entry) => {
      entry.size = model.length;
      entry.sha256 = digest(model);
      entry.convertedFrom = { ...entry.convertedFrom!, size: wheel.length, sha256: digest(wheel) };
    },
  };
}
