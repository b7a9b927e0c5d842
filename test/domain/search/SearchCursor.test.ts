import { randomBytes } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { SearchCursor } from '../../../src/domain/search/SearchCursor.js';

const cursors = new SearchCursor(randomBytes(32));
const queryKey = '"contract" "pric"*';

describe('SearchCursor', () => {
  test('gives back the offset for the same user and query; URL-safe, without the query\'s words', () => {
    const cursor = cursors.encode('user-a', queryKey, 40);
    expect(cursors.decode('user-a', queryKey, cursor)).toBe(40);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(Buffer.from(cursor.split('.')[0]!, 'base64url').toString()).not.toContain('contract');
  });

  test('refuses another user, another query, another key, or an altered payload', () => {
    const cursor = cursors.encode('user-a', queryKey, 40);
    expect(cursors.decode('user-b', queryKey, cursor)).toBeUndefined();
    expect(cursors.decode('user-a', '"contract"', cursor)).toBeUndefined();
    expect(new SearchCursor(randomBytes(32)).decode('user-a', queryKey, cursor)).toBeUndefined();
    const [, mac] = cursor.split('.');
    const [otherPayload] = cursors.encode('user-a', queryKey, 4000).split('.');
    expect(cursors.decode('user-a', queryKey, `${otherPayload}.${mac}`)).toBeUndefined();
  });

  test.each(['', '.', 'abc', 'abc.', '.abc', 'a.b.c', 'not base64!.sig'])('refuses the malformed cursor %j', (cursor) => {
    expect(cursors.decode('user-a', queryKey, cursor)).toBeUndefined();
  });
});
