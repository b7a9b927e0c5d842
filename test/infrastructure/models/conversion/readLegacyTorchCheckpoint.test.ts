import { describe, expect, it } from 'vitest';
import {
  CheckpointFormatError, PickleTuple, readLegacyTorchCheckpoint, TorchTensor,
} from '../../../../src/infrastructure/models/conversion/readLegacyTorchCheckpoint.js';
import { legacyCheckpoint, tensor, type FixtureStorage, type FixtureValue } from './legacyCheckpoint.js';

describe('readLegacyTorchCheckpoint', () => {
  const shared: FixtureStorage = { key: '140001', values: Float32Array.from({ length: 12 }, (_, index) => index + 0.5) };
  const file = legacyCheckpoint(new Map<string, FixtureValue>([
    ['step', 1564501],
    ['big', 140178894849224n * 100n],
    ['rate', 0.0001],
    ['flags', [true, false, null]],
    ['model_state', { orderedDict: [
      ['weight', tensor('140000', [2, 3], Float32Array.of(1, 2, 3, 4, 5, 6))],
      // A transposed view of a shared storage: rows are the storage's columns.
      ['transposed', { kind: 'tensor', storage: shared, offset: 0, size: [4, 3], stride: [1, 4] }],
      // A view that starts inside the same storage.
      ['tail', { kind: 'tensor', storage: shared, offset: 10, size: [2], stride: [1] }],
    ] }],
    ['shape', { tuple: [3, 'x'] }],
  ]));

  it('reads the saved object: dicts as Maps, tuples, numbers (bigints past 2^53), and tensors copied out of their storages in row-major order', () => {
    const saved = readLegacyTorchCheckpoint(file) as Map<string, unknown>;
    expect(saved.get('step')).toBe(1564501);
    expect(saved.get('big')).toBe(14017889484922400n);
    expect(saved.get('rate')).toBe(0.0001);
    expect(saved.get('flags')).toEqual([true, false, null]);
    expect(saved.get('shape')).toEqual(new PickleTuple([3, 'x']));
    const state = saved.get('model_state') as Map<string, TorchTensor>;
    expect([...state.keys()]).toEqual(['weight', 'transposed', 'tail']);
    expect(state.get('weight')).toEqual(new TorchTensor([2, 3], Float32Array.of(1, 2, 3, 4, 5, 6)));
    expect(Array.from(state.get('transposed')!.values)).toEqual([0.5, 4.5, 8.5, 1.5, 5.5, 9.5, 2.5, 6.5, 10.5, 3.5, 7.5, 11.5]);
    expect(Array.from(state.get('tail')!.values)).toEqual([10.5, 11.5]);
  });

  it('refuses any class a state dict does not hold, so a checkpoint cannot run code', () => {
    const hostile = legacyCheckpoint(new Map([['a', 1]]), { globals: [['os', 'system']] });
    expect(() => readLegacyTorchCheckpoint(hostile)).toThrow(/os\.system: refused/);
  });

  it('refuses what is not a legacy checkpoint, and one cut short inside its storages', () => {
    expect(() => readLegacyTorchCheckpoint(legacyCheckpoint(null, { magic: 42n }))).toThrow(CheckpointFormatError);
    expect(() => readLegacyTorchCheckpoint(Buffer.from('PK\u0003\u0004 a zip, as torch 1.6+ writes'))).toThrow(CheckpointFormatError);
    expect(() => readLegacyTorchCheckpoint(file.subarray(0, file.length - 5))).toThrow(/cut short/);
    expect(() => readLegacyTorchCheckpoint(file.subarray(0, 100))).toThrow(/ends inside a pickle/);
  });
});
