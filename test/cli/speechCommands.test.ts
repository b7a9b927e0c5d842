import { execFile } from 'node:child_process';
import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { Value } from 'typebox/value';
import { afterAll, expect, test } from 'vitest';
import { TranscriptSchema } from '../../src/domain/transcripts/transcriptSchema.js';

const run = promisify(execFile);
const repoRoot = resolve(import.meta.dirname, '../..');
const shared = resolve(repoRoot, '../shared');
const scratch = mkdtempSync(join(tmpdir(), 'callscope-cli-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The real CLI as a child process, configured with the shared development models. */
function callscope(args: string[], env: Record<string, string> = {}) {
  return run(process.execPath, ['--import', 'tsx', 'src/cli/callscope.ts', ...args], {
    cwd: repoRoot,
    env: {
      ...process.env, DATA_DIR: scratch,
      SEGMENTATION_MODEL: join(shared, 'models/pyannote-segmentation-3.0.fp16.onnx'),
      WHISPER_MODEL: join(shared, 'models/whisper-test-stub-tiny.en.bin'),
      VAD_MODEL: join(shared, 'models/silero-vad-v6.2.0-ggml.bin'),
      ...env,
    },
  });
}

test('callscope transcribe, with the real whisper-cli and the structure-only model, prints the language and (empty) words as JSON', async () => {
  const { stdout } = await callscope(['transcribe', join(shared, 'audio/jfk/jfk.wav')]);
  expect(JSON.parse(stdout)).toEqual({ language: 'en', words: [] });
}, 60_000);

test('callscope process, with the real models, prints {transcript, analysis, actionItems} with a valid v2 transcript', async () => {
  const metadataPath = join(scratch, 'meta.json');
  writeFileSync(metadataPath, JSON.stringify({ contactName: 'Sheila', direction: 'OUTGOING' }));
  const { stdout } = await callscope(['process', join(shared, 'audio/pyannote-sample/sample.wav'), '--metadata', metadataPath, '--user-name', 'Diane']);
  const output = JSON.parse(stdout) as { transcript: unknown; analysis: unknown; actionItems: unknown[] };
  expect(Object.keys(output)).toEqual(['transcript', 'analysis', 'actionItems']);
  expect(Value.Check(TranscriptSchema, output.transcript)).toBe(true);
  expect((output.transcript as { speakerResolution: { totalSpeakerCount: number } }).speakerResolution.totalSpeakerCount).toBe(2);
}, 60_000);

test('callscope process refuses a metadata file that is not a valid envelope (exit 64) before processing', async () => {
  const metadataPath = join(scratch, 'bad.json');
  writeFileSync(metadataPath, JSON.stringify({ direction: 'SIDEWAYS' }));
  await expect(callscope(['process', join(shared, 'audio/jfk/jfk.wav'), '--metadata', metadataPath])).rejects.toMatchObject({ code: 64 });
});

test('callscope transcribe without a whisper model fails with exit 1 and says what to install', async () => {
  const failure = await callscope(['transcribe', join(shared, 'audio/jfk/jfk.wav')], { WHISPER_MODEL: join(scratch, 'missing.bin') }).catch((error: unknown) => error);
  expect(failure).toMatchObject({ code: 1 });
  expect((failure as { stderr: string }).stderr).toMatch(/WHISPER_MODEL|whisper model/i);
}, 60_000);

test('callscope process --voice-sample matches the call against the sample as a voice profile; a refused sample ends with its reason (exit 1)', async () => {
  const { writeToyVoiceModel, speakerClips } = await import('../pipeline/voice/toyVoiceModel.js');
  const modelPath = await writeToyVoiceModel(join(scratch, 'toy-voice.onnx'));
  const env = { EMBEDDING_MODEL: modelPath, SERVICE_VOICE_SAMPLE_MIN_SECONDS: '5' };
  const { stdout } = await callscope(['process', speakerClips.speaker1b, '--voice-sample', speakerClips.speaker1a], env);
  const { transcript } = JSON.parse(stdout) as { transcript: { speakerResolution: Record<string, unknown> } };
  // The structure-only whisper model recognises no words: no transcript speaker to compare, yet matching ran.
  expect(transcript.speakerResolution).toMatchObject({ voiceEmbeddingEnabled: true, voiceMatchStatus: 'NO_MATCH' });

  await expect(callscope(['process', speakerClips.speaker1b, '--voice-sample', speakerClips.speaker1a], { ...env, SERVICE_VOICE_SAMPLE_MIN_SECONDS: '10' }))
    .rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('--voice-sample: The voice sample is 7.8 s long; at least 10 s are needed') });
}, 90_000);
