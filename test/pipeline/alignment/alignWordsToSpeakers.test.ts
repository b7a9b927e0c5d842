import { describe, expect, test } from 'vitest';
import { alignWordsToSpeakers } from '../../../src/pipeline/alignment/alignWordsToSpeakers.js';
import type { SpeakerTurn, TranscribedWord } from '../../../src/pipeline/speechTypes.js';

const word = (text: string, startSeconds: number, endSeconds: number): TranscribedWord => ({ text, startSeconds, endSeconds, probability: 0.9 });
const turn = (speaker: string, startSeconds: number, endSeconds: number): SpeakerTurn => ({ speaker, startSeconds, endSeconds });

describe('alignWordsToSpeakers', () => {
  test('gives each word the speaker whose turn holds it, with HIGH confidence', () => {
    const aligned = alignWordsToSpeakers(
      [word('Hello', 0.2, 0.6), word('there.', 0.7, 1.1), word('Hi!', 2.1, 2.4)],
      [turn('SPEAKER_00', 0, 1.5), turn('SPEAKER_01', 2, 3)],
    );
    expect(aligned.map((w) => [w.text, w.speaker, w.confidence])).toEqual([
      ['Hello', 'SPEAKER_00', 'HIGH'], ['there.', 'SPEAKER_00', 'HIGH'], ['Hi!', 'SPEAKER_01', 'HIGH'],
    ]);
  });

  test('splits one whisper segment word by word where the speaker changes mid-sentence', () => {
    // One whisper segment "Thanks so much yes of course" spoken by two people.
    const words = [word('Thanks', 0, 0.3), word('so', 0.3, 0.5), word('much.', 0.5, 0.9), word('Yes,', 1.0, 1.3), word('of', 1.3, 1.4), word('course.', 1.4, 1.9)];
    const aligned = alignWordsToSpeakers(words, [turn('SPEAKER_00', 0, 0.95), turn('SPEAKER_01', 0.95, 2)]);
    expect(aligned.map((w) => w.speaker)).toEqual(['SPEAKER_00', 'SPEAKER_00', 'SPEAKER_00', 'SPEAKER_01', 'SPEAKER_01', 'SPEAKER_01']);
  });

  test('a word straddling two turns goes to the speaker covering most of it, with MEDIUM confidence', () => {
    const [aligned] = alignWordsToSpeakers([word('straddle', 0.8, 1.2)], [turn('SPEAKER_00', 0, 0.9), turn('SPEAKER_01', 0.9, 2)]);
    expect(aligned).toMatchObject({ speaker: 'SPEAKER_01', confidence: 'MEDIUM' });
  });

  test('a word spoken while both talk (overlapping turns) is MEDIUM, never HIGH', () => {
    const [aligned] = alignWordsToSpeakers([word('overlap', 1.0, 1.4)], [turn('SPEAKER_00', 0, 2), turn('SPEAKER_01', 1.2, 3)]);
    expect(aligned).toMatchObject({ speaker: 'SPEAKER_00', confidence: 'MEDIUM' });
  });

  test('a word in a gap between turns goes to the nearest turn within a second, with LOW confidence', () => {
    const aligned = alignWordsToSpeakers([word('early', 0.1, 0.4), word('gap', 2.2, 2.5)], [turn('SPEAKER_00', 0, 1), turn('SPEAKER_01', 2.8, 4)]);
    expect(aligned[1]).toMatchObject({ speaker: 'SPEAKER_01', confidence: 'LOW' });
  });

  test('a word far from every turn stays with the speaker of the word before it', () => {
    const aligned = alignWordsToSpeakers([word('one', 0.1, 0.4), word('lonely', 10, 10.3)], [turn('SPEAKER_00', 0, 1), turn('SPEAKER_01', 30, 31)]);
    expect(aligned[1]).toMatchObject({ speaker: 'SPEAKER_00', confidence: 'LOW' });
  });

  test('without any turns (diarization heard no speech) every word goes to one unknown speaker with NONE', () => {
    const aligned = alignWordsToSpeakers([word('mumble', 1, 1.5)], []);
    expect(aligned).toEqual([expect.objectContaining({ speaker: 'SPEAKER_00', confidence: 'NONE' })]);
  });

  test('no words (silence or no recognised speech) gives no aligned words', () => {
    expect(alignWordsToSpeakers([], [turn('SPEAKER_00', 0, 5)])).toEqual([]);
  });

  test('a zero-length word inside a turn is still assigned to it', () => {
    const [aligned] = alignWordsToSpeakers([word('uh', 1.5, 1.5)], [turn('SPEAKER_00', 1, 2)]);
    expect(aligned).toMatchObject({ speaker: 'SPEAKER_00' });
  });

  test('a long turn that started well before later short turns still covers words inside it', () => {
    const turns = [turn('SPEAKER_00', 0, 60), turn('SPEAKER_01', 10, 11), turn('SPEAKER_01', 20, 21)];
    const [aligned] = alignWordsToSpeakers([word('late', 50, 50.4)], turns);
    expect(aligned).toMatchObject({ speaker: 'SPEAKER_00', confidence: 'HIGH' });
  });
});
