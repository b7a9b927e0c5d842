import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WorkerPool } from '../../../src/infrastructure/workers/WorkerPool.js';
import { cleanAudio, type CleanedAudio } from '../../../src/pipeline/cleanup/cleanAudio.js';
import { diarizeAudio } from '../../../src/pipeline/diarization/diarizeAudio.js';
import { parseRttm } from '../../../src/pipeline/diarization/scoring/rttm.js';
import { scoreDiarization } from '../../../src/pipeline/diarization/scoring/scoreDiarization.js';
import { StageFailure } from '../../../src/pipeline/StageFailure.js';
import { createTestStageContext } from '../testStageContext.js';
import { segmentationModelPath, sharedAudio, writeStereoCall } from './stereoCall.js';
import { writeToyEmbeddingModel } from './toyEmbeddingModel.js';

// Needs the real pyannote segmentation-3.0 ONNX model and recordings from ../shared, ffmpeg, and sox.

let folder: string;
beforeAll(async () => { folder = await mkdtemp(join(tmpdir(), 'diarize-audio-')); });
afterAll(async () => { await rm(folder, { recursive: true, force: true }); });

async function clean(sourcePath: string): Promise<CleanedAudio> {
  return cleanAudio({ sourcePath, outputDir: await mkdtemp(join(folder, 'clean-')), maxDurationSeconds: 7200 }, createTestStageContext());
}

const models = { segmentationModel: segmentationModelPath };

describe('diarizeAudio with the real segmentation model', () => {
  it('diarizes the two-party sample call with a DER of at most 15 % (no collar, overlap scored)', async () => {
    const context = createTestStageContext();
    const diarization = await diarizeAudio(await clean(sharedAudio('pyannote-sample/sample.wav')), models, context);
    const reference = parseRttm(await readFile(sharedAudio('pyannote-sample/sample.rttm'), 'utf8'));
    const score = scoreDiarization(reference, diarization.turns);

    expect(score.diarizationErrorRate).toBeLessThanOrEqual(0.15);
    expect(diarization).toMatchObject({ speakerCount: 2, method: 'window-linking', provider: 'pyannote-onnx', model: 'pyannote-segmentation-3.0.fp16.onnx' });
    expect(diarization.turns[0]!.speaker).toBe('SPEAKER_00');
    expect(diarization.turns.every((turn, index, turns) => index === 0 || turn.startSeconds >= turns[index - 1]!.startSeconds)).toBe(true);
    expect(context.progress.at(-1)).toBe(1);
  });

  it('without an embedding model, speakers who come back after a long silence keep their number (no cap: the voices decide)', async () => {
    // The call three times over: 6.7 s of silence opens each loop, longer than the windows overlap,
    // so window linking alone starts new speakers each time; the voice step joins them again.
    const looped = join(folder, 'sample-x3.wav');
    await promisify(execFile)('sox', [...Array.from({ length: 3 }, () => sharedAudio('pyannote-sample/sample.wav')), looped]);
    const diarization = await diarizeAudio(await clean(looped), models, createTestStageContext());
    const reference = parseRttm(await readFile(sharedAudio('pyannote-sample/sample.rttm'), 'utf8'));
    const loopedReference = [0, 30, 60].flatMap((offset) => reference.map((turn) => ({ ...turn, startSeconds: turn.startSeconds + offset, endSeconds: turn.endSeconds + offset })));

    expect(diarization.speakerCount).toBe(2);
    expect(scoreDiarization(loopedReference, diarization.turns).diarizationErrorRate).toBeLessThanOrEqual(0.1);
  });

  it('obeys a maxSpeakers hint and a speakerCount hint', async () => {
    const cleaned = await clean(sharedAudio('pyannote-sample/sample.wav'));
    expect((await diarizeAudio(cleaned, { ...models, maxSpeakers: 1 }, createTestStageContext())).speakerCount).toBe(1);
    expect((await diarizeAudio(cleaned, { ...models, speakerCount: 1 }, createTestStageContext())).speakerCount).toBe(1);
  });

  it('finds exactly one speaker in a one-speaker recording (jfk.wav)', async () => {
    const diarization = await diarizeAudio(await clean(sharedAudio('jfk/jfk.wav')), models, createTestStageContext());
    expect(diarization.speakerCount).toBe(1);
    expect(new Set(diarization.turns.map((turn) => turn.speaker))).toEqual(new Set(['SPEAKER_00']));
  });

  it('diarizes a stereo call with one party per channel by channel: left SPEAKER_00, right SPEAKER_01', async () => {
    const call = await writeStereoCall(join(folder, 'stereo-call.wav'), { rightStartSeconds: 8.3 });
    const cleaned = await clean(call.path);
    expect(cleaned.stereoPath).toBeDefined();
    const diarization = await diarizeAudio(cleaned, models, createTestStageContext());

    expect(diarization).toMatchObject({ method: 'channel', speakerCount: 2 });
    const left = diarization.turns.filter((turn) => turn.speaker === 'SPEAKER_00');
    const right = diarization.turns.filter((turn) => turn.speaker === 'SPEAKER_01');
    expect(left[0]!.startSeconds).toBeLessThan(0.3);
    expect(left.every((turn) => turn.endSeconds <= call.leftEndSeconds + 0.1)).toBe(true);
    expect(left.at(-1)!.endSeconds).toBeGreaterThan(call.leftEndSeconds - 0.6);
    expect(right.every((turn) => turn.startSeconds >= call.rightStartSeconds - 0.1 && turn.endSeconds <= call.rightEndSeconds + 0.1)).toBe(true);
    expect(right[0]!.startSeconds).toBeLessThan(call.rightStartSeconds + 0.5);
    expect(right.at(-1)!.endSeconds).toBeGreaterThan(call.rightEndSeconds - 0.6);
  });

  it('diarizes the mono mix when both channels carry the same mix: the two parties, as the mono recording of that mix gives them', async () => {
    const dualMono = await clean((await writeStereoCall(join(folder, 'dual-mono.wav'), { rightStartSeconds: 8.3, dualMono: true })).path);
    expect(dualMono.stereoPath).toBeDefined();
    const diarization = await diarizeAudio(dualMono, models, createTestStageContext());
    const mono = await diarizeAudio(await clean((await writeStereoCall(join(folder, 'mono-mix.wav'), { rightStartSeconds: 8.3, dualMono: true, mono: true })).path), models, createTestStageContext());
    // Who really speaks when: the same call with each party on a channel of their own, diarized by channel.
    const parties = await diarizeAudio(await clean((await writeStereoCall(join(folder, 'two-channels.wav'), { rightStartSeconds: 8.3 })).path), models, createTestStageContext());
    expect(parties.method).toBe('channel');

    expect(diarization).toMatchObject({ method: 'window-linking', speakerCount: 2 });
    // Measured: the same turns as the mono recording (DER 0), and 6.4 % against the parties' own channels, all of it edges (no confusion).
    expect(scoreDiarization(mono.turns, diarization.turns).diarizationErrorRate).toBeLessThanOrEqual(0.02);
    const score = scoreDiarization(parties.turns, diarization.turns);
    expect(score.diarizationErrorRate).toBeLessThanOrEqual(0.12);
    expect(score.confusion).toBeLessThanOrEqual(0.02);
  });

  it('clusters embeddings when an embedding model is installed (a small ONNX graph built in the test)', async () => {
    const embeddingModel = await writeToyEmbeddingModel(join(folder, 'toy-embedding.onnx'));
    const diarization = await diarizeAudio(await clean(sharedAudio('jfk/jfk.wav')), { ...models, embeddingModel }, createTestStageContext());
    expect(diarization).toMatchObject({ method: 'embedding-clustering', speakerCount: 1, model: 'pyannote-segmentation-3.0.fp16.onnx + toy-embedding.onnx' });
  });

  it('links windows when the configured embedding model is missing, and fails as model_missing (the call waits) without the segmentation model', async () => {
    const cleaned = await clean(sharedAudio('jfk/jfk.wav'));
    const linked = await diarizeAudio(cleaned, { ...models, embeddingModel: join(folder, 'no-such-embedding.onnx') }, createTestStageContext());
    expect(linked.method).toBe('window-linking');

    const failure = await diarizeAudio(cleaned, { segmentationModel: 'models/missing-segmentation.onnx' }, createTestStageContext()).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(StageFailure);
    expect(failure).toMatchObject({ kind: 'model_missing' });
    expect((failure as StageFailure).reason).toMatch(/missing-segmentation\.onnx.*SEGMENTATION_MODEL/);
    expect((failure as StageFailure).reason).not.toMatch(/\//);
  });

  it('runs as the `diarize` task on a worker thread, and the pool frees the thread\'s ONNX session', async () => {
    const pool = new WorkerPool(1);
    try {
      const cleaned = await clean(sharedAudio('jfk/jfk.wav'));
      const context = { ...createTestStageContext(), runInWorker: pool.run.bind(pool) } as ReturnType<typeof createTestStageContext>;
      const diarization = await diarizeAudio(cleaned, models, context);
      expect(diarization.speakerCount).toBe(1);
    } finally {
      const closed = await pool.close();
      expect(closed.resourcesFreed).toBeGreaterThanOrEqual(1);
    }
  });
});

describe('test prerequisites', () => {
  it('finds the shared segmentation model', () => {
    expect(existsSync(segmentationModelPath)).toBe(true);
  });
});
