import { Value } from 'typebox/value';
import { describe, expect, test } from 'vitest';
import type { CallMetadata } from '../../../src/domain/calls/callTypes.js';
import { TranscriptSchema, type Speaker, type Transcript } from '../../../src/domain/transcripts/transcriptSchema.js';
import { resolveSpeakers, type SpeakerResolutionInput } from '../../../src/pipeline/speakers/resolveSpeakers.js';
import { callOf, type Turn } from './speakerTestCalls.js';

const names = { userDisplayName: 'Diane Smith', metadata: { contactName: 'Sheila Jones' } };

/** Resolves a call, checking every result against the schema. */
function resolve(
  turns: readonly Turn[], input: Partial<SpeakerResolutionInput> & { metadata?: CallMetadata } = names, call: Parameters<typeof callOf>[1] = {},
): Transcript {
  const resolved = resolveSpeakers(callOf(turns, call), { metadata: {}, ...input });
  expect(Value.Check(TranscriptSchema, resolved)).toBe(true);
  return resolved;
}
const rolesOf = (transcript: Transcript) => transcript.speakers.map(({ role, labelSource, confidence }) => [role, labelSource, confidence]);
const labelsOf = (transcript: Transcript) => transcript.speakers.map(({ label }) => label);
const outgoing = { ...names, metadata: { ...names.metadata, direction: 'OUTGOING' as const } };
/** Three turns each, the last starting before 30 s: whatever follows from 30 s on is past the greeting window. */
const opening: Turn[] = [['SPEAKER_00', 'Hello?'], ['SPEAKER_01', 'Hi, about the order.'], ['SPEAKER_00', 'Which one?'],
  ['SPEAKER_01', 'From Monday.'], ['SPEAKER_00', 'Right.'], ['SPEAKER_01', 'Yes.']];

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

  // On this outgoing call speaker 1 answers and is the contact, Sheila. Past the window her
  // self-introduction is no greeting, and no mention of the other party either (which would make
  // her the user): the direction decides.
  test.each([
    'By the way, this is Sheila.', 'Sorry, the line dropped, this is Sheila again.', 'Sheila here, by the way.',
    "It's Sheila Jones again.", 'Sheila speaking, can you hear me?',
  ])('a self-introduction past the greeting window is no evidence: "%s"', (late) => {
    const transcript = resolve([...opening, ['SPEAKER_00', late, 180]], outgoing);
    expect(rolesOf(transcript)).toEqual([['CONTACT', 'POSITIONAL_FALLBACK', 'LOW'], ['USER', 'POSITIONAL_FALLBACK', 'LOW']]);
    expect(transcript.speakerResolution.usedDirection).toBe(true);
  });

  test('past the greeting window, a self-introduction leaves the other speaker\'s mentions to decide', () => {
    // Without direction the positional guess would make speaker 1 the user.
    const transcript = resolve([...opening, ['SPEAKER_00', 'Hi, this is Sheila again.', 180], ['SPEAKER_01', 'Thanks, Sheila, I will send it.']]);
    expect(rolesOf(transcript)).toEqual([['CONTACT', 'NAME_MENTION', 'MEDIUM'], ['USER', 'NAME_MENTION', 'MEDIUM']]);
  });

  test('past the greeting window, the user\'s own self-introduction leaves the contact\'s mention of the user to decide', () => {
    // Without direction the positional guess would make speaker 1 the user.
    const transcript = resolve([...opening, ['SPEAKER_01', 'Diane here, by the way, in case you wondered.', 180], ['SPEAKER_00', "Thanks, Diane, I'll send them today."]]);
    expect(rolesOf(transcript)).toEqual([['CONTACT', 'NAME_MENTION', 'MEDIUM'], ['USER', 'NAME_MENTION', 'MEDIUM']]);
  });

  test('past the greeting window, an address is still a mention of the other party', () => {
    const transcript = resolve([...opening, ['SPEAKER_00', 'Hello Diane, are you still there?', 180]], outgoing);
    expect(rolesOf(transcript)).toEqual([['CONTACT', 'NAME_MENTION', 'MEDIUM'], ['USER', 'NAME_MENTION', 'MEDIUM']]);
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

  // Speaker 2 speaks of the contact: it is the user, against the positional guess.
  test.each([
    ["Hi, is this Sheila's phone?"], ['Hi, is this Sheila’s phone?'], ["I have Sheila Jones's report here."], ["Sheila's, right?"],
  ])('a possessive is a mention: "%s"', (phrase) => {
    const transcript = resolve([['SPEAKER_00', 'Hello?'], ['SPEAKER_01', phrase]]);
    expect(rolesOf(transcript)).toEqual([['CONTACT', 'NAME_MENTION', 'MEDIUM'], ['USER', 'NAME_MENTION', 'MEDIUM']]);
  });

  test('a possessive of a name ending in s ("James\'") is a mention', () => {
    const transcript = resolve([['SPEAKER_00', 'Hello?'], ['SPEAKER_01', "I'm calling about James' invoice."]], { userDisplayName: 'Diane', metadata: { contactName: 'James Carter' } });
    expect(transcript.speakers.map(({ role }) => role)).toEqual(['CONTACT', 'USER']);
  });

  // Said by whoever answers for the contact, on an outgoing call: no greeting naming the speaker
  // Robert, and no mention (which would make the answering side the user); the direction decides.
  test.each([
    ["Hi, this is Robert's office."], ["This is Robert Miller's office, how can I help?"], ["Good morning, Robert Miller's office."],
    ["Robert's phone, hello?"], ["You've reached Robert's voicemail."],
  ])('a line announcement is neither a greeting nor a mention: "%s"', (phrase) => {
    const transcript = resolve([['SPEAKER_00', phrase], ['SPEAKER_01', 'Hi, I need the invoice, please.']],
      { userDisplayName: 'Diane', metadata: { contactName: 'Robert Miller', direction: 'OUTGOING' } });
    expect(rolesOf(transcript)).toEqual([['CONTACT', 'POSITIONAL_FALLBACK', 'LOW'], ['USER', 'POSITIONAL_FALLBACK', 'LOW']]);
  });

  test.each([
    ['Marco Díaz', 'Ah sí, lo lleva Marcos, mi compañero.'],
    ['Diane', 'Ich habe Dianes Bericht gelesen.'],
  ])('no possessive without the apostrophe: "%s" is not mentioned in "%s"', (contactName, phrase) => {
    const transcript = resolve([['SPEAKER_00', '¿Diga?'], ['SPEAKER_01', 'Llamo por el pedido.'], ['SPEAKER_00', phrase]],
      { userDisplayName: 'Elena', metadata: { contactName, direction: 'OUTGOING' } });
    expect(rolesOf(transcript)).toEqual([['CONTACT', 'POSITIONAL_FALLBACK', 'LOW'], ['USER', 'POSITIONAL_FALLBACK', 'LOW']]);
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

  const incomingOnRight = { ...names, stereoUserChannel: 'right' as const, metadata: { ...names.metadata, direction: 'INCOMING' as const } };

  test('the stereo user channel decides before the direction (MEDIUM) on a transcript diarized by channel', () => {
    const transcript = resolve([['SPEAKER_00', 'Hello?'], ['SPEAKER_01', 'Hi.']], incomingOnRight, { diarizedByChannel: true });
    expect(rolesOf(transcript)).toEqual([['CONTACT', 'POSITIONAL_FALLBACK', 'MEDIUM'], ['USER', 'POSITIONAL_FALLBACK', 'MEDIUM']]);
    expect(transcript.speakerResolution.usedDirection).toBe(false);
  });

  test('the stereo user channel is ignored when the speakers came from the model, not the channels', () => {
    const transcript = resolve([['SPEAKER_00', 'Hello?'], ['SPEAKER_01', 'Hi.']], incomingOnRight);
    expect(rolesOf(transcript)).toEqual([['USER', 'POSITIONAL_FALLBACK', 'LOW'], ['CONTACT', 'POSITIONAL_FALLBACK', 'LOW']]);
    expect(transcript.speakerResolution.usedDirection).toBe(true);
  });

  test('the stereo user channel names a lone speaker on it the user', () => {
    const transcript = resolve([['SPEAKER_01', 'Please call me back.']], incomingOnRight, { diarizedByChannel: true });
    expect(rolesOf(transcript)).toEqual([['USER', 'POSITIONAL_FALLBACK', 'MEDIUM']]);
  });

  test('mentions beat the stereo channel', () => {
    const transcript = resolve([['SPEAKER_00', 'Hello?'], ['SPEAKER_01', 'Thanks, Diane, about the order.']], incomingOnRight, { diarizedByChannel: true });
    expect(rolesOf(transcript)).toEqual([['USER', 'NAME_MENTION', 'MEDIUM'], ['CONTACT', 'NAME_MENTION', 'MEDIUM']]);
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

describe('resolveSpeakers: the speaker who says they placed the call', () => {
  const diane = { userDisplayName: 'Diane Smith' };
  /** A cold call the user received: the caller speaks first and the user only declines. */
  const coldCall: Turn[] = [
    ['SPEAKER_00', "Good evening, I'm calling from Sunfield Solar about the panels going up on your street."],
    ['SPEAKER_01', 'Not for me, thanks.'],
    ['SPEAKER_00', 'Could I just drop a brochure through your door?'],
    ['SPEAKER_01', 'No, thank you. Goodbye.'],
  ];

  test('on an incoming call the caller is the contact, though they speak first (MEDIUM), and the other the user', () => {
    const transcript = resolve(coldCall, { ...diane, metadata: { direction: 'INCOMING' } });
    expect(rolesOf(transcript)).toEqual([['CONTACT', 'GREETING_MATCH', 'MEDIUM'], ['USER', 'BY_ELIMINATION', 'MEDIUM']]);
    expect(labelsOf(transcript)).toEqual(['Speaker 1', 'Diane Smith']);
    expect(transcript.speakerResolution).toMatchObject({ usedDirection: true, usedUserDisplayName: true, resolvedSpeakerCount: 2 });
  });

  test.each([
    ['Hi there, this is Gemma from Harbourside Lettings calling about the flat on Mill Lane.'],
    ['Morning! I am ringing from the Riverside Animal Trust.'],
    ['Hello, my name is Owen, calling on behalf of Clearline Broadband.'],
    ["It's Marcus calling from Pinebrook Windows, have you got a minute?"],
    ["We're just phoning you from the surgery to confirm your booking."],
    ['Buenas tardes, le llamo de parte de Solvia Energía.'],
    ['Guten Tag, ich rufe im Auftrag der Stadtwerke Lindau an.'],
  ])('incoming: "%s" makes its speaker the contact', (opening) => {
    const transcript = resolve([['SPEAKER_00', opening], ['SPEAKER_01', 'Sorry, not interested.']], { ...diane, metadata: { direction: 'INCOMING' } });
    expect(transcript.speakers.map(({ role }) => role)).toEqual(['CONTACT', 'USER']);
  });

  test('on an outgoing call the caller is the user, though they speak first', () => {
    const transcript = resolve([
      ['SPEAKER_00', "Hi, I'm calling from Fernleigh Dental about your check-up next month."],
      ['SPEAKER_01', 'Oh yes, hello.'],
    ], { ...diane, metadata: { direction: 'OUTGOING', phoneNumber: '+44 20 7946 0321' } });
    expect(rolesOf(transcript)).toEqual([['USER', 'GREETING_MATCH', 'MEDIUM'], ['CONTACT', 'PHONE_FALLBACK', 'MEDIUM']]);
    expect(labelsOf(transcript)).toEqual(['Diane Smith', 'Contact …0321']);
  });

  test('a message left on an incoming call by someone calling from somewhere is the contact\'s', () => {
    const transcript = resolve([['SPEAKER_00', "Hi, it's Leo ringing from Ashgrove Motors, your car is ready to collect."]], { ...diane, metadata: { direction: 'INCOMING' } });
    expect(rolesOf(transcript)).toEqual([['CONTACT', 'GREETING_MATCH', 'MEDIUM']]);
  });

  // Neither is a speaker saying they placed the call: the direction's guess stands.
  test.each<[string, Turn[]]>([
    ['the one who answered asks', [['SPEAKER_00', 'Hello?'], ['SPEAKER_01', 'Hi, is that the homeowner?'], ['SPEAKER_00', 'Sorry, are you calling from the council?']]],
    ['both say it', [['SPEAKER_00', "Hi, I'm calling from the depot."], ['SPEAKER_01', "And I'm calling from the office, funnily enough."]]],
    ['said after the greeting window', [...opening, ['SPEAKER_00', "I'm calling from my mobile, by the way.", 40]]],
  ])('no claim when %s', (_case, turns) => {
    const transcript = resolve(turns, { ...diane, metadata: { direction: 'INCOMING' } });
    expect(rolesOf(transcript)).toEqual([['USER', 'POSITIONAL_FALLBACK', 'LOW'], ['CONTACT', 'POSITIONAL_FALLBACK', 'LOW']]);
  });

  test('without a known direction the claim decides nothing', () => {
    const transcript = resolve(coldCall, { ...diane, metadata: { direction: 'UNKNOWN' } });
    expect(rolesOf(transcript)).toEqual([['USER', 'POSITIONAL_FALLBACK', 'LOW'], ['CONTACT', 'POSITIONAL_FALLBACK', 'LOW']]);
    expect(transcript.speakerResolution.usedDirection).toBe(false);
  });

  // The metadata's direction is wrong here: the user made the call. The name said decides.
  test('a greeting naming the speaker beats the claim', () => {
    const transcript = resolve([['SPEAKER_00', "Hi, this is Diane, I'm calling from the clinic."], ['SPEAKER_01', 'Oh, hello.']], { ...diane, metadata: { direction: 'INCOMING' } });
    expect(rolesOf(transcript)).toEqual([['USER', 'GREETING_MATCH', 'HIGH'], ['CONTACT', 'BY_ELIMINATION', 'MEDIUM']]);
  });
});

describe('resolveSpeakers: labels', () => {
  test('phone fallback: the contact is labelled by the last four digits, the number never appears', () => {
    const transcript = resolve([['SPEAKER_00', 'Hello?'], ['SPEAKER_01', 'Hi, this is Diane.']], { userDisplayName: 'Diane', metadata: { phoneNumber: '+1 (555) 123-4567' } });
    // The role came by elimination: its MEDIUM confidence stays.
    expect(transcript.speakers[0]).toMatchObject({ role: 'CONTACT', label: 'Contact …4567', displayName: 'Contact …4567', labelSource: 'PHONE_FALLBACK', confidence: 'MEDIUM' });
    expect(transcript.speakerResolution).toMatchObject({ usedPhoneFallback: true, usedContactName: false });
    const json = JSON.stringify(transcript);
    for (const fragment of ['5551234567', '123-4567', '555', '1234567']) expect(json).not.toContain(fragment);
    expect(transcript.cleanText).toContain('Contact …4567: Hello?');
  });

  test('phone fallback keeps the confidence of the layer that decided the role', () => {
    const byMention = resolve([['SPEAKER_00', 'Thanks, Diane, noted.'], ['SPEAKER_01', 'Great.']], { userDisplayName: 'Diane', metadata: { phoneNumber: '555-0199' } });
    expect(rolesOf(byMention)).toEqual([['CONTACT', 'PHONE_FALLBACK', 'MEDIUM'], ['USER', 'NAME_MENTION', 'MEDIUM']]);
    const byChannel = resolve([['SPEAKER_00', 'Hello?'], ['SPEAKER_01', 'Hi.']], { userDisplayName: 'Diane', stereoUserChannel: 'right', metadata: { phoneNumber: '555-0199' } }, { diarizedByChannel: true });
    expect(rolesOf(byChannel)).toEqual([['CONTACT', 'PHONE_FALLBACK', 'MEDIUM'], ['USER', 'POSITIONAL_FALLBACK', 'MEDIUM']]);
  });

  test('phone fallback on a LOW guess: the label is the number\'s, the source stays POSITIONAL_FALLBACK (LOW goes with no other)', () => {
    const transcript = resolve([['SPEAKER_00', 'Hello?'], ['SPEAKER_01', 'Hi, about the table.']], { userDisplayName: 'Diane', metadata: { phoneNumber: '555-0199', direction: 'OUTGOING' } });
    expect(transcript.speakers.map(({ role, label, labelSource, confidence }) => [role, label, labelSource, confidence]))
      .toEqual([['CONTACT', 'Contact …0199', 'POSITIONAL_FALLBACK', 'LOW'], ['USER', 'Diane', 'POSITIONAL_FALLBACK', 'LOW']]);
    expect(transcript.speakerResolution).toMatchObject({ usedPhoneFallback: true, usedDirection: true });
  });

  // The spec's voice rule keeps VOICE_EMBEDDING when the profile's name is filled in; so does every
  // layer: USER_PROFILE and CONTACT_METADATA are for speakers that arrive named (below).
  test.each<[layer: string, turns: Turn[], extra: Partial<SpeakerResolutionInput>, sources: Speaker['labelSource'][]]>([
    ['a greeting', [['SPEAKER_00', 'Hi, this is Diane.'], ['SPEAKER_01', 'Hello.']], {}, ['GREETING_MATCH', 'BY_ELIMINATION']],
    ['mentions', [['SPEAKER_00', 'Okay Sheila, noted.'], ['SPEAKER_01', 'Thanks.']], {}, ['NAME_MENTION', 'NAME_MENTION']],
    ['the direction', [['SPEAKER_00', 'Hello?'], ['SPEAKER_01', 'Hi.']], {}, ['POSITIONAL_FALLBACK', 'POSITIONAL_FALLBACK']],
    ['a voice match', [['SPEAKER_00', 'Hello?'], ['SPEAKER_01', 'Hi.']], { voiceMatch: { status: 'MATCHED', speakerId: 'spk_0', score: 0.9 } }, ['VOICE_EMBEDDING', 'BY_ELIMINATION']],
  ])('names from the profile and the metadata keep the source of %s, not USER_PROFILE or CONTACT_METADATA', (_layer, turns, extra, sources) => {
    const transcript = resolve(turns, { ...outgoing, ...extra });
    expect(transcript.speakers.map(({ labelSource }) => labelSource)).toEqual(sources);
    expect(labelsOf(transcript).every((label) => label === 'Diane Smith' || label === 'Sheila Jones')).toBe(true);
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

describe('resolveSpeakers: speakers that arrive named', () => {
  test('a source speaker id that is a supplied name, whole: USER_PROFILE / CONTACT_METADATA (HIGH), before greetings and direction', () => {
    const transcript = resolve([['sheila JONES', 'Hello? This is Diane speaking.'], ['B', 'Hi.']], { ...names, metadata: { ...names.metadata, direction: 'INCOMING' } });
    expect(rolesOf(transcript)).toEqual([['CONTACT', 'CONTACT_METADATA', 'HIGH'], ['USER', 'BY_ELIMINATION', 'MEDIUM']]);
    expect(labelsOf(transcript)).toEqual(['Sheila Jones', 'Diane Smith']);
    const both = resolve([['Diane Smith', 'Hello?'], ['Sheila Jones', 'Hi.'], ['SPEAKER_02', 'Hi all.']]);
    expect(rolesOf(both)).toEqual([['USER', 'USER_PROFILE', 'HIGH'], ['CONTACT', 'CONTACT_METADATA', 'HIGH'], ['UNKNOWN', 'DIARIZATION', 'LOW']]);
  });

  test.each([
    ['a first name alone', 'Diane', names],
    ['a name both parties have', 'Alex Kim', { userDisplayName: 'Alex Kim', metadata: { contactName: 'alex kim' } }],
  ])('%s names no one', (_case, id, input) => {
    const transcript = resolve([[id, 'Hello?'], ['B', 'Hi.']], input);
    expect(transcript.speakers.map(({ labelSource }) => labelSource)).toEqual(['POSITIONAL_FALLBACK', 'POSITIONAL_FALLBACK']);
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
