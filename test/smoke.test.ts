import { afterAll, beforeAll, expect, test } from 'vitest';
import { seedCall } from './helpers/seedCalls.js';
import { startTestApp, type TestApp } from './helpers/startTestApp.js';

let testApp: TestApp;
beforeAll(async () => { testApp = await startTestApp(); });
afterAll(async () => { await testApp.close(); });

test('a seeded completed call serves its transcript and analysis', async () => {
  const callId = await seedCall(testApp.services, 'alice');
  const alice = testApp.as('alice');
  const transcript = await alice(`/api/calls/${callId}/transcript`);
  expect(transcript.status).toBe(200);
  expect(((await transcript.json()) as { schemaVersion: number }).schemaVersion).toBe(2);
  const analysis = await alice(`/api/calls/${callId}/analysis`);
  expect(((await analysis.json()) as { schemaVersion: number }).schemaVersion).toBe(2);
  expect((await (await alice('/api/actions')).json())).toHaveLength(2);
});
