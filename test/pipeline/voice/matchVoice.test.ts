import { describe, expect, test } from 'vitest';
import { matchVoice } from '../../../src/pipeline/voice/matchVoice.js';

const thresholds = { high: 0.85, medium: 0.75 };
/** A unit vector at `cosine` to the profile (1, 0). */
const at = (cosine: number) => [cosine, Math.sqrt(1 - cosine * cosine)];
const profile = [1, 0];

describe('the specification\'s voice-matching table', () => {
  test('one speaker at or above HIGH: MATCHED, HIGH, with its score', () => {
    expect(matchVoice(profile, [{ speakerId: 'spk_0', vector: at(0.2) }, { speakerId: 'spk_1', vector: at(0.9) }], thresholds))
      .toEqual({ status: 'MATCHED', speakerId: 'spk_1', score: 0.9, confidence: 'HIGH', scores: { spk_0: 0.2, spk_1: 0.9 } });
  });

  test('exactly at HIGH is HIGH', () => {
    expect(matchVoice(profile, [{ speakerId: 'spk_0', vector: at(0.85) }], thresholds)).toMatchObject({ status: 'MATCHED', confidence: 'HIGH', score: 0.85 });
  });

  test('one speaker at or above MEDIUM but below HIGH: MATCHED, MEDIUM', () => {
    expect(matchVoice(profile, [{ speakerId: 'spk_0', vector: at(0.8) }, { speakerId: 'spk_1', vector: at(0.1) }], thresholds))
      .toMatchObject({ status: 'MATCHED', speakerId: 'spk_0', confidence: 'MEDIUM', score: 0.8 });
    expect(matchVoice(profile, [{ speakerId: 'spk_0', vector: at(0.75) }], thresholds)).toMatchObject({ status: 'MATCHED', confidence: 'MEDIUM' });
  });

  test('best speaker below MEDIUM: NO_MATCH, nobody named, scores still reported', () => {
    const outcome = matchVoice(profile, [{ speakerId: 'spk_0', vector: at(0.7499) }, { speakerId: 'spk_1', vector: at(0.3) }], thresholds);
    expect(outcome).toEqual({ status: 'NO_MATCH', scores: { spk_0: 0.7499, spk_1: 0.3 } });
  });

  test('more than one speaker over the threshold: AMBIGUOUS, no speaker assigned', () => {
    const outcome = matchVoice(profile, [{ speakerId: 'spk_0', vector: at(0.95) }, { speakerId: 'spk_1', vector: at(0.76) }], thresholds);
    expect(outcome.status).toBe('AMBIGUOUS');
    expect(outcome.speakerId).toBeUndefined();
    expect(outcome.scores).toEqual({ spk_0: 0.95, spk_1: 0.76 });
  });

  test('no speaker long enough to compare: NO_MATCH with a warning', () => {
    expect(matchVoice(profile, [], thresholds)).toMatchObject({ status: 'NO_MATCH', warning: expect.stringContaining('no speaker spoke long enough') });
  });

  test('scores are cosine similarities clamped to [0, 1]: an opposite voice scores 0', () => {
    expect(matchVoice(profile, [{ speakerId: 'spk_0', vector: [-1, 0] }], thresholds).scores).toEqual({ spk_0: 0 });
    // Length does not matter, only direction.
    expect(matchVoice(profile, [{ speakerId: 'spk_0', vector: [10, 0] }], thresholds)).toMatchObject({ status: 'MATCHED', score: 1 });
  });

  test('configured thresholds are used', () => {
    expect(matchVoice(profile, [{ speakerId: 'spk_0', vector: at(0.8) }], { high: 0.95, medium: 0.9 }).status).toBe('NO_MATCH');
    expect(matchVoice(profile, [{ speakerId: 'spk_0', vector: at(0.8) }], { high: 0.8, medium: 0.5 })).toMatchObject({ confidence: 'HIGH' });
  });
});
