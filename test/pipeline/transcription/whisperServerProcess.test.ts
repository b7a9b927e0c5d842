import { chmodSync, copyFileSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { transcribeAudio } from '../../../src/pipeline/transcription/transcribeAudio.js';
import { defaultWhisperServerPath, WhisperServerProcess } from '../../../src/pipeline/transcription/WhisperServerProcess.js';
import { createTestStageContext } from '../testStageContext.js';
import { jfkWav, requireWhisperCli, sileroVadModel, stubWhisperModel } from './transcriptionTestFiles.js';

// The persistent whisper-server behind local transcription (WHISPER_SERVER=on), with the real
// binary built by `npm ci` and the structure-only model: started once for many calls, started
// again when it died or its model file changed, killed when a call is abandoned, stopped with
// the service; and the stage's answer is whisper-cli's for the same audio.

let folder: string;
let servers: WhisperServerProcess[] = [];
beforeAll(() => {
  requireWhisperCli();
  folder = mkdtempSync(join(tmpdir(), 'callscope-whisper-server-'));
});
afterEach(async () => {
  await Promise.all(servers.map((server) => server.stop()));
  servers = [];
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

function serverFor(modelPath: string, vadModelPath?: string): WhisperServerProcess {
  const server = new WhisperServerProcess({ binaryPath: defaultWhisperServerPath, modelPath, ...(vadModelPath ? { vadModelPath } : {}), threads: 2, useGpu: false });
  servers.push(server);
  return server;
}

const input = { audioPath: jfkWav, durationSeconds: 11 };
const options = (server?: WhisperServerProcess) => ({ modelPath: stubWhisperModel, vadModelPath: sileroVadModel, language: 'en', threads: 2, ...(server ? { server } : {}) });

describe('WhisperServerProcess', () => {
  test('starts on the first call only, serves the next calls with the same process, and its answer is whisper-cli\'s', async () => {
    const server = serverFor(stubWhisperModel, sileroVadModel);
    expect(server.isRunning).toBe(false);
    const first = await transcribeAudio(input, { ...options(server), tempDir: folder }, createTestStageContext());
    const second = await transcribeAudio(input, { ...options(server), tempDir: folder }, createTestStageContext());
    expect(server.starts).toBe(1);
    expect(server.isRunning).toBe(true);
    const cli = await transcribeAudio(input, { ...options(), tempDir: folder }, createTestStageContext());
    expect(first).toEqual(cli);
    expect(second).toEqual(cli);
  }, 120_000);

  test('calls sent at once go one at a time, each with its own answer', async () => {
    const server = serverFor(stubWhisperModel);
    const results = await Promise.all([1, 2, 3].map(() => transcribeAudio(input, { ...options(server), vadModelPath: undefined, tempDir: folder }, createTestStageContext())));
    expect(results.map((result) => result.language)).toEqual(['en', 'en', 'en']);
    expect(server.starts).toBe(1);
  }, 120_000);

  test('a server that died is started again by the next call', async () => {
    const server = serverFor(stubWhisperModel);
    await transcribeAudio(input, { ...options(server), tempDir: folder }, createTestStageContext());
    // Stands for a crash: the process ends under the service's feet.
    const running = (server as unknown as { child: { kill: (signal: string) => void; once: (event: string, listener: () => void) => void } }).child;
    await new Promise<void>((exited) => { running.once('exit', exited); running.kill('SIGKILL'); });
    expect(server.isRunning).toBe(false);
    const again = await transcribeAudio(input, { ...options(server), tempDir: folder }, createTestStageContext());
    expect(again.language).toBe('en');
    expect(server.starts).toBe(2);
  }, 120_000);

  test('a model file that changed is loaded again (the server restarts before the next call)', async () => {
    const model = join(folder, 'whisper.bin');
    copyFileSync(stubWhisperModel, model);
    const server = serverFor(model);
    await transcribeAudio(input, { ...options(server), modelPath: model, tempDir: folder }, createTestStageContext());
    const later = new Date(Date.now() + 5000);
    utimesSync(model, later, later);
    await transcribeAudio(input, { ...options(server), modelPath: model, tempDir: folder }, createTestStageContext());
    expect(server.starts).toBe(2);
  }, 120_000);

  test('an abandoned call kills the server (it cannot cancel one); the next call starts it again', async () => {
    const server = serverFor(stubWhisperModel);
    const controller = new AbortController();
    const running = transcribeAudio(input, { ...options(server), tempDir: folder }, createTestStageContext(controller.signal));
    const outcome = running.then(() => 'finished', (error: unknown) => error);
    // Abandoned while the server works on it (after its start, with the request sent).
    await expect.poll(() => server.isBusy, { timeout: 30_000, interval: 5 }).toBe(true);
    controller.abort(new Error('given up'));
    expect(await outcome).toEqual(new Error('given up'));
    await expect.poll(() => server.isRunning, { timeout: 5000 }).toBe(false);
    await transcribeAudio(input, { ...options(server), tempDir: folder }, createTestStageContext());
    expect(server.isRunning).toBe(true);
  }, 120_000);

  test('stop ends the process, and a stopped server refuses calls', async () => {
    const server = serverFor(stubWhisperModel);
    await transcribeAudio(input, { ...options(server), tempDir: folder }, createTestStageContext());
    await server.stop();
    expect(server.isRunning).toBe(false);
    await expect(transcribeAudio(input, { ...options(server), tempDir: folder }, createTestStageContext())).rejects.toThrow(/stopped/);
  }, 120_000);

  test('a model whisper cannot load fails as whisper-cli\'s stage does, naming WHISPER_MODEL', async () => {
    const notAModel = join(folder, 'not-a-model.bin');
    copyFileSync(jfkWav, notAModel);
    const server = serverFor(notAModel);
    await expect(transcribeAudio(input, { ...options(server), modelPath: notAModel, vadModelPath: undefined, tempDir: folder }, createTestStageContext()))
      .rejects.toMatchObject({ kind: 'unavailable', reason: expect.stringMatching(/WHISPER_MODEL \(now not-a-model\.bin\) could not be loaded/) });
  }, 120_000);

  test('a server whose memory runs away (a damaged model) is killed, and the call fails saying the model is probably damaged', async () => {
    // A stand-in for whisper-server: it answers /health, then grows without bound on /inference.
    const standIn = join(folder, 'growing-whisper-server.mjs');
    writeFileSync(standIn, `#!/usr/bin/env node
import { createServer } from 'node:http';
const port = Number(process.argv[process.argv.indexOf('--port') + 1]);
const held = [];
createServer((request, response) => {
  if (request.url === '/health') return response.end('{"status":"ok"}');
  setInterval(() => held.push(Buffer.alloc(32 * 1024 * 1024, 1)), 20);
}).listen(port, '127.0.0.1');
`);
    chmodSync(standIn, 0o755);
    const server = new WhisperServerProcess({ binaryPath: standIn, modelPath: stubWhisperModel, threads: 1, useGpu: false, maxResidentBytes: 300 * 1024 ** 2 });
    servers.push(server);
    await expect(transcribeAudio(input, { ...options(server), vadModelPath: undefined, maxMemoryBytes: 300 * 1024 ** 2, tempDir: folder }, createTestStageContext()))
      .rejects.toMatchObject({ kind: 'unavailable', reason: expect.stringMatching(/more than 300 MB of memory .* the model is probably damaged/) });
    await expect.poll(() => server.isRunning, { timeout: 5000 }).toBe(false);
  }, 60_000);

  test('a whisper-server binary that cannot be started fails the call with an internal error saying so (the service keeps running)', async () => {
    const server = new WhisperServerProcess({ binaryPath: join(folder, 'no-such-whisper-server'), modelPath: stubWhisperModel, threads: 1, useGpu: false });
    servers.push(server);
    await expect(transcribeAudio(input, { ...options(server), vadModelPath: undefined, tempDir: folder }, createTestStageContext()))
      .rejects.toThrow(/whisper-server could not be started \(ENOENT\)/);
    expect(server.isRunning).toBe(false);
  }, 30_000);

  test('a server that runs but no longer answers its health check (hung) is replaced before the next call', async () => {
    // A stand-in: answers /inference once, then hangs on everything, /health included.
    const standIn = join(folder, 'hanging-whisper-server.mjs');
    writeFileSync(standIn, `#!/usr/bin/env node
import { createServer } from 'node:http';
const port = Number(process.argv[process.argv.indexOf('--port') + 1]);
let served = 0;
createServer((request, response) => {
  if (served > 0) return;
  if (request.url === '/health') return response.end('{"status":"ok"}');
  request.resume();
  request.on('end', () => { served += 1; response.end(JSON.stringify({ language: 'english', segments: [] })); });
}).listen(port, '127.0.0.1');
`);
    chmodSync(standIn, 0o755);
    const server = new WhisperServerProcess({ binaryPath: standIn, modelPath: stubWhisperModel, threads: 1, useGpu: false });
    servers.push(server);
    const call = () => transcribeAudio(input, { ...options(server), vadModelPath: undefined, tempDir: folder }, createTestStageContext());
    expect((await call()).language).toBe('en');
    expect((await call()).language).toBe('en');
    expect(server.starts).toBe(2);
  }, 60_000);
});
