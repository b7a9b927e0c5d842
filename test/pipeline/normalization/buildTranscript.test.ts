import { Value } from 'typebox/value';
import { describe, expect, test } from 'vitest';
import { TranscriptSchema } from '../../../src/domain/transcripts/transcriptSchema.js';
import type { AlignedWord } from '../../../src/pipeline/alignment/alignWordsToSpeakers.js';
import { buildTranscript, formatTime, groupIntoSegments, joinWords } from '../../../src/pipeline/normalization/buildTranscript.js';

const word = (text: string, speaker: string, startSeconds: number, endSeconds: number, confidence: AlignedWord['confidence'] = 'HIGH'): AlignedWord =>
  ({ text, speaker, startSeconds, endSeconds, probability: 0.9, confidence });

const input = (words: AlignedWord[], durationSeconds = 20) => ({
  callId: '0b1c2d3e-4f50-4a61-8b72-9c8d7e6f5a4b',
  createdAt: Date.UTC(2026, 10, 22, 10, 0, 0),
  durationSeconds,
  words,
  diarization: { provider: 'onnxruntime', model: 'segmentation.onnx', speakerCount: 2 },
  transcription: { language: 'en', provider: 'whisper.cpp', model: 'whisper.bin' },
});

describe('buildTranscript', () => {
  const words = [
    word('Hi,', 'SPEAKER_01', 0.5, 0.8), word('this', 'SPEAKER_01', 0.8, 1), word('is', 'SPEAKER_01', 1, 1.1), word('Diane.', 'SPEAKER_01', 1.1, 1.6),
    word('Hello', 'SPEAKER_00', 2, 2.3), word('Diane', 'SPEAKER_00', 2.3, 2.7, 'MEDIUM'), word('.', 'SPEAKER_00', 2.7, 2.75),
    word('How', 'SPEAKER_01', 3.1, 3.3), word('are', 'SPEAKER_01', 3.3, 3.4), word('you?', 'SPEAKER_01', 3.4, 3.8),
  ];

  test('produces a valid schema-version-2 transcript with normalisation version 3', () => {
    const transcript = buildTranscript(input(words));
    expect(Value.Check(TranscriptSchema, transcript)).toBe(true);
    expect(transcript.schemaVersion).toBe(2);
    expect(transcript.pipeline).toMatchObject({ normalizationVersion: 3, alignmentVersion: '1', transcriptionProvider: 'whisper.cpp', diarizationProvider: 'onnxruntime' });
  });

  test('numbers speakers spk_N by first appearance, whatever their diarization ids', () => {
    const transcript = buildTranscript(input(words));
    expect(transcript.speakers.map((speaker) => [speaker.speakerId, speaker.sourceSpeakerId, speaker.label])).toEqual([
      ['spk_0', 'SPEAKER_01', 'Speaker 1'], ['spk_1', 'SPEAKER_00', 'Speaker 2'],
    ]);
    expect(transcript.speakers.every((speaker) => speaker.labelSource === 'DIARIZATION' && speaker.role === 'UNKNOWN' && speaker.confidence === 'LOW')).toBe(true);
  });

  test('makes one segment per speaker turn, ids seg_NNNN, text with punctuation attached', () => {
    const transcript = buildTranscript(input(words));
    expect(transcript.segments.map((segment) => [segment.id, segment.speakerId, segment.text, segment.startSeconds, segment.endSeconds])).toEqual([
      ['seg_0001', 'spk_0', 'Hi, this is Diane.', 0.5, 1.6],
      ['seg_0002', 'spk_1', 'Hello Diane.', 2, 2.75],
      ['seg_0003', 'spk_0', 'How are you?', 3.1, 3.8],
    ]);
    expect(transcript.segments[1]?.alignmentConfidence).toBe('MEDIUM');
  });

  test('cleanText has one line per segment with its time range and speaker name', () => {
    expect(buildTranscript(input(words)).cleanText).toBe([
      '[00:00-00:01] Speaker 1: Hi, this is Diane.',
      '[00:02-00:02] Speaker 2: Hello Diane.',
      '[00:03-00:03] Speaker 1: How are you?',
    ].join('\n'));
  });

  test('a call without recognised speech is a valid transcript with no segments', () => {
    const transcript = buildTranscript(input([]));
    expect(Value.Check(TranscriptSchema, transcript)).toBe(true);
    expect(transcript).toMatchObject({ segments: [], speakers: [], cleanText: '' });
    expect(transcript.speakerResolution.totalSpeakerCount).toBe(2);
  });
});

describe('segmentation', () => {
  test('a long pause starts a new segment of the same speaker', () => {
    const groups = groupIntoSegments([word('One.', 'A', 0, 1), word('Two.', 'A', 5, 6)]);
    expect(groups).toHaveLength(2);
  });

  test('a monologue is cut at a sentence end once it passes the maximum length', () => {
    const monologue = Array.from({ length: 40 }, (_, index) => word(index % 5 === 4 ? 'end.' : 'word', 'A', index, index + 0.9));
    const groups = groupIntoSegments(monologue, { maxSegmentSeconds: 10 });
    expect(groups.length).toBeGreaterThan(2);
    expect(groups.slice(0, -1).every((group) => group.words.at(-1)!.text === 'end.')).toBe(true);
  });

  test('words join with single spaces and no space before closing punctuation', () => {
    expect(joinWords([{ text: 'Well' }, { text: ',' }, { text: 'ok' }, { text: '.' }])).toBe('Well, ok.');
  });

  test('times show hours only for calls of an hour or more', () => {
    expect(formatTime(65.7, false)).toBe('01:05');
    expect(formatTime(3725, true)).toBe('1:02:05');
  });
});
