import { copyFile, open, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { clearModelLoadFailure, modelFileVersion, modelLoadFailed, recordIfModelUnusable } from '../../../src/infrastructure/models/modelLoadFailures.js';
import { createLlmAnalyser } from '../../../src/pipeline/analysis/llm/createLlmAnalyser.js';
import type { CleanedAudio } from '../../../src/pipeline/cleanup/cleanAudio.js';
import { diarizeAudio } from '../../../src/pipeline/diarization/diarizeAudio.js';
import { StageFailure } from '../../../src/pipeline/StageFailure.js';
import { transcribeAudio } from '../../../src/pipeline/transcription/transcribeAudio.js';
import { pcmWav, sine } from '../../helpers/pcmWav.js';
import { callInput } from '../../pipeline/analysis/llm/llmTestCalls.js';
import { writeToyEmbeddingModel } from '../../pipeline/diarization/toyEmbeddingModel.js';
import { createTestStageContext } from '../../pipeline/testStageContext.js';
import { requireWhisperCli } from '../../pipeline/transcription/transcriptionTestFiles.js';
import { modelFolder, sharedFiles, truncatedCopy } from './modelFixtures.js';

// Own models (file names no manifest entry has: the integrity check cannot judge them) that the
// stages cannot load: the call's reason says which setting to fix, and readiness is told (see
// modelsCheck.test.ts) until the file changes or loads.

let folder: Awaited<ReturnType<typeof modelFolder>>;
beforeEach(async () => { folder = await modelFolder(); });
afterEach(async () => { await folder.remove(); });

/** A copy of `source` whose first 64 bytes (the format's magic and header) are overwritten. */
async function overwrittenHeader(source: string, target: string): Promise<string> {
  await copyFile(source, target);
  const handle = await open(target, 'r+');
  try {
    await handle.write(Buffer.alloc(64, 0xff), 0, 64, 0);
  } finally {
    await handle.close();
  }
  return target;
}

async function failureOf(work: Promise<unknown>): Promise<StageFailure> {
  const error = await work.then(() => undefined, (caught: unknown) => caught);
  expect(error).toBeInstanceOf(StageFailure);
  return error as StageFailure;
}

describe('the load-failure record', () => {
  test('holds a stage\'s unusable-model failure against the file version it loaded, until the file changes or loads', async () => {
    const path = join(folder.models, 'own.onnx');
    await writeFile(path, 'not a model');
    const unusable = new StageFailure('unavailable', 'cannot load own.onnx');

    recordIfModelUnusable(new StageFailure('unavailable', 'another reason'), unusable, path, await modelFileVersion(path));
    recordIfModelUnusable(new Error('cannot load own.onnx'), unusable, path, await modelFileVersion(path));
    expect(await modelLoadFailed(path)).toBe(false);

    // The same kind and reason, as a worker thread's failure arrives.
    recordIfModelUnusable(new StageFailure('unavailable', 'cannot load own.onnx'), unusable, path, await modelFileVersion(path));
    expect(await modelLoadFailed(path)).toBe(true);
    clearModelLoadFailure(path);
    expect(await modelLoadFailed(path)).toBe(false);

    recordIfModelUnusable(unusable, unusable, path, await modelFileVersion(path));
    await writeFile(path, 'replaced');
    expect(await modelLoadFailed(path)).toBe(false);
  });
});

describe('a stage that cannot load an own model fails with the setting to fix, and records it', () => {
  test('diarization: a truncated segmentation model, then the same path with a good copy', async () => {
    const monoPath = join(folder.root, 'cleaned.wav');
    await writeFile(monoPath, pcmWav(sine(220, 3, 8000)));
    const cleaned = { monoPath, sourceChannels: 1, durationSeconds: 3, levels: { channelActiveFractions: [1] } } as unknown as CleanedAudio;
    const model = await truncatedCopy(sharedFiles.segmentation, join(folder.models, 'my-segmentation.onnx'));

    const failure = await failureOf(diarizeAudio(cleaned, { segmentationModel: model }, createTestStageContext()));
    expect(failure.kind).toBe('unavailable');
    expect(failure.reason).toMatch(/^The speaker segmentation model at SEGMENTATION_MODEL \(now my-segmentation\.onnx\) could not be loaded: it is damaged or not an ONNX model; replace it/);
    expect(failure.reason).not.toContain(folder.root);
    expect(await modelLoadFailed(model)).toBe(true);

    await copyFile(sharedFiles.segmentation, model);
    expect(await modelLoadFailed(model)).toBe(false);
    await expect(diarizeAudio(cleaned, { segmentationModel: model }, createTestStageContext())).resolves.toMatchObject({ method: 'window-linking' });
  });

  test('diarization: a truncated speaker-embedding model', async () => {
    const monoPath = join(folder.root, 'cleaned.wav');
    await writeFile(monoPath, pcmWav(sine(220, 3, 8000)));
    const cleaned = { monoPath, sourceChannels: 1, durationSeconds: 3, levels: { channelActiveFractions: [1] } } as unknown as CleanedAudio;
    const embedding = await writeToyEmbeddingModel(join(folder.models, 'my-embedding.onnx'));
    const handle = await open(embedding, 'r+');
    await handle.truncate(Math.floor((await handle.stat()).size / 2));
    await handle.close();

    const failure = await failureOf(diarizeAudio(cleaned, { segmentationModel: sharedFiles.segmentation, embeddingModel: embedding }, createTestStageContext()));
    expect(failure).toMatchObject({ kind: 'unavailable', reason: expect.stringMatching(/^The speaker-embedding model at EMBEDDING_MODEL \(now my-embedding\.onnx\) could not be loaded/) });
    expect(await modelLoadFailed(embedding)).toBe(true);
    expect(await modelLoadFailed(sharedFiles.segmentation)).toBe(false);
  });

  test('transcription: a whisper model with its header overwritten, then a good copy', async () => {
    requireWhisperCli();
    const audioPath = join(folder.root, 'cleaned.wav');
    await writeFile(audioPath, pcmWav(sine(220, 1, 8000)));
    const model = await overwrittenHeader(sharedFiles.whisper, join(folder.models, 'my-whisper.bin'));
    const options = { modelPath: model, threads: 1, tempDir: folder.root };

    const failure = await failureOf(transcribeAudio({ audioPath, durationSeconds: 1 }, options, createTestStageContext()));
    expect(failure).toMatchObject({ kind: 'unavailable', reason: expect.stringMatching(/^The speech recognition model at WHISPER_MODEL \(now my-whisper\.bin\) could not be loaded/) });
    expect(await modelLoadFailed(model)).toBe(true);

    await copyFile(sharedFiles.whisper, model);
    await expect(transcribeAudio({ audioPath, durationSeconds: 1 }, options, createTestStageContext())).resolves.toMatchObject({ words: [] });
    expect(await modelLoadFailed(model)).toBe(false);
  }, 60_000);

  test('analysis: a GGUF language model with its header overwritten', async () => {
    const model = await overwrittenHeader(sharedFiles.llm, join(folder.models, 'my-llm.gguf'));
    const failure = await failureOf(createLlmAnalyser({ modelPath: model, gpu: false, threads: 1 }).analyse(callInput(), createTestStageContext()));
    expect(failure.kind).toBe('unavailable');
    expect(failure.reason).toMatch(/^The language model for call analysis at LLM_MODEL \(now my-llm\.gguf\) could not be loaded: .*replace it, or set ANALYSER=builtin$/);
    expect(await modelLoadFailed(model)).toBe(true);
  });
});
