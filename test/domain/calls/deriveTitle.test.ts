import { describe, expect, test } from 'vitest';
import { deriveTitle } from '../../../src/domain/calls/acceptUpload.js';

const now = Date.parse('2025-06-07T23:30:00Z');

describe('deriveTitle', () => {
  test('uses the title the client gave', () => {
    expect(deriveTitle({ title: 'Quarterly review', contactName: 'Ann' }, 'call.wav', now)).toBe('Quarterly review');
  });

  test('names the contact when there is no title', () => {
    expect(deriveTitle({ contactName: 'Ann Lee' }, 'call.wav', now)).toBe('Call with Ann Lee');
  });

  test.each([
    ['weekly-standup.wav', 'weekly-standup'],
    ['budget.v2.mp3', 'budget.v2'],
    ['no-extension', 'no-extension'],
    ['  padded name .m4a', 'padded name'],
  ])('falls back to the file name %j without its extension', (fileName, title) => {
    expect(deriveTitle({}, fileName, now)).toBe(title);
  });

  test('shortens a very long file name to 200 characters', () => {
    expect(deriveTitle({}, `${'x'.repeat(300)}.wav`, now)).toBe('x'.repeat(200));
  });

  test('dates the call by its recording time when there is nothing else', () => {
    expect(deriveTitle({ recordedAt: '2024-12-31T10:00:00Z' }, undefined, now)).toBe('Call on 2024-12-31');
  });

  test('dates the call by today (UTC) without a recording time', () => {
    expect(deriveTitle({}, undefined, now)).toBe('Call on 2025-06-07');
  });

  test('ignores a file name that is only an extension', () => {
    expect(deriveTitle({}, '.wav', now)).toBe('Call on 2025-06-07');
  });
});
