import { describe, expect, test } from 'vitest';
import type { CallDirection } from '../../../../../src/domain/calls/callTypes.js';
import type { Speaker } from '../../../../../src/domain/transcripts/transcriptSchema.js';
import { proseNameOf } from '../../../../../src/pipeline/analysis/builtin/facts/callParties.js';

/** A resolved speaker: its role, label and the layer that placed it. */
function speaker(role: Speaker['role'], label: string, labelSource: Speaker['labelSource']): Speaker {
  return {
    speakerId: 'spk_1', sourceSpeakerId: 'SPEAKER_00', label, displayName: label, role,
    confidence: labelSource === 'DIARIZATION' ? 'LOW' : 'MEDIUM', labelSource, voiceMatchScore: null, voiceProfileMatched: null,
  };
}

describe('proseNameOf', () => {
  test.each<[Speaker, CallDirection | undefined, string]>([
    [speaker('CONTACT', 'Marta Kowalski', 'NAME_MENTION'), 'INCOMING', 'Marta Kowalski'],
    [speaker('USER', 'Diane Carter', 'BY_ELIMINATION'), 'INCOMING', 'Diane Carter'],
    [speaker('CONTACT', 'Speaker 1', 'GREETING_MATCH'), 'INCOMING', 'the caller'],
    [speaker('CONTACT', 'Speaker 2', 'POSITIONAL_FALLBACK'), 'OUTGOING', 'the contact'],
    [speaker('CONTACT', 'Contact …0188', 'PHONE_FALLBACK'), 'INCOMING', 'the caller'],
    [speaker('CONTACT', 'Contact …0188', 'POSITIONAL_FALLBACK'), undefined, 'the contact'],
    [speaker('USER', 'Speaker 2', 'BY_ELIMINATION'), 'OUTGOING', 'the user'],
    [speaker('UNKNOWN', 'Speaker 3', 'DIARIZATION'), 'INCOMING', 'Speaker 3'],
  ])('%o on a call %s: "%s"', (party, direction, expected) => {
    expect(proseNameOf(party, direction)).toBe(expected);
  });
});
