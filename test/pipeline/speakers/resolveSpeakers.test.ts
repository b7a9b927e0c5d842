import { Value } from 'typebox/value';
import { describe, expect, test } from 'vitest';
import type { CallMetadata } from '../../../src/domain/calls/callTypes.js';
import { TranscriptSchema, type Transcript } from '../../../src/domain/transcripts/transcriptSchema.js';
import { resolveSpeakers, type SpeakerResolutionInput } from '../../../src/pipeline/speakers/resolveSpeakers.js';
import { callOf, type Turn } from './speakerTestCalls.js';

const names = { userDisplayName: 'Diane Smith', metadata: { contactName: 'Sheila Jones' } };

/** Resolves a call, checking every result against the schema. */
function resolve(turns: readonly Turn[], input: Partial<SpeakerResolutionInput> & { metadata?: CallMetadata } = names): Transcript {
  const resolved = resolveSpeakers(callOf(turns), { metadata: {}, ...input });
  expect(Value.Check(TranscriptSchema, resolved)).toBe(true);
  return resolved;
}
const rolesOf = (transcript: Transcript) => transcript.speakers.map(({ role, labelSource, confidence }) => [role, labelSource, confidence]);
const labelsOf = (transcript: Transcript) => transcript.speakers.map(({ label }) => label);

describe('resolveSpeakers: greetings', () => {
  test('a self-introduction names its speaker (HIGH), the other follows by elimination (MEDIUM)', () => {
    const transcript = resolve([['SPEAKER_00', 'Hi, this is Diane.'], ['SPEAKER_01', 'Oh, hello there.']]);
    expect(rolesOf(transcript)).toEqual([['USER', 'GREETING_MATCH', 'HIGH'], ['CONTACT', 'BY_ELIMINATION', 'MEDIUM']]);
    expect(labelsOf(transcript)).toEqual(['Diane Smith', 'Sheila Jones']);
    expect(transcript.speakers.map(({ displayName }) => displayName)).toEqual(['Diane Smith', 'Sheila Jones']);
    expect(transcript.segments.map(({ speaker, speakerLabel, speakerDisplayName, role }) => [speaker, speakerLabel, speakerDisplayName, role]))
      .toEqual([['Diane Smith', 'Diane Smith', 'Diane Smith', 'USER'], ['Sheila Jones', 'Sheila Jones', 'Sheila Jones', 'CONTACT']]);
    expect(transcript.cleanText).toBe('[00:00-00:01] Diane Smith: Hi, this is Diane.\n[00:04-00:05] Sheila Jones: Oh, hello there.');
    expect(transcript.speakerResolution).toEqual({
      strategyVersion: 2, usedUserDisplayName: true, usedContactName: true, usedDirection: false, usedPhoneFallback: false,
      voiceEmbeddingEnabled: false, voiceProfileUsed: false, voiceMatchStatus: 'DISABLED', totalSpeakerCount: 2, resolvedSpeakerCount: 2, warnings: [],
    });
  });

  // Speaker 1 says the phrase, speaker 2 only answers; the phrase decides speaker 1's role.
  test.each([
    ['en', 'Diane speaking.', 'USER', 'SELF'],
    ['en', 'Am I speaking with Sheila?', 'USER', 'ADDRESS'],
    ['en', 'Hello Diane, how are you?', 'CONTACT', 'ADDRESS'],
    ['en', 'My name is Sheila.', 'CONTACT', 'SELF'],
    ['en', 'Sheila here.', 'CONTACT', 'SELF'],
    ['es', 'Hola, soy Diane.', 'USER', 'SELF'],
    ['es', '¿Hablo con Sheila?', 'USER', 'ADDRESS'],
    ['es', 'Me llamo Sheila.', 'CONTACT', 'SELF'],
    ['es', 'Hola Diane, ¿qué tal?', 'CONTACT', 'ADDRESS'],
    ['de', 'Hallo, hier ist Diane.', 'USER', 'SELF'],
    ['de', 'Sheila am Apparat.', 'CONTACT', 'SELF'],
    ['de', 'Mein Name ist Sheila.', 'CONTACT', 'SELF'],
    ['de', 'Spreche ich mit Sheila?', 'USER', 'ADDRESS'],
    ['de', 'Guten Tag, Frau Smith.', 'CONTACT', 'ADDRESS'],
  ] as const)('%s: "%s" makes speaker 1 the %s (%s)', (_language, phrase, role, kind) => {
    const transcript = resolve([['SPEAKER_00', phrase], ['SPEAKER_01', 'Ja, ja.']]);
    expect(transcript.speakers.map(({ role }) => role)).toEqual([role, role === 'USER' ? 'CONTACT' : 'USER']);
    // A self-introduction names the speaker who says it, an address the other one.
    const [named, eliminated] = kind === 'SELF' ? [0, 1] : [1, 0];
    expect(transcript.speakers[named]).toMatchObject({ labelSource: 'GREETING_MATCH', confidence: 'HIGH' });
    expect(transcript.speakers[eliminated]).toMatchObject({ labelSource: 'BY_ELIMINATION', confidence: 'MEDIUM' });
  });

  test('names match ignoring case, punctuation and accents; a first name matches a full name', () => {
    const transcript = resolve([['SPEAKER_00', 'HELLO?'], ['SPEAKER_01', '¡¡Hola, soy JOSE!!']], { userDisplayName: 'Diane Smith', metadata: { contactName: 'José García' } });
    expect(rolesOf(transcript)).toEqual([['USER', 'BY_ELIMINATION', 'MEDIUM'], ['CONTACT', 'GREETING_MATCH', 'HIGH']]);
    expect(labelsOf(transcript)).toEqual(['Diane Smith', 'José García']);
  });

  test('a greeting after the opening (past 30 s and the first 3 turns) is no evidence', () => {
    const late: Turn[] = [['SPEAKER_00', 'Yes.'], ['SPEAKER_01', 'Okay.'], ['SPEAKER_00', 'Sure.'], ['SPEAKER_01', 'Right.'],
      ['SPEAKER_00', 'Fine.'], ['SPEAKER_01', 'Good.'], ['SPEAKER_00', 'By the way, this is Sheila.', 40]];
    // As a greeting it would make speaker 1 the contact; as a plain mention of the contact's name, the user.
    expect(resolve(late).speakers[0]).toMatchObject({ role: 'USER', labelSource: 'NAME_MENTION', confidence: 'MEDIUM' });
  });

  test('contradicting greetings are dropped with a warning', () => {
    const transcript = resolve([['SPEAKER_00', 'This is Diane.'], ['SPEAKER_01', 'This is Diane.']]);
    expect(transcript.speakers.every(({ labelSource }) => labelSource !== 'GREETING_MATCH')).toBe(true);
    expect(transcript.speakerResolution.warnings).toEqual([expect.stringMatching(/^greetings_conflicting/)]);
  });
});

describe('resolveSpeakers: mentions, elimination, direction, position', () => {
  test('mention asymmetry: who says the contact\'s name is the user (MEDIUM)', () => {
    const transcript = resolve([['SPEAKER_00', 'Good morning.'], ['SPEAKER_01', 'Thanks, sheila, I will send it.'], ['SPEAKER_00', 'Great.']]);
    expect(rolesOf(transcript)).toEqual([['CONTACT', 'NAME_MENTION', 'MEDIUM'], ['USER', 'NAME_MENTION', 'MEDIUM']]);
  });

  test('AMBIGUOUS when both speakers mention both names: nothing assigned, a warning', () => {
    const transcript = resolve([['SPEAKER_00', 'Diane and Sheila agreed.'], ['SPEAKER_01', 'Yes, Sheila told Diane.']], { ...names, metadata: { ...names.metadata, direction: 'OUTGOING' } });
    expect(rolesOf(transcript)).toEqual([['UNKNOWN', 'AMBIGUOUS', 'LOW'], ['UNKNOWN', 'AMBIGUOUS', 'LOW']]);
    expect(labelsOf(transcript)).toEqual(['Speaker 1', 'Speaker 2']);
    expect(transcript.speakerResolution).toMatchObject({ resolvedSpeakerCount: 0, usedDirection: false, usedUserDisplayName: false, usedContactName: false });
    expect(transcript.speakerResolution.warnings).toEqual([expect.stringMatching(/^speaker_names_ambiguous/)]);
    expect(transcript.cleanText).toContain('Speaker 1: Diane and Sheila agreed.');
  });

  test.each([
    ['OUTGOING', ['CONTACT', 'USER'], true],
    ['INCOMING', ['USER', 'CONTACT'], true],
    ['UNKNOWN', ['USER', 'CONTACT'], false],
    [undefined, ['USER', 'CONTACT'], false],
  ] as const)('no evidence, direction %s: first speaker %j (LOW, POSITIONAL_FALLBACK)', (direction, roles, usedDirection) => {
    const transcript = resolve([['SPEAKER_00', 'Hello?'], ['SPEAKER_01', 'Hi, about the invoice.']], { ...names, metadata: { ...names.metadata, ...(direction ? { direction } : {}) } });
    expect(rolesOf(transcript)).toEqual(roles.map((role) => [role, 'POSITIONAL_FALLBACK', 'LOW']));
    expect(transcript.speakerResolution.usedDirection).toBe(usedDirection);
  });

  test('the stereo user channel decides before the direction (MEDIUM)', () => {
    const transcript = resolve([['SPEAKER_00', 'Hello?'], ['SPEAKER_01', 'Hi.']], { ...names, stereoUserChannel: 'right', metadata: { ...names.metadata, direction: 'INCOMING' } });
    expect(rolesOf(transcript)).toEqual([['CONTACT', 'POSITIONAL_FALLBACK', 'MEDIUM'], ['USER', 'POSITIONAL_FALLBACK', 'MEDIUM']]);
    expect(transcript.speakerResolution.usedDirection).toBe(false);
  });

  test('precedence: a greeting beats mentions and direction', () => {
    // Speaker 1 mentions the user's name (a mention would make it the contact) on an outgoing call (so would the direction).
    const transcript = resolve([['SPEAKER_00', 'Hi, this is Diane.'], ['SPEAKER_01', 'Oh, hello.']],
      { ...names, metadata: { ...names.metadata, direction: 'OUTGOING' } });
    expect(rolesOf(transcript)).toEqual([['USER', 'GREETING_MATCH', 'HIGH'], ['CONTACT', 'BY_ELIMINATION', 'MEDIUM']]);
    expect(transcript.speakerResolution.usedDirection).toBe(false);
  });

  test('precedence: mentions beat direction', () => {
    const transcript = resolve([['SPEAKER_00', 'Okay Sheila, noted.'], ['SPEAKER_01', 'Thanks.']], { ...names, metadata: { ...names.metadata, direction: 'OUTGOING' } });
    expect(transcript.speakers.map(({ role }) => role)).toEqual(['USER', 'CONTACT']);
  });
});

describe('resolveSpeakers: labels', () => {
  test('phone fallback: the contact is labelled by the last four digits, the number never appears', () => {
    const transcript = resolve([['SPEAKER_00', 'Hello?'], ['SPEAKER_01', 'Hi, this is Diane.']], { userDisplayName: 'Diane', metadata: { phoneNumber: '+1 (555) 123-4567' } });
    expect(transcript.speakers[0]).toMatchObject({ role: 'CONTACT', label: 'Contact …4567', displayName: 'Contact …4567', labelSource: 'PHONE_FALLBACK' });
    expect(transcript.speakerResolution).toMatchObject({ usedPhoneFallback: true, usedContactName: false });
    const json = JSON.stringify(transcript);
    for (const fragment of ['5551234567', '123-4567', '555', '1234567']) expect(json).not.toContain(fragment);
    expect(transcript.cleanText).toContain('Contact …4567: Hello?');
  });

  test('a number of four digits or fewer is not shown', () => {
    const transcript = resolve([['SPEAKER_00', 'Hello?'], ['SPEAKER_01', 'Hi, this is Diane.']], { userDisplayName: 'Diane', metadata: { phoneNumber: '4567' } });
    expect(transcript.speakers[0]).toMatchObject({ role: 'CONTACT', label: 'Speaker 1', labelSource: 'BY_ELIMINATION' });
    expect(JSON.stringify(transcript)).not.toContain('4567');
  });

  test('a metadata name without evidence or elimination path is never used', () => {
    const three = resolve([['SPEAKER_00', 'Hello.'], ['SPEAKER_01', 'Hi.'], ['SPEAKER_02', 'Hey, this is Bob.']]);
    expect(rolesOf(three).every(([role]) => role === 'UNKNOWN')).toBe(true);
    const one = resolve([['SPEAKER_00', 'Hi, calling about the invoice.']], { ...names, metadata: { ...names.metadata, direction: 'INCOMING' } });
    expect(one.speakers[0]).toMatchObject({ role: 'UNKNOWN', label: 'Speaker 1', labelSource: 'DIARIZATION' });
    for (const transcript of [three, one]) {
      const json = JSON.stringify(transcript);
      for (const name of ['Sheila', 'Jones', 'Diane Smith', 'Bob"']) expect(json).not.toContain(name);
    }
  });
});

describe('resolveSpeakers: voice match', () => {
  const turns: Turn[] = [['SPEAKER_00', 'Hi, this is Diane.'], ['SPEAKER_01', 'Hello.']];

  test('MATCHED: that speaker is the user (VOICE_EMBEDDING), beating greetings; the other is the contact by elimination', () => {
    const transcript = resolve(turns, { ...names, voiceMatch: { status: 'MATCHED', speakerId: 'spk_1', score: 0.91, confidence: 'HIGH' } });
    expect(transcript.speakers.map(({ role, labelSource, confidence, voiceMatchScore, voiceProfileMatched, label }) => [role, labelSource, confidence, voiceMatchScore, voiceProfileMatched, label]))
      .toEqual([['CONTACT', 'BY_ELIMINATION', 'MEDIUM', null, false, 'Sheila Jones'], ['USER', 'VOICE_EMBEDDING', 'HIGH', 0.91, true, 'Diane Smith']]);
    expect(transcript.speakerResolution).toMatchObject({ voiceEmbeddingEnabled: true, voiceProfileUsed: true, voiceMatchStatus: 'MATCHED', usedUserDisplayName: true, resolvedSpeakerCount: 2 });
  });

  test.each(['NO_MATCH', 'FAILED', 'DISABLED'] as const)('%s: text resolution runs unchanged', (status) => {
    const transcript = resolve(turns, { ...names, voiceMatch: { status, ...(status === 'NO_MATCH' ? { speakerId: 'spk_1', score: 0.4 } : {}) } });
    expect(rolesOf(transcript)).toEqual(rolesOf(resolve(turns)));
    expect(transcript.speakerResolution).toMatchObject({ voiceEmbeddingEnabled: status !== 'DISABLED', voiceProfileUsed: false, voiceMatchStatus: status });
    expect(transcript.speakers.map(({ voiceProfileMatched }) => voiceProfileMatched)).toEqual(status === 'NO_MATCH' ? [false, false] : [null, null]);
  });

  test('AMBIGUOUS: voice assigns nothing, the status is recorded with a warning', () => {
    const transcript = resolve([['SPEAKER_00', 'Hello?'], ['SPEAKER_01', 'Hi.']], { ...names, voiceMatch: { status: 'AMBIGUOUS' } });
    expect(transcript.speakers.every(({ labelSource }) => labelSource !== 'VOICE_EMBEDDING')).toBe(true);
    expect(transcript.speakerResolution).toMatchObject({ voiceMatchStatus: 'AMBIGUOUS', voiceProfileUsed: false, voiceEmbeddingEnabled: true });
    expect(transcript.speakerResolution.warnings).toEqual([expect.stringMatching(/^voice_match_ambiguous/)]);
  });
});

describe('resolveSpeakers: speaker counts', () => {
  test('three speakers: only the one a greeting names is resolved', () => {
    const transcript = resolve([['SPEAKER_00', 'Hello all.'], ['SPEAKER_01', 'Hi.'], ['SPEAKER_02', 'Hey, Diane speaking.']]);
    expect(transcript.speakers.map(({ role }) => role)).toEqual(['UNKNOWN', 'UNKNOWN', 'USER']);
    expect(labelsOf(transcript)).toEqual(['Speaker 1', 'Speaker 2', 'Diane Smith']);
    expect(transcript.speakerResolution).toMatchObject({ totalSpeakerCount: 3, resolvedSpeakerCount: 1 });
    expect(transcript.speakerResolution.warnings).toEqual([expect.stringMatching(/^speakers_unresolved/)]);
  });

  test.each([
    ['named by a greeting', 'Hi, this is Diane, call me back.', undefined, ['USER', 'GREETING_MATCH', 'HIGH']],
    ['on an outgoing call', 'Please call me back.', 'OUTGOING', ['USER', 'POSITIONAL_FALLBACK', 'LOW']],
    ['on an incoming call', 'Please call me back.', 'INCOMING', ['UNKNOWN', 'DIARIZATION', 'LOW']],
  ] as const)('one speaker %s', (_case, text, direction, expected) => {
    const transcript = resolve([['SPEAKER_00', text]], { ...names, metadata: { ...names.metadata, ...(direction ? { direction } : {}) } });
    expect(rolesOf(transcript)).toEqual([expected]);
  });
});

test('the input transcript is not changed', () => {
  const input = callOf([['SPEAKER_00', 'Hi, this is Diane.'], ['SPEAKER_01', 'Hello.']]);
  const before = structuredClone(input);
  const output = resolveSpeakers(input, { ...names, voiceMatch: { status: 'MATCHED', speakerId: 'spk_0', score: 0.9 } });
  expect(input).toEqual(before);
  expect(output.speakers[0]).not.toBe(input.speakers[0]);
  expect(output.segments[0]).not.toBe(input.segments[0]);
});
