import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireEvalModelFile } from '../../../scripts/models/evalModels.js';
import { packageRoot } from '../../../src/infrastructure/packageRoot.js';
import { cleanAudio } from '../../../src/pipeline/cleanup/cleanAudio.js';
import { transcribeAudio } from '../../../src/pipeline/transcription/transcribeAudio.js';
import { createTestStageContext } from '../testStageContext.js';
import { requireWhisperCli, sileroVadModel } from './transcriptionTestFiles.js';

// The telephone sample opens with Diane's answering "Hello?" (6.68–7.16 s in sample.stm) after
// 6.7 s of line. After the clean-up's loudness normalisation, whisper.cpp's VAD with its own
// defaults dropped it, so whisper never decoded it (see whisperVadSettings.ts). Real tiny.en
// (`npm run models:eval`) and the real Silero VAD, through the clean-up and the stage as a call runs.

const telephoneSample = resolve(packageRoot, '../shared/audio/pyannote-sample/sample.wav');

let folder: string;
beforeAll(async () => {
  requireWhisperCli();
  folder = await mkdtemp(join(tmpdir(), 'callscope-telephone-opening-'));
});
afterAll(() => rm(folder, { recursive: true, force: true }));

describe('the telephone call\'s opening word with real tiny.en and Silero VAD (realModel)', () => {
  it('whisper decodes the answering "Hello?" at 6.7–7.2 s that VAD used to drop', async () => {
    const modelPath = requireEvalModelFile('whisper-tiny.en', 'whisperGgml');
    const context = createTestStageContext();
    const cleaned = await cleanAudio({ sourcePath: telephoneSample, outputDir: folder, maxDurationSeconds: 60 }, context);
    const transcription = await transcribeAudio(
      { audioPath: cleaned.monoPath, durationSeconds: cleaned.durationSeconds },
      { modelPath, vadModelPath: sileroVadModel, threads: 2, language: 'en' },
      context,
    );
    const opening = transcription.words.filter((word) => word.startSeconds < 7.2 && word.endSeconds > 6.6);
    expect(opening.map((word) => word.text.toLowerCase().replace(/[^a-z]/g, ''))).toContain('hello');
  }, 300_000);
});
