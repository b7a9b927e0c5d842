import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { seedCall } from '../helpers/seedCalls.js';
import { startTestApp, type TestApp } from '../helpers/startTestApp.js';

const repoRoot = resolve(import.meta.dirname, '../..');

let testApp: TestApp;
beforeAll(async () => { testApp = await startTestApp(); });
afterAll(async () => { await testApp.close(); });

function callscope(args: string[]): Promise<number> {
  const { DATABASE_URL } = testApp.services.config;
  const env = { ...process.env, DATA_DIR: testApp.dataDir, ...(DATABASE_URL ? { DATABASE_URL } : {}) };
  return new Promise((done) => {
    execFile(process.execPath, ['--import', 'tsx', 'src/cli/callscope.ts', ...args], { cwd: repoRoot, env }, (error) => {
      done(error ? (typeof error.code === 'number' ? error.code : -1) : 0);
    });
  });
}

test('callscope reprocess is recorded in the trail as the command line\'s (system) call.reprocess, and the chain stays whole', async () => {
  const callId = await seedCall(testApp.services, 'alice');
  expect((await testApp.as('alice')(`/api/calls/${callId}/transcript`)).status).toBe(200);
  await testApp.services.accessAudit.flush();

  expect(await callscope(['reprocess', callId])).toBe(0);
  expect(await callscope(['reprocess', callId])).toBe(1); // queued already: refused, not recorded

  const records = await testApp.services.accessAudit.repository.inOrderAfter(0, 100);
  expect(records.map((record) => [record.seq, record.action])).toEqual([[1, 'transcript.read'], [2, 'call.reprocess']]);
  expect(records[1]).toMatchObject({ actorKind: 'system', actorId: 'cli', callId, clientIp: null });
  expect(await callscope(['audit', 'verify'])).toBe(0);
});
