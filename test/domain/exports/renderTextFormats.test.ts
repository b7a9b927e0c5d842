import { describe, expect, test } from 'vitest';
import { renderSrt } from '../../../src/domain/exports/renderSrt.js';
import { renderTxt } from '../../../src/domain/exports/renderTxt.js';
import { renderVtt } from '../../../src/domain/exports/renderVtt.js';
import { callExportFixture } from './exportFixture.js';

describe('renderTxt', () => {
  test('writes the header, a blank line and one timestamped line per segment', () => {
    expect(renderTxt(callExportFixture())).toBe([
      'Dentist appointment',
      'Date: 2026-11-20 14:05 (Europe/Berlin)',
      'Direction: outgoing',
      'Duration: 01:02:05',
      'Participants: Diane, Dr. Weiss',
      '',
      '[00:00:01] Diane: Hi, I need to move my checkup.',
      '[00:01:02] Dr. Weiss: Friday works.',
      '[01:02:03] Diane: Thanks, bye.',
      '',
    ].join('\n'));
  });

  test('leaves out an unknown duration and says when nobody is named', () => {
    const text = renderTxt(callExportFixture({ durationSeconds: null, participants: [], segments: [] }));
    expect(text).toBe('Dentist appointment\nDate: 2026-11-20 14:05 (Europe/Berlin)\nDirection: outgoing\nParticipants: unknown\n\n');
  });
});

describe('renderSrt', () => {
  test('numbers the cues, times them with comma milliseconds and prefixes the speaker', () => {
    expect(renderSrt(callExportFixture().segments)).toBe([
      '1',
      '00:00:01,000 --> 00:00:04,500',
      'Diane: Hi, I need to move my checkup.',
      '',
      '2',
      '00:01:02,250 --> 00:01:05,000',
      'Dr. Weiss: Friday works.',
      '',
      '3',
      '01:02:04,000 --> 01:02:05,000',
      'Diane: Thanks, bye.',
      '',
    ].join('\n'));
  });

  test('keeps an arrow said in the text from reading as a timing line', () => {
    const srt = renderSrt([{ id: 'seg_0001', startSeconds: 0, endSeconds: 1, speaker: 'A-->B', text: 'go --> there' }]);
    expect(srt).toBe('1\n00:00:00,000 --> 00:00:01,000\nA→B: go → there\n');
    expect(srt.match(/-->/g)).toHaveLength(1);
  });

  test('answers nothing for a transcript without segments', () => {
    expect(renderSrt([])).toBe('');
  });
});

describe('renderVtt', () => {
  test('starts with WEBVTT and writes cues with dot milliseconds and voice spans', () => {
    expect(renderVtt(callExportFixture().segments)).toBe([
      'WEBVTT',
      '',
      'seg_0001',
      '00:00:01.000 --> 00:00:04.500',
      '<v Diane>Hi, I need to move my checkup.',
      '',
      'seg_0002',
      '00:01:02.250 --> 00:01:05.000',
      '<v Dr. Weiss>Friday works.',
      '',
      'seg_0003',
      '01:02:04.000 --> 01:02:05.000',
      '<v Diane>Thanks, bye.',
      '',
    ].join('\n'));
  });

  test('escapes markup and arrows in names and text', () => {
    const vtt = renderVtt([{ id: 'seg_0001', startSeconds: 0, endSeconds: 1, speaker: 'Tom & <Jerry>', text: 'a --> b <i>c</i>' }]);
    expect(vtt).toBe('WEBVTT\n\nseg_0001\n00:00:00.000 --> 00:00:01.000\n<v Tom &amp; &lt;Jerry&gt;>a --&gt; b &lt;i&gt;c&lt;/i&gt;\n');
    expect(vtt.match(/-->/g)).toHaveLength(1);
  });

  test('is only the header for a transcript without segments', () => {
    expect(renderVtt([])).toBe('WEBVTT\n');
  });
});
