import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadConfig } from '../../../src/config/loadConfig.js';
import { inferenceServersCheck } from '../../../src/infrastructure/health/inferenceServersCheck.js';
import { startTestApp } from '../../helpers/startTestApp.js';
import { closedLoopbackUrl } from '../models/modelMirror.js';

// Readiness with the site's inference servers: DOWN while one does not answer.

let server: Server;
let answering: string;
beforeAll(async () => {
  // Answers GET as a POST-only endpoint does (405): an answer all the same.
  server = createServer((request, response) => {
    response.writeHead(request.method === 'POST' ? 200 : 405).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  answering = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => { await new Promise((resolve) => server.close(resolve)); });

const config = (env: Record<string, string>) => loadConfig({ DATA_DIR: '.', ...env });

describe('inferenceServersCheck', () => {
  test('nothing to check with local providers', () => {
    expect(inferenceServersCheck(config({}))).toBeUndefined();
  });

  test('UP when both servers answer (a 405 to GET counts), naming host and answer time, never a key', async () => {
    const check = inferenceServersCheck(config({
      TRANSCRIPTION_PROVIDER: 'openai', TRANSCRIPTION_URL: `${answering}/v1/audio/transcriptions`, TRANSCRIPTION_API_KEY: 'transcription-key-0123456789',
      LLM_PROVIDER: 'openai', LLM_URL: `${answering}/v1/chat/completions`, LLM_MODEL_NAME: 'm', LLM_API_KEY: 'chat-key-0123456789',
    }))!;
    const result = await check();
    expect(result).toMatchObject({
      status: 'UP',
      detail: { transcription: { host: new URL(answering).host, status: 'answering' }, languageModel: { host: new URL(answering).host, status: 'answering' } },
    });
    expect(JSON.stringify(result)).not.toMatch(/key-0123456789/);
  });

  test('DOWN naming the setting and the host when a server refuses connections; results are reused for cacheMs', async () => {
    const closed = await closedLoopbackUrl();
    const check = inferenceServersCheck(config({ LLM_PROVIDER: 'openai', LLM_URL: `${closed}/v1/chat/completions`, LLM_MODEL_NAME: 'm' }), { cacheMs: 60_000 })!;
    const result = await check();
    expect(result).toMatchObject({ status: 'DOWN', detail: { languageModel: { status: 'not answering', problem: expect.stringMatching(/^LLM_URL \(127\.0\.0\.1:\d+\): cannot be reached \(ECONNREFUSED\)$/) } } });
    expect(await check()).toBe(result);
  });

  test('a silent server is DOWN after timeoutMs', async () => {
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/inference`;
      const check = inferenceServersCheck(config({ TRANSCRIPTION_PROVIDER: 'openai', TRANSCRIPTION_URL: url }), { timeoutMs: 200 })!;
      expect(await check()).toMatchObject({ status: 'DOWN', detail: { transcription: { problem: expect.stringContaining('no answer within 200 ms') } } });
    } finally {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  test('/actuator/health/readiness carries the check', async () => {
    const closed = await closedLoopbackUrl();
    const app = await startTestApp({ TRANSCRIPTION_PROVIDER: 'openai', TRANSCRIPTION_URL: `${closed}/inference`, MIN_FREE_DISK_MB: '0' });
    try {
      const response = await fetch(`${app.baseUrl}/actuator/health/readiness`);
      const body = (await response.json()) as { checks: Record<string, { status: string }> };
      expect(response.status).toBe(503);
      expect(body.checks.inferenceServers?.status).toBe('DOWN');
    } finally {
      await app.close();
    }
  });
});
