import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/startTestApp.js';
import { closedLoopbackUrl } from '../infrastructure/models/modelMirror.js';
import { tinyRandomLlm } from '../pipeline/analysis/llm/llmTestCalls.js';
import { completeSetup, signIn, type AdminBrowser } from './adminClient.js';

// The Settings page's inference settings and "Test" buttons, with the site's servers played by
// a loopback server that speaks OpenAI's transcription and chat protocols.

interface Result { provider: string; host: string | null; seconds: number; ok: boolean; answer?: string; problem?: string }

let server: Server;
let base: string;
const seen: { path: string; authorization: string | undefined; bytes: number }[] = [];
let testApp: TestApp;
let browser: AdminBrowser;

async function bodyOf(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

beforeAll(async () => {
  server = createServer((request, response) => {
    void bodyOf(request).then((body) => {
      seen.push({ path: request.url ?? '', authorization: request.headers.authorization, bytes: body.length });
      const json = request.url?.includes('chat')
        ? { choices: [{ index: 0, message: { role: 'assistant', content: '{"ready": true}' }, finish_reason: 'stop' }], usage: { prompt_tokens: 30, completion_tokens: 6 } }
        : { language: 'english', duration: 1, text: '', segments: [], words: [] };
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(json));
    });
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  testApp = await startTestApp({
    TRANSCRIPTION_PROVIDER: 'openai', TRANSCRIPTION_URL: `${base}/v1/audio/transcriptions`, TRANSCRIPTION_API_KEY: 'test-transcription-key-0123',
    LLM_PROVIDER: 'openai', LLM_URL: `${base}/v1/chat/completions`, LLM_MODEL_NAME: 'qwen2.5-7b-instruct',
  });
  browser = await completeSetup(testApp);
});
afterAll(async () => {
  await testApp.close();
  await new Promise((closed) => server.close(closed));
});

const runTest = async (what: 'transcription' | 'language-model') => {
  const response = await browser.fetch(`/admin/api/inference/${what}/test`, { method: 'POST' });
  expect(response.status).toBe(200);
  return (await response.json()) as Result;
};

describe('inference settings and tests on the admin page', () => {
  test('speech recognition: one second of audio to the transcription server, with its key; the answer and the time taken', async () => {
    const before = seen.length;
    const result = await runTest('transcription');
    expect(result).toMatchObject({ provider: 'openai', host: new URL(base).host, ok: true, answer: 'language en, model whisper-1, 0 word(s)' });
    expect(result.seconds).toBeGreaterThanOrEqual(0);
    const request = seen[before]!;
    expect(request.path).toBe('/v1/audio/transcriptions');
    expect(request.authorization).toBe('Bearer test-transcription-key-0123');
    // One second of 16 kHz mono 16-bit audio and its header, in a multipart body.
    expect(request.bytes).toBeGreaterThan(32_000);
  });

  test('language model: one short prompt to the chat server; its answer and token counts', async () => {
    const result = await runTest('language-model');
    expect(result).toMatchObject({ provider: 'openai', ok: true, answer: '{"ready": true} (30 prompt and 6 answer tokens)' });
    expect(seen.at(-1)!.path).toBe('/v1/chat/completions');
  });

  test('configured on the page: the provider after a restart, the server\'s URL at once; a server that cannot be reached is a failed test naming it', async () => {
    const pageApp = await startTestApp();
    const admin = await completeSetup(pageApp);
    const configure = await admin.fetch('/admin/api/settings', { method: 'PATCH', body: { values: { TRANSCRIPTION_PROVIDER: 'openai', TRANSCRIPTION_URL: `${base}/inference` } } });
    expect(configure.status).toBe(200);

    // The next start on the same DATA_DIR (the first app stays open: closing it removes the folder),
    // and on a PostgreSQL run the same database.
    const { DATABASE_URL } = pageApp.services.config;
    const restarted = await startTestApp({ DATA_DIR: pageApp.dataDir, ...(DATABASE_URL ? { DATABASE_URL } : {}) });
    try {
      const again = await signIn(restarted);
      const before = seen.length;
      const answered = (await (await again.fetch('/admin/api/inference/transcription/test', { method: 'POST' })).json()) as Result;
      expect(answered).toMatchObject({ provider: 'openai', ok: true });
      expect(seen[before]!.path).toBe('/inference');

      const unreachable = `${await closedLoopbackUrl()}/inference`;
      expect((await again.fetch('/admin/api/settings', { method: 'PATCH', body: { values: { TRANSCRIPTION_URL: unreachable } } })).status).toBe(200);
      const failed = (await (await again.fetch('/admin/api/inference/transcription/test', { method: 'POST' })).json()) as Result;
      expect(failed.ok).toBe(false);
      expect(failed.problem).toContain(`transcription server at ${new URL(unreachable).host} cannot be reached (ECONNREFUSED)`);
    } finally {
      await restarted.close();
      await pageApp.close();
    }
  });

  test('the settings list the inference settings with their sources; keys are never shown', async () => {
    const settings = (await (await browser.fetch('/admin/api/settings')).json()) as { settings: { key: string; source: string; value: unknown; secret: boolean; live: boolean }[] };
    const byKey = new Map(settings.settings.map((setting) => [setting.key, setting]));
    expect(byKey.get('TRANSCRIPTION_PROVIDER')).toMatchObject({ source: 'env', value: 'openai', live: false });
    expect(byKey.get('TRANSCRIPTION_URL')).toMatchObject({ source: 'env', live: true });
    expect(byKey.get('LLM_URL')).toMatchObject({ source: 'env', live: false });
    expect(byKey.get('TRANSCRIPTION_API_KEY')).toMatchObject({ secret: true });
    expect(JSON.stringify(settings)).not.toContain('test-transcription-key');
  });

  test('with the language model on this box: one short prompt to the local GGUF model (loaded for the test and freed); without its file, where to get it', async () => {
    const local = await startTestApp({ LLM_MODEL: tinyRandomLlm, GPU: 'off' });
    const missing = await startTestApp({ LLM_MODEL: 'models/absent-llm.gguf' });
    try {
      const answered = (await (await (await completeSetup(local)).fetch('/admin/api/inference/language-model/test', { method: 'POST' })).json()) as Result;
      // The structure-only model answers random text, kept to the schema: {"ready": true|false}.
      expect(answered).toMatchObject({ provider: 'local', ok: true, answer: expect.stringMatching(/^\{\s*"ready"\s*:\s*(true|false)\s*\}.*llama-2-tiny-random\.gguf/) });
      const notThere = (await (await (await completeSetup(missing)).fetch('/admin/api/inference/language-model/test', { method: 'POST' })).json()) as Result;
      expect(notThere).toMatchObject({ provider: 'local', ok: false, problem: expect.stringContaining('not installed (LLM_MODEL, now models/absent-llm.gguf)') });
    } finally {
      await local.close();
      await missing.close();
    }
  }, 60_000);

  test('the tests need a signed-in admin and the CSRF token', async () => {
    const anonymous = await fetch(`${testApp.baseUrl}/admin/api/inference/transcription/test`, { method: 'POST' });
    expect(anonymous.status).toBe(401);
    const withoutToken = await browser.fetch('/admin/api/inference/transcription/test', { method: 'POST', headers: { 'x-csrf-token': 'wrong' } });
    expect(withoutToken.status).toBe(403);
  });
});
