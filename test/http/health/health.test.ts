import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { startTestApp, type TestApp } from '../../helpers/startTestApp.js';

/** Real model files shared by every checkout (referenced in place, never copied). */
const repoRoot = resolve(import.meta.dirname, '../../..');
const sharedModels = resolve(repoRoot, '../shared/models');
const segmentationModel = resolve(sharedModels, 'pyannote-segmentation-3.0.fp16.onnx');
const whisperModel = resolve(sharedModels, 'whisper-test-stub-tiny.en.bin');

interface Readiness {
  status: string;
  checks: Record<string, { status: string; detail?: Record<string, unknown> }>;
}

const apiKey = 'health-test-api-key-0123456789';
const metricsToken = 'metrics-token-abcdefghijklmnop';

describe('liveness and metrics', () => {
  let testApp: TestApp;
  beforeAll(async () => { testApp = await startTestApp({ API_KEY: apiKey, METRICS_TOKEN: metricsToken }); });
  afterAll(async () => { await testApp.close(); });

  test('GET /api/health answers 200 with a string status and needs no credentials, even with an API key set', async () => {
    const response = await fetch(`${testApp.baseUrl}/api/health`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { status: unknown };
    expect(typeof body.status).toBe('string');
    // The rest of /api still requires the key.
    expect((await fetch(`${testApp.baseUrl}/api/users/me`, { headers: { 'x-local-user-id': 'alice' } })).status).toBe(401);
  });

  test('GET /actuator/health answers 200 with status UP', async () => {
    const response = await fetch(`${testApp.baseUrl}/actuator/health`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ status: 'UP' });
  });

  test('/actuator/prometheus serves metrics text to loopback clients', async () => {
    expect((await fetch(`${testApp.baseUrl}/api/health`)).status).toBe(200);
    const response = await fetch(`${testApp.baseUrl}/actuator/prometheus`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await response.text();
    expect(text).toContain('callscope_http_requests_total');
    expect(text).toMatch(/callscope_http_requests_total\{[^}]*route="\/api\/health"[^}]*\} \d+/);
  });

  test('/actuator/prometheus refuses other addresses with 401 auth_invalid unless they present METRICS_TOKEN', async () => {
    const remote = { method: 'GET' as const, url: '/actuator/prometheus', remoteAddress: '10.1.2.3' };

    const refused = await testApp.app.inject(remote);
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toMatchObject({ error: { code: 'auth_invalid' } });
    expect(refused.body).not.toContain('callscope_http_requests_total');

    const wrongToken = await testApp.app.inject({ ...remote, headers: { authorization: 'Bearer not-the-metrics-token' } });
    expect(wrongToken.statusCode).toBe(401);

    const accepted = await testApp.app.inject({ ...remote, headers: { authorization: `Bearer ${metricsToken}` } });
    expect(accepted.statusCode).toBe(200);
    expect(accepted.body).toContain('callscope_http_requests_total');
  });
});

describe('readiness', () => {
  let testApp: TestApp | undefined;
  afterEach(async () => {
    await testApp?.close();
    testApp = undefined;
  });

  async function readiness(env: Record<string, string>): Promise<{ httpStatus: number; body: Readiness }> {
    testApp = await startTestApp(env);
    const response = await fetch(`${testApp.baseUrl}/actuator/health/readiness`);
    return { httpStatus: response.status, body: (await response.json()) as Readiness };
  }

  test('the shared model files exist (needed by the readiness tests)', () => {
    expect(existsSync(segmentationModel)).toBe(true);
    expect(existsSync(whisperModel)).toBe(true);
  });

  test('is 503 DOWN, with the models check DOWN, while the required models are missing', async () => {
    // Files that are never there, whatever a developer installed into models/.
    const { httpStatus, body } = await readiness({ MIN_FREE_DISK_MB: '0', SEGMENTATION_MODEL: 'models/absent-segmentation.onnx', WHISPER_MODEL: 'models/absent-whisper.bin' });
    expect(httpStatus).toBe(503);
    expect(body.status).toBe('DOWN');
    expect(Object.keys(body.checks)).toEqual(expect.arrayContaining(['database', 'diskSpace', 'models']));
    expect(body.checks.models?.status).toBe('DOWN');
    expect(body.checks.database?.status).toBe('UP');
    expect(body.checks.diskSpace?.status).toBe('UP');
  });

  test('is 200 UP when the required models point to existing files (needs the shared model files)', async () => {
    const { httpStatus, body } = await readiness({ MIN_FREE_DISK_MB: '0', SEGMENTATION_MODEL: segmentationModel, WHISPER_MODEL: whisperModel });
    expect(httpStatus).toBe(200);
    expect(body.status).toBe('UP');
    for (const name of ['database', 'diskSpace', 'models']) expect(body.checks[name]?.status).toBe('UP');
  });

  test('reports diskSpace DOWN, and 503, when less space is free than MIN_FREE_DISK_MB', async () => {
    const { httpStatus, body } = await readiness({ MIN_FREE_DISK_MB: '999999999', SEGMENTATION_MODEL: segmentationModel, WHISPER_MODEL: whisperModel });
    expect(httpStatus).toBe(503);
    expect(body.status).toBe('DOWN');
    expect(body.checks.diskSpace?.status).toBe('DOWN');
    expect(body.checks.models?.status).toBe('UP');
  });
});

describe('with the database unreachable', () => {
  let testApp: TestApp;
  beforeAll(async () => {
    testApp = await startTestApp();
    await testApp.services.database.close();
  });
  afterAll(async () => { await testApp.close(); });

  test('GET /api/health answers 503 with a status and the service_unavailable envelope', async () => {
    const response = await fetch(`${testApp.baseUrl}/api/health`);
    expect(response.status).toBe(503);
    const body = (await response.json()) as { status: unknown; error: { code: string; message: string } };
    expect(typeof body.status).toBe('string');
    expect(body.status).not.toBe('UP');
    expect(body.error.code).toBe('service_unavailable');
    expect(typeof body.error.message).toBe('string');
  });

  test('readiness reports the database check DOWN', async () => {
    const response = await fetch(`${testApp.baseUrl}/actuator/health/readiness`);
    expect(response.status).toBe(503);
    expect(((await response.json()) as Readiness).checks.database?.status).toBe('DOWN');
  });
});
