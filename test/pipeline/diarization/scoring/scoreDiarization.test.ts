import { describe, expect, it } from 'vitest';
import { formatRttm, parseRttm } from '../../../../src/pipeline/diarization/scoring/rttm.js';
import { scoreDiarization } from '../../../../src/pipeline/diarization/scoring/scoreDiarization.js';

/** RTTM `SPEAKER` lines from `speaker start end` triples. */
const rttm = (...turns: [string, number, number][]) =>
  turns.map(([speaker, start, end]) => `SPEAKER call 1 ${start} ${end - start} <NA> <NA> ${speaker} <NA> <NA>`).join('\n');

const score = (reference: string, hypothesis: string) => scoreDiarization(parseRttm(reference), parseRttm(hypothesis));

describe('scoreDiarization (no collar, overlap scored)', () => {
  it('is 0 for a perfect hypothesis under other names, whatever it calls the speakers', () => {
    const result = score(rttm(['A', 0, 10], ['B', 10, 20]), rttm(['spk2', 0, 10], ['spk1', 10, 20]));
    expect(result).toMatchObject({ referenceSeconds: 20, diarizationErrorRate: 0, mapping: { spk2: 'A', spk1: 'B' } });
  });

  it('counts a late speaker change as confusion and a short end as missed speech', () => {
    // 0-10 A=X ok; 10-12 B heard as X: confusion 2; 12-18 B=Y ok; 18-20 B unheard: missed 2. DER 4/20.
    const result = score(rttm(['A', 0, 10], ['B', 10, 20]), rttm(['X', 0, 12], ['Y', 12, 18]));
    expect(result.missedSeconds).toBeCloseTo(2);
    expect(result.falseAlarmSeconds).toBeCloseTo(0);
    expect(result.confusionSeconds).toBeCloseTo(2);
    expect(result.diarizationErrorRate).toBeCloseTo(0.2);
  });

  it('scores overlapped speech per speaker and reports missed, false alarm and confusion apart', () => {
    // Reference speech: A 10 s + B 10 s (5-10 s overlapped) = 20 s. Best mapping X→A (10 s), Y→B (4 s).
    // 5-10: two speakers, one heard: missed 5. 10-11: B as X: confusion 1. 11-12: B heard twice: false alarm 1.
    // 15-16: Y with nobody: false alarm 1. DER = (5 + 2 + 1) / 20.
    const result = score(rttm(['A', 0, 10], ['B', 5, 15]), rttm(['X', 0, 12], ['Y', 11, 16]));
    expect(result.referenceSeconds).toBeCloseTo(20);
    expect(result.missed).toBeCloseTo(0.25);
    expect(result.falseAlarm).toBeCloseTo(0.1);
    expect(result.confusion).toBeCloseTo(0.05);
    expect(result.diarizationErrorRate).toBeCloseTo(0.4);
    expect(result.mapping).toEqual({ X: 'A', Y: 'B' });
    // Each reference speaker's speech, and the part of it their mapped speaker covers.
    expect(result.referenceSpeakers.A).toEqual({ seconds: 10, matchedSeconds: 10 });
    expect(result.referenceSpeakers.B!.seconds).toBeCloseTo(10);
    expect(result.referenceSpeakers.B!.matchedSeconds).toBeCloseTo(4);
  });

  it('maps one-to-one: a speaker split in two costs the smaller half as confusion', () => {
    const result = score(rttm(['A', 0, 10]), rttm(['X', 0, 6], ['Y', 6, 10]));
    expect(result.confusionSeconds).toBeCloseTo(4);
    expect(result.diarizationErrorRate).toBeCloseTo(0.4);
  });

  it('leaves a collar around every reference boundary out of the scoring when asked (md-eval -c)', () => {
    // The late change of the test above: 10-12 B heard as X. With a 0.25 s collar, 9.75-10.25,
    // 19.75-20.25 and -0.25-0.25 are not scored: confusion 10.25-12 (1.75 s), missed 18-19.75 (1.75 s),
    // of 20 - 0.25 - 0.5 - 0.25 = 19 s of reference speech.
    const result = scoreDiarization(parseRttm(rttm(['A', 0, 10], ['B', 10, 20])), parseRttm(rttm(['X', 0, 12], ['Y', 12, 18])), { collarSeconds: 0.25 });
    expect(result.referenceSeconds).toBeCloseTo(19);
    expect(result.confusionSeconds).toBeCloseTo(1.75);
    expect(result.missedSeconds).toBeCloseTo(1.75);
    expect(result.diarizationErrorRate).toBeCloseTo(3.5 / 19);
  });

  it('is all missed for an empty hypothesis, and joins a speaker\'s overlapping turns before scoring', () => {
    expect(score(rttm(['A', 0, 5]), '').missed).toBe(1);
    const joined = score(rttm(['A', 0, 5], ['A', 3, 8]), rttm(['X', 0, 8]));
    expect(joined).toMatchObject({ referenceSeconds: 8, diarizationErrorRate: 0 });
  });
});

describe('RTTM', () => {
  it('parses SPEAKER lines, skipping comments and other line types, and formats them back', () => {
    const text = [';; a comment', 'SPEAKER sample 1 6.690 0.430 <NA> <NA> speaker90 <NA> <NA>', 'SPKR-INFO sample 1 <NA> <NA> <NA> unknown speaker90 <NA> <NA>', 'SPEAKER sample 1 7.550 0.800 <NA> <NA> speaker91 <NA> <NA>', ''].join('\n');
    const turns = parseRttm(text);
    expect(turns).toEqual([
      { speaker: 'speaker90', startSeconds: 6.69, endSeconds: 7.12 },
      { speaker: 'speaker91', startSeconds: 7.55, endSeconds: 8.35 },
    ]);
    expect(formatRttm(turns, 'sample')).toBe('SPEAKER sample 1 6.690 0.430 <NA> <NA> speaker90 <NA> <NA>\nSPEAKER sample 1 7.550 0.800 <NA> <NA> speaker91 <NA> <NA>');
    expect(parseRttm(text, 'other')).toEqual([]);
  });

  it('rejects a malformed SPEAKER line with its line number', () => {
    expect(() => parseRttm('SPEAKER x 1 abc 1 <NA> <NA> s <NA> <NA>')).toThrow(/line 1/);
  });
});
