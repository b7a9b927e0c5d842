import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { packageRoot } from '../../../src/infrastructure/packageRoot.js';
import { transcribeOverHttp } from '../../../src/pipeline/transcription/transcribeOverHttp.js';
import { waitFor } from '../../helpers/processingHarness.js';
import { createTestStageContext } from '../testStageContext.js';
import { jfkWav, stubWhisperModel } from './transcriptionTestFiles.js';
import { freeLoopbackPort } from '../../../src/infrastructure/processes/freeLoopbackPort.js';

// The real whisper.cpp `whisper-server`, built by `npm ci` from the sources bundled in
// nodejs-whisper into native/bin/, with the structure-only model of ../shared/models: the
// `openai` provider speaks to its /inference endpoint. The stub model hears no words, so this
// proves the protocol (request fields, the answer's shape, the language) rather than the text.

const whisperServerPath = join(packageRoot, 'native', 'bin', 'whisper-server');
let server: ChildProcess;
let output = '';
let baseUrl: string;


beforeAll(async () => {
  if (!existsSync(whisperServerPath)) throw new Error('whisper-server is not built (native/bin/whisper-server): run `npm run build:native` (needs cmake and g++), or `npm ci`.');
  const port = await freeLoopbackPort();
  server = spawn(whisperServerPath, ['-m', stubWhisperModel, '--host', '127.0.0.1', '--port', String(port), '-t', '2'], { stdio: ['ignore', 'pipe', 'pipe'] });
  server.stdout?.on('data', (chunk: Buffer) => { output += chunk.toString(); });
  server.stderr?.on('data', (chunk: Buffer) => { output += chunk.toString(); });
  baseUrl = `http://127.0.0.1:${port}`;
  await waitFor('whisper-server to answer', async () => {
    if (server.exitCode !== null) throw new Error(`whisper-server exited with ${server.exitCode}: ${output.slice(-2000)}`);
    return fetch(`${baseUrl}/`).then((response) => response.status < 500, () => false);
  }, 30_000);
}, 60_000);

afterAll(() => {
  server?.kill('SIGTERM');
});

describe('the openai provider against the real whisper-server (/inference)', () => {
  test('sends the cleaned WAV, gets verbose_json back, and reads its language (the stub model transcribes no words)', async () => {
    const context = createTestStageContext();
    const transcription = await transcribeOverHttp({ audioPath: jfkWav, durationSeconds: 11 }, { url: `${baseUrl}/inference`, timeoutMs: 120_000, language: 'en' }, context);
    expect(transcription).toEqual({ language: 'en', words: [], provider: 'openai', model: 'whisper.cpp-server' });
    expect(context.progress.at(-1)).toBe(1);
  }, 120_000);

  test('detects the language when asked for auto (sent as auto: the server\'s default would be en)', async () => {
    const transcription = await transcribeOverHttp({ audioPath: jfkWav, durationSeconds: 11 }, { url: `${baseUrl}/inference`, timeoutMs: 120_000 }, createTestStageContext());
    expect(transcription.language).toBe('en');
  }, 120_000);

  test('an unknown path on the server is a 404: rejected, naming the server', async () => {
    await expect(transcribeOverHttp({ audioPath: jfkWav, durationSeconds: 11 }, { url: `${baseUrl}/no-such/inference`, timeoutMs: 30_000 }, createTestStageContext()))
      .rejects.toMatchObject({ kind: 'rejected', reason: expect.stringContaining(`${new URL(baseUrl).host} refused the call (HTTP 404`) });
  }, 60_000);
});
