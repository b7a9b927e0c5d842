import { describe, expect, test } from 'vitest';
import { exportFileName } from '../../../src/domain/exports/exportFileName.js';

describe('exportFileName', () => {
  test('joins the recording date, a slug of the title and the extension', () => {
    expect(exportFileName('2026-11-20', 'Dentist appointment', 'srt')).toEqual({ ascii: '2026-11-20-dentist-appointment.srt', unicode: null });
  });

  test('takes out quotes, slashes, line breaks and other punctuation', () => {
    expect(exportFileName('2026-11-20', ' "Q3" review / plan\r\nB:\\x ', 'txt').ascii).toBe('2026-11-20-q3-review-plan-b-x.txt');
  });

  test('keeps a non-ASCII title\'s letters in the Unicode name and spells them in ASCII in the other', () => {
    expect(exportFileName('2026-11-20', 'Zahnarzt Müller – Straße', 'docx')).toEqual({
      ascii: '2026-11-20-zahnarzt-muller-strasse.docx', unicode: '2026-11-20-zahnarzt-müller-straße.docx',
    });
  });

  test('falls back to `call` when nothing of the title is left in ASCII', () => {
    expect(exportFileName('2026-11-20', '牙医预约', 'vtt')).toEqual({ ascii: '2026-11-20-call.vtt', unicode: '2026-11-20-牙医预约.vtt' });
    expect(exportFileName('2026-11-20', '***', 'json')).toEqual({ ascii: '2026-11-20-call.json', unicode: null });
  });

  test('cuts a long title at 60 characters without a trailing dash', () => {
    const { ascii } = exportFileName('2026-11-20', `${'word '.repeat(30)}`, 'txt');
    const slug = ascii.slice('2026-11-20-'.length, -'.txt'.length);
    expect(slug.length).toBeLessThanOrEqual(60);
    expect(slug).toMatch(/^word(-word)+$/);
  });
});
