import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { AccessAuditRecord } from '../../../src/domain/audit/auditChain.js';
import { AuditChainVerifier } from '../../../src/domain/audit/auditChain.js';
import type { Transcript } from '../../../src/domain/transcripts/transcriptSchema.js';
import { seedCall, seedUser, transcriptFixture } from '../../helpers/seedCalls.js';
import { startTestApp, type TestApp } from '../../helpers/startTestApp.js';

let testApp: TestApp;
beforeAll(async () => { testApp = await startTestApp(); });
afterAll(async () => { await testApp.close(); });

const alice = () => testApp.as('alice');

/** Every record written so far, in chain order (the buffer flushed first). */
async function records(): Promise<AccessAuditRecord[]> {
  await testApp.services.accessAudit.flush();
  return testApp.services.accessAudit.repository.inOrderAfter(0, 10_000);
}

/** The records the request adds. */
async function recordedBy(request: () => Promise<Response>, status: number): Promise<AccessAuditRecord[]> {
  const before = (await records()).length;
  const response = await request();
  expect(response.status).toBe(status);
  return (await records()).slice(before);
}

describe('the access audit trail records the API\'s accesses', () => {
  test('reading a transcript and an analysis: who, what, which call, from where', async () => {
    const callId = await seedCall(testApp.services, 'alice');
    const aliceId = (await seedUser(testApp.services, 'alice')).id;
    expect(await recordedBy(() => alice()(`/api/calls/${callId}/transcript`), 200)).toEqual([expect.objectContaining({
      actorKind: 'user', actorId: aliceId, action: 'transcript.read', callId, clientIp: '127.0.0.1', detail: null,
    })]);
    expect(await recordedBy(() => alice()(`/api/calls/${callId}/analysis`), 200)).toMatchObject([{ actorId: aliceId, action: 'analysis.read', callId }]);
  });

  test('a refused read (another user\'s call, a call still processing) is not recorded as a read', async () => {
    const callId = await seedCall(testApp.services, 'alice');
    const queued = await seedCall(testApp.services, 'alice', { status: 'QUEUED' });
    expect(await recordedBy(() => testApp.as('mallory')(`/api/calls/${callId}/transcript`), 404)).toEqual([]);
    expect(await recordedBy(() => alice()(`/api/calls/${queued}/transcript`), 422)).toEqual([]);
  });

  test('status polling and the call list are not call reads', async () => {
    const callId = await seedCall(testApp.services, 'alice');
    expect(await recordedBy(() => alice()(`/api/calls/status?ids=${callId}`), 200)).toEqual([]);
    expect(await recordedBy(() => alice()('/api/calls'), 200)).toEqual([]);
  });

  test('an export names its format', async () => {
    const callId = await seedCall(testApp.services, 'alice');
    expect(await recordedBy(() => alice()(`/api/calls/${callId}/export?format=docx`), 200)).toMatchObject([{ action: 'call.export', callId, detail: '{"format":"docx"}' }]);
  });

  test('speaker corrections say which speaker and which fields, never the name given', async () => {
    const callId = await seedCall(testApp.services, 'alice');
    const correction = () => alice()(`/api/calls/${callId}/speakers/spk_1`, {
      method: 'PATCH', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ displayName: 'Sheila Hargreaves', role: 'CONTACT' }),
    });
    const [corrected] = await recordedBy(correction, 200);
    expect(corrected).toMatchObject({ action: 'speaker.correct', callId });
    expect(JSON.parse(corrected!.detail!)).toEqual({ speakerId: 'spk_1', displayName: true, role: 'CONTACT' });
    const merge = () => alice()(`/api/calls/${callId}/speakers/merge`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ from: 'spk_1', into: 'spk_0' }),
    });
    expect(await recordedBy(merge, 200)).toMatchObject([{ action: 'speaker.merge', callId, detail: '{"intoSpeakerId":"spk_0","speakerId":"spk_1"}' }]);
  });

  test('an action item change names the item, its call and the new status', async () => {
    const callId = await seedCall(testApp.services, 'alice');
    const [item] = await testApp.services.actionItems.listForCall(callId);
    const change = () => alice()(`/api/actions/${item!.id}`, { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ status: 'COMPLETED' }) });
    expect(await recordedBy(change, 200)).toMatchObject([{ action: 'action_item.update', callId, target: item!.id, detail: '{"status":"COMPLETED"}' }]);
  });

  test('deletions: one record per call deleted, single and bulk', async () => {
    const one = await seedCall(testApp.services, 'alice');
    expect(await recordedBy(() => alice()(`/api/calls/${one}`, { method: 'DELETE' }), 204)).toMatchObject([{ action: 'call.delete', callId: one }]);
    const [two, three] = [await seedCall(testApp.services, 'alice'), await seedCall(testApp.services, 'alice')];
    const bulk = () => alice()('/api/calls', { method: 'DELETE', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ callIds: [two, three, one] }) });
    const deleted = await recordedBy(bulk, 200);
    expect(deleted.map((record) => [record.action, record.callId])).toEqual([['call.delete', two], ['call.delete', three]]);
  });

  test('deleting the account: each call, then the user', async () => {
    const bob = (await seedUser(testApp.services, 'bob')).id;
    const calls = [await seedCall(testApp.services, 'bob'), await seedCall(testApp.services, 'bob')];
    const deleted = await recordedBy(() => testApp.as('bob')('/api/users/me', { method: 'DELETE' }), 204);
    expect(deleted.every((record) => record.actorId === bob)).toBe(true);
    expect(deleted.slice(0, 2).map((record) => [record.action, record.callId]).sort()).toEqual(calls.map((callId) => ['call.delete', callId]).sort());
    expect(deleted[2]).toMatchObject({ action: 'user.delete', target: bob, callId: null });
    expect(deleted).toHaveLength(3);
  });

  test('the chain stays intact, and no transcript text, name or phone number is in the table', async () => {
    const all = await records();
    expect(all.length).toBeGreaterThan(10);
    expect(new AuditChainVerifier().check(all)).toBeUndefined();
    const table = JSON.stringify(await testApp.services.database.sql.all(sql`SELECT * FROM access_audit`));
    const fixture = transcriptFixture('00000000-0000-4000-8000-000000000000', 0) as Transcript;
    for (const segment of fixture.segments) expect(table).not.toContain(segment.text);
    for (const speaker of fixture.speakers) if (speaker.displayName) expect(table).not.toContain(speaker.displayName);
    expect(table).not.toContain('Sheila');
    expect(table).not.toContain('5551234567');
  });
});
