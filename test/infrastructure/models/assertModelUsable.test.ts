import { copyFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { assertModelUsable } from '../../../src/infrastructure/models/assertModelUsable.js';
import type { AnalysisInput } from '../../../src/pipeline/analysis/Analyser.js';
import { createLlmAnalyser } from '../../../src/pipeline/analysis/llm/createLlmAnalyser.js';
import type { CleanedAudio } from '../../../src/pipeline/cleanup/cleanAudio.js';
import { diarizeAudio } from '../../../src/pipeline/diarization/diarizeAudio.js';
import { StageFailure } from '../../../src/pipeline/StageFailure.js';
import { transcribeAudio } from '../../../src/pipeline/transcription/transcribeAudio.js';
import { embedVoiceSample, VoiceSampleRejected } from '../../../src/pipeline/voice/embedVoiceSample.js';
import { createTestStageContext } from '../../pipeline/testStageContext.js';
import { modelFolder, sharedFiles, truncatedCopy } from './modelFixtures.js';

// Damaged copies of the development model files in ../shared/models, under their published
// names: no `callscope models status` ran before, so the stages hash them on demand.

let folder: Awaited<ReturnType<typeof modelFolder>>;
beforeEach(async () => { folder = await modelFolder(); });
afterEach(async () => { await folder.remove(); });

const damaged = (source: string) => truncatedCopy(source, join(folder.models, source.split('/').at(-1)!));

describe('assertModelUsable', () => {
  test('refuses a damaged copy of a manifest model as unavailable, naming the slot', async () => {
    const failure = await assertModelUsable(await damaged(sharedFiles.segmentation)).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(StageFailure);
    expect(failure).toMatchObject({
      kind: 'unavailable',
      reason: expect.stringMatching(/^The speaker segmentation model at SEGMENTATION_MODEL \(now pyannote-segmentation-3\.0\.fp16\.onnx\) failed its integrity check: .*fetch or import it again \(callscope models fetch --slot segmentation/),
    });
    // The reason names no folder.
    expect((failure as StageFailure).reason).not.toContain(folder.root);
  });

  test('passes intact manifest models, own models and missing files', async () => {
    await expect(assertModelUsable(sharedFiles.whisper)).resolves.toBeUndefined();
    const own = join(folder.models, 'my-whisper.bin');
    await writeFile(own, 'own model');
    await expect(assertModelUsable(own)).resolves.toBeUndefined();
    await expect(assertModelUsable(join(folder.models, 'absent.bin'))).resolves.toBeUndefined();
  });
});

describe('the stages refuse a model that failed its integrity check', () => {
  const cleaned = { monoPath: '/nonexistent/cleaned.wav', sourceChannels: 1, durationSeconds: 10, levels: { channelActiveFractions: [1] } } as unknown as CleanedAudio;

  test('diarization: the segmentation model', async () => {
    const failure = await diarizeAudio(cleaned, { segmentationModel: await damaged(sharedFiles.segmentation) }, createTestStageContext()).catch((error: unknown) => error);
    expect(failure).toMatchObject({ kind: 'unavailable', reason: expect.stringMatching(/^The speaker segmentation model at SEGMENTATION_MODEL .* failed its integrity check/) });
  });

  test('diarization: the speaker-embedding model', async () => {
    const embedding = join(folder.models, 'voxceleb_resnet34_LM.onnx');
    await writeFile(embedding, 'the first bytes of an interrupted download');
    const failure = await diarizeAudio(cleaned, { segmentationModel: sharedFiles.segmentation, embeddingModel: embedding }, createTestStageContext()).catch((error: unknown) => error);
    expect(failure).toMatchObject({ kind: 'unavailable', reason: expect.stringMatching(/^The speaker-embedding model at EMBEDDING_MODEL .* failed its integrity check/) });
  });

  test('transcription: the whisper model and the VAD model', async () => {
    const input = { audioPath: '/nonexistent/cleaned.wav', durationSeconds: 10 };
    // Any executable passes the "whisper-cli is built" check; the models are checked before it runs.
    const whisper = await transcribeAudio(input, { modelPath: await damaged(sharedFiles.whisper), whisperCliPath: process.execPath }, createTestStageContext()).catch((error: unknown) => error);
    expect(whisper).toMatchObject({ kind: 'unavailable', reason: expect.stringMatching(/^The speech recognition model at WHISPER_MODEL .* failed its integrity check/) });
    const vad = await transcribeAudio(input, { modelPath: sharedFiles.whisper, vadModelPath: await damaged(sharedFiles.vad), whisperCliPath: process.execPath }, createTestStageContext())
      .catch((error: unknown) => error);
    expect(vad).toMatchObject({ kind: 'unavailable', reason: expect.stringMatching(/^The voice activity model at VAD_MODEL .* failed its integrity check/) });
  });

  test('analysis: the LLM analyser\'s model', async () => {
    const analyser = createLlmAnalyser({ modelPath: await damaged(sharedFiles.llm) });
    const failure = await analyser.analyse({} as AnalysisInput, createTestStageContext()).catch((error: unknown) => error);
    expect(failure).toMatchObject({ kind: 'unavailable', reason: expect.stringMatching(/^The language model for call analysis at LLM_MODEL .* failed its integrity check/) });
  });

  test('voice profiles: the sample is refused as a provider problem', async () => {
    const embedding = join(folder.models, 'voxceleb_resnet34_LM.onnx');
    await writeFile(embedding, 'truncated');
    const failure = await embedVoiceSample(
      { samplePath: '/nonexistent/sample.wav', workDir: folder.root, embeddingModel: embedding, limits: { minSeconds: 10, maxSeconds: 60 } },
      createTestStageContext(),
    ).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(VoiceSampleRejected);
    expect(failure).toMatchObject({ kind: 'provider', message: expect.stringMatching(/^The speaker-embedding model at EMBEDDING_MODEL .* failed its integrity check/) });
  });

  test('an intact development model passes the check (the stage goes on to its next step)', async () => {
    await copyFile(sharedFiles.llm, join(folder.models, 'llm.gguf'));
    const analyser = createLlmAnalyser({ modelPath: join(folder.models, 'llm.gguf') });
    const input = { transcript: { segments: [], speakers: [] } } as unknown as AnalysisInput;
    await expect(analyser.analyse(input, createTestStageContext())).resolves.toMatchObject({ producer: { model: 'llm.gguf' } });
  });
});
