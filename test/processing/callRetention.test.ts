import { sql } from 'drizzle-orm';
import { existsSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { completeSetup, type AdminBrowser } from '../admin/adminClient.js';
import { callFolders, rowsOfCall, storedAudioPath } from '../helpers/callInspection.js';
import { testPipeline, useEngineTestApp } from '../helpers/processingHarness.js';
import { seedCall, seedUser } from '../helpers/seedCalls.js';

const dayMs = 24 * 60 * 60_000;
const setup = useEngineTestApp({ CALL_RETENTION_DAYS: '90', AUDIO_RETENTION_DAYS: '30' });

interface RetentionPlan {
  retentionDays: number;
  cutoff: string | null;
  due: number;
  heldSkipped: number;
  calls: { callId: string; userId: string; since: string }[];
}

async function previewOf(admin: AdminBrowser): Promise<{ calls: RetentionPlan; audio: RetentionPlan }> {
  const response = await admin.fetch('/admin/api/retention/preview');
  expect(response.status).toBe(200);
  return (await response.json()) as { calls: RetentionPlan; audio: RetentionPlan };
}

async function placeHold(admin: AdminBrowser, body: Record<string, unknown>): Promise<string> {
  const response = await admin.fetch('/admin/api/legal-holds', { method: 'POST', body: { reason: 'Matter 1', ...body } });
  expect(response.status).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

const callExists = async (callId: string) => (await rowsOfCall(setup.testApp.services, 'calls', callId)) === 1;

describe('call retention', () => {
  test('deletes finished calls older than CALL_RETENTION_DAYS (files and rows), keeps held, recent and unfinished ones; the preview named exactly those', async () => {
    const { services, dataDir } = setup.testApp;
    const admin = await completeSetup(setup.testApp);
    const now = Date.now();
    const oldest = await seedCall(services, 'alice', { createdAt: now - 200 * dayMs });
    const oldFailed = await seedCall(services, 'alice', { status: 'FAILED', createdAt: now - 120 * dayMs });
    const oldQueued = await seedCall(services, 'alice', { status: 'QUEUED', createdAt: now - 150 * dayMs });
    const recent = await seedCall(services, 'alice', { createdAt: now - 89 * dayMs });
    const heldCall = await seedCall(services, 'alice', { createdAt: now - 300 * dayMs });
    const ofHeldUser = await seedCall(services, 'bob', { createdAt: now - 300 * dayMs });
    await placeHold(admin, { scope: 'call', callId: heldCall });
    await placeHold(admin, { scope: 'user', userId: (await seedUser(services, 'bob')).id });
    const alice = await seedUser(services, 'alice');

    const preview = await previewOf(admin);

    expect(preview.calls).toMatchObject({ retentionDays: 90, due: 2, heldSkipped: 2 });
    expect(preview.calls.calls).toEqual([
      { callId: oldest, userId: alice.id, since: new Date(now - 200 * dayMs).toISOString() },
      { callId: oldFailed, userId: alice.id, since: new Date(now - 120 * dayMs).toISOString() },
    ]);
    expect(Date.parse(preview.calls.cutoff!)).toBeGreaterThan(now - 90 * dayMs - 60_000);

    const deleted = await setup.idleEngine().expireCalls();

    expect(deleted).toEqual(preview.calls.calls.map((call) => call.callId));
    for (const callId of [oldest, oldFailed]) {
      expect(callFolders(dataDir)).not.toContain(callId);
      expect(await callExists(callId)).toBe(false);
      expect(await rowsOfCall(services, 'action_items', callId)).toBe(0);
    }
    for (const callId of [oldQueued, recent, heldCall, ofHeldUser]) {
      expect(await callExists(callId)).toBe(true);
      expect(existsSync(storedAudioPath(dataDir, callId, 'wav'))).toBe(true);
    }
    expect((await previewOf(admin)).calls).toMatchObject({ due: 0, heldSkipped: 2, calls: [] });

    await services.accessAudit.flush();
    const trail = await services.database.sql.all<Record<string, unknown>>(sql`SELECT actor_kind AS "actorKind", actor_id AS "actorId", action, call_id AS "callId", detail
      FROM access_audit WHERE actor_id = 'call-retention' ORDER BY seq`);
    expect(trail).toEqual([oldest, oldFailed].map((callId) => ({
      actorKind: 'system', actorId: 'call-retention', action: 'call.delete', callId, detail: JSON.stringify({ reason: 'retention', retentionDays: 90 }),
    })));
    const logged = setup.testApp.logLines.filter((line) => line.msg === 'call past retention deleted');
    expect(logged.map((line) => line.callId)).toEqual([oldest, oldFailed]);
  });

  test('a lifted hold lets the next run delete the call', async () => {
    const { services } = setup.testApp;
    const admin = await completeSetup(setup.testApp);
    const old = await seedCall(services, 'alice', { createdAt: Date.now() - 100 * dayMs });
    const holdId = await placeHold(admin, { scope: 'call', callId: old });
    const engine = setup.idleEngine();
    expect(await engine.expireCalls()).toEqual([]);

    expect((await admin.fetch(`/admin/api/legal-holds/${holdId}/lift`, { method: 'POST', body: { reason: 'Closed' } })).status).toBe(200);

    expect(await engine.expireCalls()).toEqual([old]);
    expect(await callExists(old)).toBe(false);
  });

  test('with CALL_RETENTION_DAYS=0 (the default) no call is deleted however old, and the preview says it is off', async () => {
    await setup.restartApp({ CALL_RETENTION_DAYS: '0' });
    const { services } = setup.testApp;
    const admin = await completeSetup(setup.testApp);
    const ancient = await seedCall(services, 'alice', { createdAt: Date.now() - 3650 * dayMs });

    expect(await setup.idleEngine().expireCalls()).toEqual([]);

    expect(await callExists(ancient)).toBe(true);
    expect((await previewOf(admin)).calls).toEqual({ retentionDays: 0, cutoff: null, due: 0, heldSkipped: 0, calls: [] });
  });

  test('runs when an engine starts', async () => {
    const old = await seedCall(setup.testApp.services, 'alice', { createdAt: Date.now() - 100 * dayMs });

    await setup.startEngine(testPipeline());

    await expect.poll(() => callExists(old), { timeout: 10_000 }).toBe(false);
  });
});

describe('audio retention and legal holds', () => {
  test('keeps the audio of held calls; the preview counts them as skipped and lists exactly what the run removes', async () => {
    const { services, dataDir } = setup.testApp;
    const admin = await completeSetup(setup.testApp);
    const now = Date.now();
    const free = await seedCall(services, 'alice', { createdAt: now - 40 * dayMs });
    const held = await seedCall(services, 'alice', { createdAt: now - 50 * dayMs });
    await placeHold(admin, { scope: 'call', callId: held });

    const preview = await previewOf(admin);
    expect(preview.audio).toMatchObject({ retentionDays: 30, due: 1, heldSkipped: 1 });
    expect(preview.audio.calls.map((call) => call.callId)).toEqual([free]);

    expect(await setup.idleEngine().expireAudio()).toBe(1);

    expect(existsSync(storedAudioPath(dataDir, free, 'wav'))).toBe(false);
    expect(existsSync(storedAudioPath(dataDir, held, 'wav'))).toBe(true);
    await services.accessAudit.flush();
    const trail = await services.database.sql.all<{ callId: string; action: string }>(sql`SELECT call_id AS "callId", action FROM access_audit WHERE actor_id = 'audio-retention'`);
    expect(trail).toEqual([{ callId: free, action: 'audio.delete' }]);
  });
});
