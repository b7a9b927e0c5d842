import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { seedCall, seedUser } from '../helpers/seedCalls.js';
import { startTestApp, type TestApp } from '../helpers/startTestApp.js';
import { completeSetup, type AdminBrowser } from './adminClient.js';

interface RecordView { seq: number; at: string; actorKind: string; actorId: string; action: string; callId: string | null; target: string | null; detail: Record<string, unknown> | null; hash: string }
interface ListBody { records: RecordView[]; nextBefore: number | null }

let testApp: TestApp;
let browser: AdminBrowser;
let callA: string;
let callB: string;
let aliceId: string;

beforeAll(async () => {
  testApp = await startTestApp();
  browser = await completeSetup(testApp);
  callA = await seedCall(testApp.services, 'alice');
  callB = await seedCall(testApp.services, 'alice');
  aliceId = (await seedUser(testApp.services, 'alice')).id;
  for (const path of [`/api/calls/${callA}/transcript`, `/api/calls/${callA}/analysis`, `/api/calls/${callB}/transcript`, `/api/calls/${callA}/export?format=txt`]) {
    expect((await testApp.as('alice')(path)).status).toBe(200);
  }
  await browser.fetch('/admin/api/settings', { method: 'PATCH', body: { values: { STALE_JOB_MINUTES: 30 } } });
  await testApp.services.accessAudit.flush();
});
afterAll(async () => { await testApp.close(); });

async function list(query: string): Promise<ListBody> {
  const response = await browser.fetch(`/admin/api/access-audit${query}`);
  expect(response.status).toBe(200);
  return (await response.json()) as ListBody;
}

describe('GET /admin/api/access-audit', () => {
  test('lists the trail newest first, admin actions included', async () => {
    const { records, nextBefore } = await list('');
    expect(records.map((record) => record.action)).toEqual(['admin.settings_change', 'call.export', 'transcript.read', 'analysis.read', 'transcript.read', 'admin.setup']);
    expect(nextBefore).toBeNull();
    expect(records[0]).toMatchObject({ actorKind: 'admin', actorId: 'admin', target: 'settings', detail: { changes: '{"STALE_JOB_MINUTES":30}' } });
    expect(records[1]).toMatchObject({ actorKind: 'user', actorId: aliceId, callId: callA, detail: { format: 'txt' } });
    expect(records.at(-1)).toMatchObject({ seq: 1, actorKind: 'admin', actorId: 'setup', action: 'admin.setup' });
    expect(records[0]!.at).toMatch(/Z$/);
  });

  test('filters by call, actor, action and time', async () => {
    expect((await list(`?callId=${callB}`)).records.map((record) => record.callId)).toEqual([callB]);
    expect((await list(`?callId=${callA}&action=transcript.read`)).records).toHaveLength(1);
    expect((await list(`?actorId=${aliceId}`)).records).toHaveLength(4);
    expect((await list('?actorId=admin')).records.map((record) => record.action)).toEqual(['admin.settings_change']);
    expect((await list(`?from=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`)).records).toEqual([]);
    expect((await list(`?to=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`)).records).toHaveLength(6);
  });

  test('pages with limit and before', async () => {
    const first = await list('?limit=4');
    expect(first.records.map((record) => record.seq)).toEqual([6, 5, 4, 3]);
    expect(first.nextBefore).toBe(3);
    const second = await list(`?limit=4&before=${first.nextBefore}`);
    expect(second.records.map((record) => record.seq)).toEqual([2, 1]);
    expect(second.nextBefore).toBeNull();
  });

  test('bad filters are a 400, and a missing session a 401', async () => {
    for (const query of ['?limit=0', '?limit=501', '?from=yesterday', '?before=0', '?colour=red']) {
      expect((await browser.fetch(`/admin/api/access-audit${query}`)).status, query).toBe(400);
    }
    expect((await fetch(`${testApp.baseUrl}/admin/api/access-audit`)).status).toBe(401);
    expect((await fetch(`${testApp.baseUrl}/admin/api/access-audit.csv`)).status).toBe(401);
  });
});

describe('GET /admin/api/access-audit.csv', () => {
  test('the filtered trail as CSV with a header row, as a download, and the download itself is recorded', async () => {
    const response = await browser.fetch(`/admin/api/access-audit.csv?callId=${callA}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="access-audit.csv"');
    const lines = (await response.text()).split('\r\n');
    expect(lines[0]).toBe('seq,at,actor_kind,actor_id,action,call_id,target,client_ip,detail,previous_hash,hash');
    expect(lines.at(-1)).toBe('');
    const rows = lines.slice(1, -1);
    expect(rows.map((row) => row.split(',')[4])).toEqual(['call.export', 'analysis.read', 'transcript.read']);
    // The detail's JSON holds quotes: the cell is quoted, its quotes doubled.
    expect(rows[0]).toContain(`,${callA},,127.0.0.1,"{""format"":""txt""}",`);
    await testApp.services.accessAudit.flush();
    expect((await list('?action=admin.audit_export')).records).toMatchObject([{ actorKind: 'admin', target: 'access_audit', detail: { filters: `{"callId":"${callA}"}` } }]);
  });

  test('streams a trail bigger than one page whole', async () => {
    for (let index = 0; index < 2_500; index += 1) testApp.services.accessAudit.record({ actorKind: 'system', actorId: 'bulk', action: 'bulk.test' });
    await testApp.services.accessAudit.flush();
    const text = await (await browser.fetch('/admin/api/access-audit.csv?actorId=bulk')).text();
    const seqs = text.split('\r\n').slice(1, -1).map((row) => Number(row.split(',')[0]));
    expect(seqs).toHaveLength(2_500);
    expect(seqs.every((seq, index) => index === 0 || seq === seqs[index - 1]! - 1)).toBe(true);
  });
});

test('the Audit trail page is served and linked in the top bar', async () => {
  const response = await browser.fetch('/admin/audit');
  expect(response.status).toBe(200);
  const page = await response.text();
  expect(page).toContain('<script type="module" src="/admin/audit.js"');
  expect(page).toContain('href="/admin/audit"');
  expect(page).toContain('Download CSV');
  expect((await browser.fetch('/admin/audit.js')).status).toBe(200);
});
