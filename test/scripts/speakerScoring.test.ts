import { describe, expect, test } from 'vitest';
import type { Speaker } from '../../src/domain/transcripts/transcriptSchema.js';
import { inventedNames, nameRight, scoreSpeaker } from '../../scripts/evaluation/speakerScoring.js';

const speaker = (label: string, role: Speaker['role'] = 'CONTACT'): Speaker => ({
  speakerId: 'spk_0', sourceSpeakerId: 'SPEAKER_00', label, displayName: label, role, confidence: 'LOW',
  labelSource: 'POSITIONAL_FALLBACK', voiceMatchScore: null, voiceProfileMatched: null,
});

describe('eval:speakers scoring', () => {
  test('a name is right when the label is the expected name', () => {
    expect(nameRight('Sheila Jones', 'Sheila Jones')).toBe(true);
    expect(nameRight('Sheila', 'Sheila Jones')).toBe(false);
  });

  test('where no name is expected, the product\'s labels for an unnamed speaker are right and a person\'s name is wrong', () => {
    expect(nameRight('Speaker 2', null)).toBe(true);
    expect(nameRight('Contact …0199', null)).toBe(true);
    expect(nameRight('Robert Miller', null)).toBe(false);
  });

  test('a placeholder or phone label where the annotator heard a name is a wrong name', () => {
    expect(nameRight('Contact …0199', 'Gary')).toBe(false);
    expect(nameRight('Speaker 3', 'Robert')).toBe(false);
  });

  test('role and name are scored apart; a speaker missing from the transcript has neither', () => {
    expect(scoreSpeaker({ role: 'CONTACT', name: null, certainty: 'clear', why: 'x' }, speaker('Contact …0958'))).toEqual({ roleRight: true, nameRight: true });
    expect(scoreSpeaker({ role: 'UNKNOWN', name: null, certainty: 'clear', why: 'x' }, speaker('Robert Miller'))).toEqual({ roleRight: false, nameRight: false });
    expect(scoreSpeaker({ role: 'USER', name: 'Diane', certainty: 'clear', why: 'x' }, undefined)).toEqual({ roleRight: false, nameRight: false });
  });

  test('invented names: anything but Speaker N, the call\'s own phone label and the names the call supplies', () => {
    const metadata = { contactName: 'Sheila', phoneNumber: '555-0199' };
    expect(inventedNames([speaker('Speaker 1'), speaker('Sheila'), speaker('Diane', 'USER'), speaker('Contact …0199')], 'Diane', metadata)).toEqual([]);
    expect(inventedNames([speaker('Gary'), speaker('Contact …1234')], 'Diane', metadata)).toEqual(['Gary', 'Contact …1234']);
  });
});
