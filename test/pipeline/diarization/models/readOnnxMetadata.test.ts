import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readOnnxMetadata } from '../../../../src/pipeline/diarization/models/readOnnxMetadata.js';

// A ModelProto encoded by hand: the protobuf wire format, field by field.
const varint = (value: number): number[] => {
  const bytes: number[] = [];
  let rest = value;
  while (rest >= 0x80) {
    bytes.push((rest % 0x80) | 0x80);
    rest = Math.floor(rest / 0x80);
  }
  return [...bytes, rest];
};
const lengthDelimited = (field: number, payload: number[]): number[] => [...varint(field * 8 + 2), ...varint(payload.length), ...payload];
const text = (value: string): number[] => [...Buffer.from(value, 'utf8')];
const entry = (key: string, value: string): number[] => lengthDelimited(14, [...lengthDelimited(1, text(key)), ...lengthDelimited(2, text(value))]);

let folder: string;
beforeAll(async () => { folder = await mkdtemp(join(tmpdir(), 'callscope-onnx-metadata-')); });
afterAll(() => rm(folder, { recursive: true, force: true }));

async function modelFile(bytes: number[]): Promise<string> {
  const path = join(folder, `${Math.random().toString(36).slice(2)}.onnx`);
  await writeFile(path, Buffer.from(bytes));
  return path;
}

describe('readOnnxMetadata', () => {
  it('reads metadata_props after a large graph, which it skips', async () => {
    const path = await modelFile([
      ...varint(1 * 8 + 0), ...varint(8), // ir_version 8
      ...lengthDelimited(2, text('callscope')), // producer_name
      ...lengthDelimited(7, new Array(300_000).fill(7)), // graph, opaque here
      ...entry('callscope.embedding.kind', 'ge2e'),
      ...entry('callscope.embedding.melBands', '40'),
      ...entry('note', 'ünïcode ✓'),
    ]);
    expect(Object.fromEntries(await readOnnxMetadata(path))).toEqual({ 'callscope.embedding.kind': 'ge2e', 'callscope.embedding.melBands': '40', note: 'ünïcode ✓' });
  });

  it('gives no entries for a model without metadata', async () => {
    expect((await readOnnxMetadata(await modelFile([...varint(8), ...varint(7), ...lengthDelimited(7, [1, 2, 3])]))).size).toBe(0);
  });

  it('refuses a file that is not a protobuf message', async () => {
    await expect(readOnnxMetadata(await modelFile([...text('GGUF'), 0, 0, 0, 3]))).rejects.toThrow(/not an ONNX model|ends inside a field/);
    await expect(readOnnxMetadata(await modelFile(lengthDelimited(7, [1, 2, 3]).slice(0, 3)))).rejects.toThrow(/ends inside a field|runs past the end/);
  });
});
