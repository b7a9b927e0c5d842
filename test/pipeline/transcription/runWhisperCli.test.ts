import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runWhisperCli } from '../../../src/pipeline/transcription/runWhisperCli.js';
import { defaultWhisperCliPath } from '../../../src/pipeline/transcription/transcribeAudio.js';
import { VadTimeMap } from '../../../src/pipeline/transcription/VadTimeMap.js';
import { whisperCliArguments } from '../../../src/pipeline/transcription/whisperCliArguments.js';
import { createTestStageContext } from '../testStageContext.js';
import { jfkWav, requireWhisperCli, sileroVadModel, stubWhisperModel } from './transcriptionTestFiles.js';

let folder: string;
beforeAll(async () => { folder = await mkdtemp(join(tmpdir(), 'run-whisper-cli-')); });
afterAll(async () => { await rm(folder, { recursive: true, force: true }); });

describe('runWhisperCli with the real whisper-cli and the structure-only model', () => {
  beforeAll(requireWhisperCli);

  it('keeps the VAD lines whisper-cli logs, from which its time mapping is rebuilt (guards against a new log format)', async () => {
    const args = whisperCliArguments({
      modelPath: stubWhisperModel, audioPath: jfkWav, outputBase: join(folder, 'jfk'), threads: 2, language: 'auto', vadModelPath: sileroVadModel, beamSize: 1,
    });
    const outcome = await runWhisperCli(defaultWhisperCliPath, args, 11, createTestStageContext());
    expect(outcome).toMatchObject({ exitCode: 0, signal: null });
    const map = VadTimeMap.fromWhisperLog(outcome.diagnosticLines);
    expect(map).toBeDefined();
    // jfk.wav's speech starts at 0.32 s and ends at 10.69 s (Silero VAD v6.2.0 with whisperVadSettings: threshold 0.35).
    expect(map!.toOriginal(0)).toBe(320);
    expect(map!.toOriginal(60_000)).toBe(10_690);
  });

  it('keeps only diagnostic lines of stderr, not whisper\'s chatter', async () => {
    const args = whisperCliArguments({ modelPath: stubWhisperModel, audioPath: jfkWav, outputBase: join(folder, 'plain'), threads: 2, language: 'en', beamSize: 1 });
    const outcome = await runWhisperCli(defaultWhisperCliPath, args, 11, createTestStageContext());
    expect(outcome.diagnosticLines.filter((line) => /system_info|whisper_model_load|processing '/.test(line))).toEqual([]);
  });
});
