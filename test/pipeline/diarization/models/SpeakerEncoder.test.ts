import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createSpeakerEncoder, speakerEncoderKindOf } from '../../../../src/pipeline/diarization/models/SpeakerEncoder.js';
import { StageFailure } from '../../../../src/pipeline/StageFailure.js';
import { writeToyEmbeddingModel } from '../toyEmbeddingModel.js';

const folder = await mkdtemp(join(tmpdir(), 'callscope-speaker-encoder-'));
afterAll(() => rm(folder, { recursive: true, force: true }));

describe('the embedding slot learns a model\'s kind from the file or the manifest, never from its name', () => {
  it('a model without a stated kind is an fbank model (WeSpeaker / CAM++), unless the manifest says otherwise', async () => {
    // Named like the GE2E conversion: the name counts for nothing.
    const path = await writeToyEmbeddingModel(join(folder, 'ge2e-resemblyzer.onnx'));
    expect(await speakerEncoderKindOf(path)).toBe('fbank');
    expect(await speakerEncoderKindOf(path, 'ge2e')).toBe('ge2e');
    const encoder = await createSpeakerEncoder(path);
    expect(encoder.kind).toBe('fbank');
    // One second of a tone: a unit-length embedding from its own fbank front end.
    const embedding = await encoder.embedSpeech(new Float32Array(16_000).map((_, index) => 0.3 * Math.sin(index / 10)));
    expect(Math.hypot(...embedding)).toBeCloseTo(1, 5);
    await encoder.dispose();
  });

  it('a stated kind wins over the manifest\'s; a model that is not what it states is refused when loaded', async () => {
    const path = await writeToyEmbeddingModel(join(folder, 'embedding.onnx'), { 'callscope.embedding.kind': 'ge2e' });
    expect(await speakerEncoderKindOf(path, 'fbank')).toBe('ge2e');
    // The toy model takes 80 fbank bins, not the encoder's 40 mel bands.
    await expect(createSpeakerEncoder(path)).rejects.toThrow(/not a GE2E voice encoder/);
  });

  it('refuses a kind it does not know, and a file that is no ONNX model, as an unusable model (the setting named, not the path)', async () => {
    const path = await writeToyEmbeddingModel(join(folder, 'other.onnx'), { 'callscope.embedding.kind': 'ecapa' });
    const unknown = await speakerEncoderKindOf(path).catch((error: unknown) => error);
    expect(unknown).toBeInstanceOf(StageFailure);
    expect(unknown).toMatchObject({ kind: 'unavailable', reason: expect.stringMatching(/^The speaker-embedding model at EMBEDDING_MODEL \(now other\.onnx\)/) });
    expect(((unknown as StageFailure).cause as Error).message).toMatch(/unknown kind "ecapa"/);
    const text = join(folder, 'notes.onnx');
    await writeFile(text, 'not a model\n');
    await expect(speakerEncoderKindOf(text)).rejects.toBeInstanceOf(StageFailure);
  });
});
