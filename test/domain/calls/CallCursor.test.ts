import { randomBytes } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { CallCursor } from '../../../src/domain/calls/CallCursor.js';

const cursors = new CallCursor(randomBytes(32));
const position = { beforeSeq: 1234, statusFilter: 'QUEUED,FAILED' };

describe('CallCursor', () => {
  test('gives back the position it encoded, for the same user', () => {
    expect(cursors.decode('user-a', cursors.encode('user-a', position))).toEqual(position);
  });

  test('is URL-safe', () => {
    expect(cursors.encode('user-a', position)).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
  });

  test('refuses a cursor made for another user', () => {
    expect(cursors.decode('user-b', cursors.encode('user-a', position))).toBeUndefined();
  });

  test('refuses a cursor signed with another key (e.g. another server)', () => {
    const otherServer = new CallCursor(randomBytes(32));
    expect(cursors.decode('user-a', otherServer.encode('user-a', position))).toBeUndefined();
  });

  test('refuses a cursor whose payload was replaced', () => {
    const [, mac] = cursors.encode('user-a', position).split('.');
    const [otherPayload] = cursors.encode('user-a', { beforeSeq: 99_999, statusFilter: '' }).split('.');
    expect(cursors.decode('user-a', `${otherPayload}.${mac}`)).toBeUndefined();
  });

  test('refuses a cursor with a shortened signature', () => {
    const cursor = cursors.encode('user-a', position);
    expect(cursors.decode('user-a', cursor.slice(0, -1))).toBeUndefined();
  });

  test.each(['', '.', 'abc', 'abc.', '.abc', 'a.b.c', 'not base64!.sig'])('refuses the malformed cursor %j', (cursor) => {
    expect(cursors.decode('user-a', cursor)).toBeUndefined();
  });

  test('keeps an empty status filter apart from a set one', () => {
    const unfiltered = cursors.decode('user-a', cursors.encode('user-a', { beforeSeq: 5, statusFilter: '' }));
    expect(unfiltered).toEqual({ beforeSeq: 5, statusFilter: '' });
  });
});
