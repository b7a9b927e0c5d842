import { afterAll, beforeAll, expect, test } from 'vitest';
import { stageTimingsOf } from '../../src/admin/status/collectStatus.js';
import { ProcessingEventRepository } from '../../src/processing/ProcessingEventRepository.js';
import { seedCall, seedUser } from '../helpers/seedCalls.js';
import { startTestApp, type TestApp } from '../helpers/startTestApp.js';
import { completeSetup, type AdminBrowser } from './adminClient.js';

let testApp: TestApp;
let browser: AdminBrowser;
let failedCallId: string;
const dayMs = 24 * 60 * 60_000;

beforeAll(async () => {
  testApp = await startTestApp();
  browser = await completeSetup(testApp);
  const { services } = testApp;
  const now = services.clock();
  const personal = { title: 'Quarterly pricing with Zebulon', contactName: 'Zebulon Quixote', phoneNumber: '+15559876543' };
  const completed = await seedCall(services, 'status-user', { ...personal, status: 'COMPLETED' });
  await seedCall(services, 'status-user', { ...personal, status: 'COMPLETED', createdAt: now - 2 * dayMs });
  failedCallId = await seedCall(services, 'status-user', { ...personal, status: 'FAILED', errorReason: 'The audio could not be decoded' });
  await seedCall(services, 'status-user', { ...personal, status: 'QUEUED' });
  await seedCall(services, 'status-user', { ...personal, status: 'QUEUED' });

  const events = new ProcessingEventRepository(services.database.sql);
  for (const [stage, durationMs, outcome] of [['cleanup', 100, 'OK'], ['cleanup', 300, 'OK'], ['transcription', 2000, 'OK'], ['transcription', 500, 'FAILED']] as const) {
    const id = await events.start(completed, stage, now - durationMs);
    await events.finish(id, outcome, now);
  }
});
afterAll(async () => { await testApp.close(); });

test('the status shows health, readiness, queue, the last 24 hours and recent failures', async () => {
  const response = await browser.fetch('/admin/api/status');
  expect(response.status).toBe(200);
  const status = (await response.json()) as Record<string, unknown>;
  expect(status).toMatchObject({
    health: { status: 'UP' },
    readiness: { status: expect.stringMatching(/^(UP|DOWN)$/), checks: { database: { status: 'UP' } } },
    queue: { QUEUED: 2, TRANSCRIBING: 0, ANALYZING: 0, COMPLETED: 2, FAILED: 1 },
    processedLast24h: { completed: 1, failed: 1 },
    stageTimings: [
      { stage: 'cleanup', runs: 2, failures: 0, p50Ms: 100, p95Ms: 300 },
      { stage: 'transcription', runs: 2, failures: 1, p50Ms: 500, p95Ms: 2000 },
    ],
    recentFailures: [{ callId: failedCallId, failedAt: expect.stringMatching(/Z$/), errorReason: 'The audio could not be decoded' }],
  });
});

test('the status carries no call content, contact details or user ids', async () => {
  const text = await (await browser.fetch('/admin/api/status')).text();
  for (const personal of ['Zebulon', 'Quixote', 'pricing', '5559876543', 'Diane', 'Sheila', 'Contract', 'status-user', (await seedUser(testApp.services, 'status-user')).id]) {
    expect(text).not.toContain(personal);
  }
});

test('stage percentiles are nearest-rank over finished runs', () => {
  const events = [10, 20, 30, 40, 50, 60, 70, 80, 90, 100].map((durationMs) => ({ stage: 'analysis', outcome: 'OK', durationMs }));
  expect(stageTimingsOf([...events, { stage: 'analysis', outcome: 'INTERRUPTED', durationMs: null }])).toEqual([
    { stage: 'analysis', runs: 11, failures: 0, p50Ms: 50, p95Ms: 100 },
  ]);
});
