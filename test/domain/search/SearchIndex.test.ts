import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CallRepository } from '../../../src/domain/calls/CallRepository.js';
import { isSearchQuery, parseSearchQuery, type SearchQuery } from '../../../src/domain/search/parseSearchQuery.js';
import { searchDocumentsOf } from '../../../src/domain/search/searchDocumentsOf.js';
import { SearchIndex } from '../../../src/domain/search/SearchIndex.js';
import { UserRepository } from '../../../src/domain/users/UserRepository.js';
import type { DatabaseHandle } from '../../../src/infrastructure/database/SqlDatabase.js';
import { openTestDatabase } from '../../helpers/testDatabase.js';

let dataDir: string;
let database: DatabaseHandle;
let userId: string;
/** Oldest first: two with the word in the title (strong matches), then three with it once in the transcript. */
const ids: string[] = [];

function query(text: string): SearchQuery {
  const parsed = parseSearchQuery(text);
  if (!isSearchQuery(parsed)) throw new Error(parsed.problem);
  return parsed;
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'callscope-search-index-'));
  database = await openTestDatabase(dataDir);
  userId = (await new UserRepository(database.sql).findOrCreate({ externalUserId: 'local:searcher' }, Date.now())).id;
  const calls = new CallRepository(database.sql);
  const index = new SearchIndex(database.sql);
  const contents = [
    { title: 'Apple harvest', text: 'We picked the apple trees clean.' },
    { title: 'Apple pricing', text: 'The apple price went up again.' },
    { title: 'Call three', text: 'An apple a day, they say.' },
    { title: 'Call four', text: 'An apple a day, they say.' },
    { title: 'Call five', text: 'An apple a day, they say.' },
  ];
  for (const [position, content] of contents.entries()) {
    const call = await calls.insert({
      id: randomUUID(), userId, title: content.title, direction: 'INCOMING', status: 'COMPLETED', audioFormat: 'wav', audioSizeBytes: 1,
      createdAt: position, updatedAt: position,
    });
    ids.push(call.id);
    await index.replaceCall(searchDocumentsOf(call, { segments: [{ id: 'seg_0001', text: content.text }] }, { schemaVersion: 2 }, []));
  }
});

afterAll(async () => {
  await database.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const titles = async (index: SearchIndex, page: { offset: number; limit: number }) =>
  (await index.search(userId, query('apple'), page)).map((result) => result.call.title);

describe('SearchIndex.search', () => {
  test('ranks every match when there are no more than the cap: title matches first, equal ones newest first', async () => {
    expect(await titles(new SearchIndex(database.sql), { offset: 0, limit: 10 })).toEqual(['Apple pricing', 'Apple harvest', 'Call five', 'Call four', 'Call three']);
  });

  test('past the cap, the newest matches are ranked and older ones follow newest first, page by page', async () => {
    const index = new SearchIndex(database.sql, { rankedMatchesCap: 3 });
    expect(await titles(index, { offset: 0, limit: 10 })).toEqual(['Call five', 'Call four', 'Call three', 'Apple pricing', 'Apple harvest']);
    const narrowIndex = new SearchIndex(database.sql, { rankedMatchesCap: 2 });
    // The two newest are ranked (equal: newest first); the rest newest first, across page boundaries.
    expect(await titles(narrowIndex, { offset: 0, limit: 2 })).toEqual(['Call five', 'Call four']);
    expect(await titles(narrowIndex, { offset: 1, limit: 2 })).toEqual(['Call four', 'Call three']);
    expect(await titles(narrowIndex, { offset: 2, limit: 2 })).toEqual(['Call three', 'Apple pricing']);
    expect(await titles(narrowIndex, { offset: 4, limit: 2 })).toEqual(['Apple harvest']);
    expect(await titles(narrowIndex, { offset: 5, limit: 2 })).toEqual([]);
  });

  test('another user finds nothing of these calls', async () => {
    const other = (await new UserRepository(database.sql).findOrCreate({ externalUserId: 'local:someone-else' }, Date.now())).id;
    expect(await new SearchIndex(database.sql).search(other, query('apple'), { offset: 0, limit: 10 })).toEqual([]);
  });

  test('removeCall takes a call out of the results', async () => {
    const index = new SearchIndex(database.sql);
    await index.removeCall(ids[0]!);
    expect(await titles(index, { offset: 0, limit: 10 })).not.toContain('Apple harvest');
  });
});
