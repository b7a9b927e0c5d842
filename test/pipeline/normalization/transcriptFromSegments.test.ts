import { Settings } from 'typebox/system';
import { Value } from 'typebox/value';
import { describe, expect, test } from 'vitest';
import { TranscriptSchema } from '../../../src/domain/transcripts/transcriptSchema.js';
import {
  DiarizedTranscriptInputSchema, diarizedTranscriptInputProblems, maxListedProblems, type DiarizedSegment, type DiarizedTranscriptInput,
} from '../../../src/pipeline/normalization/diarizedTranscriptInput.js';
import { transcriptFromSegments } from '../../../src/pipeline/normalization/transcriptFromSegments.js';

const call = { callId: '0b1c2d3e-4f50-4a61-8b72-9c8d7e6f5a4b', createdAt: Date.UTC(2026, 10, 22, 10, 0, 0) };
const segment = (sourceSpeakerId: string, startSeconds: number, endSeconds: number, text: string): DiarizedSegment =>
  ({ sourceSpeakerId, startSeconds, endSeconds, text });

// Given out of order: B's greeting is listed first, but A speaks first.
const input: DiarizedTranscriptInput = {
  language: 'en',
  segments: [
    segment('B', 3.4, 5.9, 'Hello Diane,   Sheila\nhere. '),
    segment('A', 0.5, 3.1, 'Hi, this is Diane.'),
    segment('A', 6.2, 8.0004, 'Great to hear from you.'),
  ],
};

describe('transcriptFromSegments', () => {
  test('produces a valid schema-version-2 transcript, provenance saying it was supplied as input', () => {
    const transcript = transcriptFromSegments(input, call);
    expect(Value.Check(TranscriptSchema, transcript)).toBe(true);
    expect(transcript).toMatchObject({ schemaVersion: 2, callId: call.callId, language: 'en', createdAt: '2026-11-22T10:00:00.000Z' });
    expect(transcript.pipeline).toEqual({
      transcriptionProvider: 'input', transcriptionModel: 'none', diarizationProvider: 'input', diarizationModel: 'none',
      alignmentVersion: 'none', normalizationVersion: 3, status: 'COMPLETED',
    });
  });

  test('sorts segments by start and numbers speakers spk_N by first appearance, unresolved', () => {
    const transcript = transcriptFromSegments(input, call);
    expect(transcript.speakers.map((speaker) => [speaker.speakerId, speaker.sourceSpeakerId, speaker.label, speaker.displayName])).toEqual([
      ['spk_0', 'A', 'Speaker 1', 'Speaker 1'], ['spk_1', 'B', 'Speaker 2', 'Speaker 2'],
    ]);
    expect(transcript.speakers.every((speaker) => speaker.role === 'UNKNOWN' && speaker.confidence === 'LOW' && speaker.labelSource === 'DIARIZATION'
      && speaker.voiceMatchScore === null && speaker.voiceProfileMatched === null)).toBe(true);
    expect(transcript.segments.map((one) => [one.id, one.speakerId, one.sourceSpeakerId, one.speaker, one.role, one.startSeconds, one.endSeconds, one.alignmentConfidence])).toEqual([
      ['seg_0001', 'spk_0', 'A', 'Speaker 1', 'UNKNOWN', 0.5, 3.1, 'HIGH'],
      ['seg_0002', 'spk_1', 'B', 'Speaker 2', 'UNKNOWN', 3.4, 5.9, 'HIGH'],
      ['seg_0003', 'spk_0', 'A', 'Speaker 1', 'UNKNOWN', 6.2, 8, 'HIGH'],
    ]);
    expect(transcript.speakerResolution).toMatchObject({ totalSpeakerCount: 2, resolvedSpeakerCount: 0, voiceMatchStatus: 'DISABLED', warnings: [] });
  });

  test('segments starting together keep their input order', () => {
    const transcript = transcriptFromSegments({ segments: [segment('X', 1, 2, 'First.'), segment('Y', 1, 1.5, 'Second.'), segment('X', 0, 1, 'Zero.')] }, call);
    expect(transcript.segments.map(({ text }) => text)).toEqual(['Zero.', 'First.', 'Second.']);
    expect(transcript.speakers.map(({ sourceSpeakerId }) => sourceSpeakerId)).toEqual(['X', 'Y']);
  });

  test('cleanText has one line per segment, blanks in the text collapsed', () => {
    expect(transcriptFromSegments(input, call).cleanText).toBe([
      '[00:00-00:03] Speaker 1: Hi, this is Diane.',
      '[00:03-00:05] Speaker 2: Hello Diane, Sheila here.',
      '[00:06-00:08] Speaker 1: Great to hear from you.',
    ].join('\n'));
  });

  test('language defaults to "und" and durationSeconds to the latest segment end, times rounded to the millisecond', () => {
    const transcript = transcriptFromSegments({ segments: [segment('A', 0, 9.5, 'Long one.'), segment('B', 2, 4, 'Short one.')] }, call);
    expect(transcript).toMatchObject({ language: 'und', durationSeconds: 9.5 });
    expect(transcriptFromSegments(input, call).durationSeconds).toBe(8);
    expect(transcriptFromSegments({ ...input, durationSeconds: 95.2 }, call).durationSeconds).toBe(95.2);
  });

  test('does not change its input', () => {
    const copy = structuredClone(input);
    transcriptFromSegments(input, call);
    expect(input).toEqual(copy);
  });
});

describe('DiarizedTranscriptInputSchema', () => {
  test('accepts the documented shape, the optional fields present or not, and ignores unknown fields', () => {
    expect(diarizedTranscriptInputProblems(input)).toEqual([]);
    expect(diarizedTranscriptInputProblems({
      user: { displayName: 'Diane' }, metadata: { contactName: 'Sheila', direction: 'INCOMING' }, language: 'en-GB', durationSeconds: 95.2,
      segments: [segment('A', 0, 0, 'Hm.')], expected: { userSpeaker: 'A' },
    })).toEqual([]);
    expect(diarizedTranscriptInputProblems({ user: {}, segments: [segment('A', 0, 1, 'Hi.')] })).toEqual([]);
    expect(Value.Check(DiarizedTranscriptInputSchema, input)).toBe(true);
  });

  test('lists every problem with its JSON path', () => {
    const problems = diarizedTranscriptInputProblems({
      user: { displayName: '' },
      metadata: { direction: 'SIDEWAYS' },
      durationSeconds: -1,
      segments: [
        segment('A', 3, 1, 'Backwards.'),
        { sourceSpeakerId: '', startSeconds: -0.5, text: '   ' },
        { sourceSpeakerId: 'B', startSeconds: '1', endSeconds: 2, text: 7 },
      ],
    });
    for (const path of [
      '/user/displayName', '/metadata/direction', '/durationSeconds', '/segments/0 endSeconds (1) must be >= startSeconds (3)',
      '/segments/1 ', '/segments/1/sourceSpeakerId', '/segments/1/startSeconds', '/segments/1/text must not be empty or blank',
      '/segments/2/startSeconds', '/segments/2/text',
    ]) expect(problems.some((problem) => problem.startsWith(path)), `${path} in ${problems.join(' | ')}`).toBe(true);
  });

  test('lists more problems than TypeBox buffers by default, up to a bound, and leaves its setting as it was', () => {
    const backwards = (count: number) => ({ segments: Array.from({ length: count }, () => segment('A', 2, 1, 'Backwards.')) });
    expect(diarizedTranscriptInputProblems(backwards(12))).toHaveLength(12);
    const many = diarizedTranscriptInputProblems(backwards(maxListedProblems + 5));
    expect(many).toHaveLength(maxListedProblems + 1);
    expect(many.at(-1)).toMatch(/more problems/);
    expect(Settings.Get().maxErrors).toBe(8);
  });

  test('segments are required and must not be empty; the whole value must be an object', () => {
    expect(diarizedTranscriptInputProblems({ language: 'en' })).toEqual(expect.arrayContaining([expect.stringMatching(/segments/)]));
    expect(diarizedTranscriptInputProblems({ segments: [] })).toEqual([expect.stringMatching(/^\/segments /)]);
    expect(diarizedTranscriptInputProblems([])).toEqual([expect.stringMatching(/^\(root\) /)]);
  });
});
