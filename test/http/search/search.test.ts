import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { storeCallResults } from '../../../src/domain/calls/storeCallResults.js';
import { ownerTermOf } from '../../../src/domain/search/engineSearchSyntax.js';
import { indexUnindexedCalls } from '../../../src/domain/search/indexUnindexedCalls.js';
import { reindexCall } from '../../../src/domain/search/reindexCall.js';
import { SearchIndex } from '../../../src/domain/search/SearchIndex.js';
import { errorOf } from '../../helpers/callInspection.js';
import { analysisV2Fixture, seedCall, seedUser, transcriptFixture } from '../../helpers/seedCalls.js';
import { startTestApp, type TestApp } from '../../helpers/startTestApp.js';

interface Hit {
  kind: 'title' | 'summary' | 'action' | 'segment';
  segmentId?: string;
  actionItemId?: string;
  startSeconds?: number;
  speakerDisplayName?: string;
  snippet: string;
}
interface Result {
  callId: string;
  title: string;
  status: string;
  createdAt: string;
  hitCount: number;
  hits: Hit[];
}
interface Page {
  items: Result[];
  nextCursor?: string;
}

interface Content {
  title: string;
  segments?: string[];
  summary?: string;
  actions?: { title: string; description?: string }[];
  createdAt?: number;
}

let testApp: TestApp;
beforeAll(async () => { testApp = await startTestApp(); });
afterAll(async () => { await testApp.close(); });

/** A COMPLETED call of `user` whose documents hold exactly `content`, stored as the pipeline stores them. */
async function seedSearchable(user: string, content: Content): Promise<string> {
  const { services } = testApp;
  const callId = await seedCall(services, user, { status: 'ANALYZING', title: content.title, ...(content.createdAt ? { createdAt: content.createdAt } : {}) });
  await storeResults(user, callId, content);
  return callId;
}

/** Stores results for the call as a (re)processing run does. */
async function storeResults(user: string, callId: string, content: Content): Promise<void> {
  const { services } = testApp;
  const owner = await seedUser(services, user);
  const transcript = transcriptFixture(callId, services.clock());
  transcript.segments = (content.segments ?? []).map((text, index) => ({
    ...(transcript.segments as Record<string, unknown>[])[index % 2],
    id: `seg_${String(index + 1).padStart(4, '0')}`, startSeconds: index * 4, endSeconds: index * 4 + 4, text,
  }));
  const analysis = { ...analysisV2Fixture(), oneLineSummary: content.summary ?? null, executiveSummaryBullets: [] };
  await storeCallResults({ ...services, database: services.database.sql }, owner.id, {
    callId, transcript, analysis,
    actionItems: (content.actions ?? []).map((item) => ({
      id: randomUUID(), title: item.title, description: item.description ?? null, dueDate: null, status: 'PENDING' as const,
      sourceText: null, ownerSpeakerId: null, ownerSpeakerLabel: null, ownerDisplayName: null, ownerRole: null, sourceSegmentIds: '[]',
      intent: 'task', intentMetadata: null, createdAt: services.clock(), updatedAt: services.clock(),
    })),
  });
}

async function search(user: string, query: Record<string, string | number>): Promise<Page> {
  const response = await get(user, query);
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as Page;
}

function get(user: string, query: Record<string, string | number>): Promise<Response> {
  const parameters = new URLSearchParams(Object.entries(query).map(([key, value]): [string, string] => [key, String(value)]));
  return testApp.as(user)(`/api/search?${parameters}`);
}

async function indexRows(callId: string): Promise<number> {
  const row = await testApp.services.database.sql.get<{ n: number }>(sql`SELECT count(*) AS n FROM search_calls WHERE call_id = ${callId}`);
  return row?.n ?? 0;
}

/** SQLite: FTS rows left for a user's token (0 on PostgreSQL, which has none). */
async function ftsRowsOf(localUser: string): Promise<number> {
  const { services } = testApp;
  if (services.database.dialect !== 'sqlite') return 0;
  const owner = await seedUser(services, localUser);
  const token = ownerTermOf(owner.id);
  return (await services.database.sql.get<{ n: number }>(sql`SELECT count(*) AS n FROM search_index WHERE search_index MATCH ${`owner : "${token}"`}`))?.n ?? 0;
}

describe('GET /api/search: what is found, and where', () => {
  let callId: string;
  beforeAll(async () => {
    callId = await seedSearchable('hana', {
      title: 'Quarterly pricing review',
      summary: 'Hana agrees to renegotiate the warehouse lease.',
      actions: [{ title: 'Email the invoice', description: 'Attach the signed addendum' }],
      segments: ['Good morning, this is Hana.', 'The <b>forklift</b> & crane cost more this year.', 'Let us talk about the pallets.'],
    });
  });

  test('a word of the title, the summary, an action item or a segment finds the call, with the hit where the word is', async () => {
    const byQuery = async (q: string) => (await search('hana', { q })).items;
    expect((await byQuery('quarterly'))[0]).toMatchObject({ callId, title: 'Quarterly pricing review', status: 'COMPLETED', hitCount: 1, hits: [{ kind: 'title', snippet: '<mark>Quarterly</mark> pricing review' }] });
    expect((await byQuery('warehouse'))[0]!.hits).toEqual([{ kind: 'summary', snippet: 'Hana agrees to renegotiate the <mark>warehouse</mark> lease.' }]);
    const [action] = (await byQuery('addendum'))[0]!.hits;
    expect(action).toEqual({ kind: 'action', actionItemId: expect.any(String), snippet: 'Email the invoice. Attach the signed <mark>addendum</mark>' });
    const items = await testApp.services.actionItems.listForCall(callId);
    expect(action!.actionItemId).toBe(items[0]!.id);
    expect((await byQuery('pallets'))[0]!.hits).toEqual([{ kind: 'segment', segmentId: 'seg_0003', startSeconds: 8, speakerDisplayName: 'Diane', snippet: 'Let us talk about the <mark>pallets</mark>.' }]);
  });

  test('the result carries the call list\'s fields', async () => {
    const [item] = (await search('hana', { q: 'pallets' })).items;
    expect(item).toEqual({
      callId, title: 'Quarterly pricing review', contactName: 'Sheila', direction: 'OUTGOING', status: 'COMPLETED', durationSeconds: 30,
      createdAt: expect.stringMatching(/Z$/), hitCount: 1, hits: expect.any(Array),
    });
  });

  test('snippets are HTML-escaped around the marks; case and diacritics are ignored', async () => {
    const [item] = (await search('hana', { q: 'FÖRKLIFT' })).items;
    expect(item!.hits[0]!.snippet).toBe('The &lt;b&gt;<mark>forklift</mark>&lt;/b&gt; &amp; crane cost more this year.');
  });

  test('words are ANDed over the whole call; a phrase needs its words together within one piece', async () => {
    expect((await search('hana', { q: 'forklift pallets' })).items.map((item) => item.callId)).toEqual([callId]);
    expect((await search('hana', { q: 'forklift giraffe' })).items).toEqual([]);
    expect((await search('hana', { q: '"crane cost"' })).items[0]!.hits[0]!.snippet).toContain('<mark>crane cost</mark>');
    expect((await search('hana', { q: '"cost crane"' })).items).toEqual([]);
    // The end of one segment and the start of the next are not a phrase.
    expect((await search('hana', { q: '"hana the"' })).items).toEqual([]);
  });

  test('a prefix finds words that begin with it, in a phrase too', async () => {
    expect((await search('hana', { q: 'renegot*' })).items.map((item) => item.callId)).toEqual([callId]);
    expect((await search('hana', { q: '"the signed add*"' })).items.map((item) => item.callId)).toEqual([callId]);
    expect((await search('hana', { q: 'renegot' })).items).toEqual([]);
  });

  test('query syntax of the engines is taken as words, never as an error', async () => {
    for (const q of ['" OR *', 'NEAR(forklift', 'title:forklift', '{owner}: *', 'forklift AND NOT', "pallets') & ('x", 'forklift -crane', '^pallets']) {
      const response = await get('hana', { q });
      expect(response.status, q).toBe(200);
    }
    expect((await search('hana', { q: 'NEAR(forklift' })).items).toEqual([]);
    expect((await search('hana', { q: 'forklift -crane' })).items.map((item) => item.callId)).toEqual([callId]);
  });
});

describe('GET /api/search: any query text', () => {
  test('answers 200 with results, or 400 validation_failed, never an error of the engine', async () => {
    await seedSearchable('rae', { title: 'Fuzz target', segments: ['near or and not the title owner "quoted" (brackets) * star'] });
    const syntax = fc.constantFrom('"', '*', '(', ')', ':', '^', '-', '+', '{', '}', "'", '\\', '&', '|', '!', '<->', 'NEAR', 'OR', 'AND', 'NOT', 'owner', ' ', '\u0000', '\uE000', '\uE001');
    const text = fc.array(fc.oneof(syntax, fc.string({ unit: 'binary', maxLength: 6 }), fc.constantFrom('near', 'title', 'star', 'fuzz')), { minLength: 1, maxLength: 12 })
      .map((parts) => parts.join(''));
    await fc.assert(fc.asyncProperty(text, async (q) => {
      const response = await testApp.app.inject({ method: 'GET', url: `/api/search?q=${encodeURIComponent(q)}`, headers: { 'x-local-user-id': 'rae' } });
      if (response.statusCode === 400) expect((response.json() as { error: { code: string } }).error.code, q).toMatch(/^validation_failed$/);
      else expect(response.statusCode, q).toBe(200);
    }), { seed: 0x5ea7c4, numRuns: 300 });
  });
});

describe('GET /api/search: ordering, paging and limits', () => {
  const base = Date.parse('2025-01-01T00:00:00Z');
  let inTitle: string;
  let oldest: string;
  let middle: string;
  let newest: string;
  beforeAll(async () => {
    // Three equal matches (same words, same lengths): only their age tells them apart.
    oldest = await seedSearchable('ivo', { title: 'Call one', segments: ['The marmalade order again.'], createdAt: base });
    middle = await seedSearchable('ivo', { title: 'Call two', segments: ['The marmalade order again.'], createdAt: base + 1000 });
    newest = await seedSearchable('ivo', { title: 'Call six', segments: ['The marmalade order again.'], createdAt: base + 2000 });
    inTitle = await seedSearchable('ivo', { title: 'Marmalade order', segments: ['Nothing of note.'], createdAt: base - 1000 });
  });

  test('a match in the title ranks first; equal matches come newest first', async () => {
    const ids = (await search('ivo', { q: 'marmalade' })).items.map((item) => item.callId);
    expect(ids[0]).toBe(inTitle);
    expect(ids.slice(1)).toEqual([newest, middle, oldest]);
  });

  test('pages follow each other through the signed cursor, each call once', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await search('ivo', { q: 'marmalade', limit: 3, ...(cursor ? { cursor } : {}) });
      seen.push(...page.items.map((item) => item.callId));
      cursor = page.nextCursor;
      pages += 1;
    } while (cursor);
    expect(pages).toBe(2);
    expect(seen).toEqual([inTitle, newest, middle, oldest]);
  });

  test('a cursor is refused with another query, by another user, or altered', async () => {
    const { nextCursor } = await search('ivo', { q: 'marmalade', limit: 1 });
    expect(nextCursor).toEqual(expect.any(String));
    // The same query written differently is the same query.
    expect((await search('ivo', { q: 'MARMALADE', limit: 1, cursor: nextCursor! })).items).toHaveLength(1);
    for (const [user, q, cursor] of [['ivo', 'order', nextCursor!], ['hana', 'marmalade', nextCursor!], ['ivo', 'marmalade', `${nextCursor!}x`], ['ivo', 'marmalade', 'e30.AAAA']]) {
      const response = await get(user!, { q: q!, cursor: cursor! });
      expect(response.status).toBe(400);
      expect((await errorOf(response)).code).toBe('invalid_cursor');
    }
  });

  test.each<[Record<string, string | number>, string]>([
    [{}, 'no q'], [{ q: '' }, 'empty q'], [{ q: '?!…—' }, 'only punctuation'], [{ q: '"" * :' }, 'only syntax'],
    [{ q: 'a*' }, 'one-letter prefix'], [{ q: 'x', limit: 0 }, 'limit 0'], [{ q: 'x', limit: 51 }, 'limit 51'], [{ q: 'x'.repeat(501) }, 'q too long'],
  ])('%j (%s) is 400 validation_failed', async (query) => {
    const response = await get('ivo', query);
    expect(response.status).toBe(400);
    expect((await errorOf(response)).code).toBe('validation_failed');
  });
});

describe('GET /api/search: whose calls, and which', () => {
  test('another user\'s calls are never found, whatever the query', async () => {
    const mine = await seedSearchable('jo', { title: 'Shared word zeppelin', segments: ['zeppelin'] });
    const theirs = await seedSearchable('kai', { title: 'Shared word zeppelin', segments: ['zeppelin zeppelin'] });
    expect((await search('jo', { q: 'zeppelin' })).items.map((item) => item.callId)).toEqual([mine]);
    expect((await search('kai', { q: 'zeppelin' })).items.map((item) => item.callId)).toEqual([theirs]);
    expect((await search('nobody', { q: 'zeppelin' })).items).toEqual([]);
  });

  test('calls not COMPLETED, and calls being deleted, are not shown', async () => {
    const callId = await seedSearchable('lea', { title: 'Hovercraft', segments: ['hovercraft'] });
    await seedCall(testApp.services, 'lea', { status: 'QUEUED', title: 'Hovercraft queued' });
    expect((await search('lea', { q: 'hovercraft' })).items.map((item) => item.callId)).toEqual([callId]);
    await testApp.services.calls.update(callId, { status: 'QUEUED' });
    expect((await search('lea', { q: 'hovercraft' })).items).toEqual([]);
    await testApp.services.calls.update(callId, { status: 'COMPLETED', deletingSince: Date.now() });
    expect((await search('lea', { q: 'hovercraft' })).items).toEqual([]);
  });

  test('deleting a call removes its index rows', async () => {
    const callId = await seedSearchable('mo', { title: 'Trombone lesson', segments: ['trombone'] });
    expect(await indexRows(callId)).toBe(1);
    expect(await ftsRowsOf('mo')).toBe(testApp.services.database.dialect === 'sqlite' ? 1 : 0);
    expect((await testApp.as('mo')(`/api/calls/${callId}`, { method: 'DELETE' })).status).toBe(204);
    expect(await indexRows(callId)).toBe(0);
    expect(await ftsRowsOf('mo')).toBe(0);
    expect((await search('mo', { q: 'trombone' })).items).toEqual([]);
  });

  test('deleting the account removes the index rows of every call', async () => {
    const first = await seedSearchable('nia', { title: 'Tuba one', segments: ['tuba'] });
    const second = await seedSearchable('nia', { title: 'Tuba two', segments: ['tuba'] });
    expect((await testApp.as('nia')('/api/users/me', { method: 'DELETE' })).status).toBe(204);
    expect(await indexRows(first) + await indexRows(second)).toBe(0);
    expect(await ftsRowsOf('nia')).toBe(0);
  });

  test('a reprocessed call keeps one set of rows, holding the new run\'s words', async () => {
    const callId = await seedSearchable('oli', { title: 'Reprocessed', segments: ['the old word is kumquat'] });
    await storeResults('oli', callId, { title: 'Reprocessed', segments: ['the new word is rutabaga'] });
    expect(await indexRows(callId)).toBe(1);
    expect(await ftsRowsOf('oli')).toBe(testApp.services.database.dialect === 'sqlite' ? 1 : 0);
    expect((await search('oli', { q: 'kumquat' })).items).toEqual([]);
    expect((await search('oli', { q: 'rutabaga' })).items.map((item) => item.callId)).toEqual([callId]);
  });

  test('calls completed before the index existed are indexed by indexUnindexedCalls (`callscope search-index`)', async () => {
    const { services } = testApp;
    const callId = await seedSearchable('quinn', { title: 'Upgrade', segments: ['the narwhal surfaced'] });
    await new SearchIndex(services.database.sql).removeCall(callId);
    expect((await search('quinn', { q: 'narwhal' })).items).toEqual([]);
    // A completed call whose documents are gone cannot be indexed: skipped, not fatal.
    const broken = await seedCall(services, 'quinn', { status: 'ANALYZING', title: 'No documents' });
    await services.calls.update(broken, { status: 'COMPLETED' });
    const outcome = await indexUnindexedCalls({ database: services.database.sql, store: services.store });
    expect(outcome.indexed).toBeGreaterThanOrEqual(1);
    expect(outcome.skipped).toBeGreaterThanOrEqual(1);
    expect((await search('quinn', { q: 'narwhal' })).items.map((item) => item.callId)).toEqual([callId]);
    expect(await indexUnindexedCalls({ database: services.database.sql, store: services.store })).toEqual({ indexed: 0, skipped: outcome.skipped });
  });

  test('reindexCall picks up a change to the stored documents (a corrected speaker name)', async () => {
    const { services } = testApp;
    const callId = await seedSearchable('pia', { title: 'Renamed', segments: ['the ocelot escaped'] });
    const artifact = await services.artifacts.find(callId, 'transcript');
    const transcript = await services.store.readJson<{ segments: { speakerDisplayName: string }[] }>(artifact!.objectKey);
    transcript.segments[0]!.speakerDisplayName = 'Dr. Diane Chen';
    await services.store.writeJson(artifact!.objectKey, transcript);
    expect(await reindexCall({ database: services.database.sql, store: services.store }, callId)).toBe('indexed');
    expect((await search('pia', { q: 'ocelot' })).items[0]!.hits[0]!.speakerDisplayName).toBe('Dr. Diane Chen');
    expect(await indexRows(callId)).toBe(1);
  });
});
