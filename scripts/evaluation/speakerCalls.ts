/**
 * Scripted calls for `npm run eval:speakers`: who says what, the upload metadata, and the roles
 * and names the speaker resolution should give, by the rules documented on `resolveSpeakers`
 * (src/pipeline/speakers/resolveSpeakers.ts). Where those rules fall back to a positional LOW
 * guess (direction tiebreaker or first-speaker-is-user), the guess is what is expected.
 *
 * `expected[sourceSpeakerId].name` is the label the speaker should carry, or `null` for "no
 * name" (the speaker keeps its "Speaker N" label). A "Contact …NNNN" phone label is written out
 * where the rules produce one. `evidence`, where given, is the speaker's expected
 * `confidence/labelSource`, for the calls whose point is how sure a role is or where a label came from.
 */
import type { CallMetadata } from '../../src/domain/calls/callTypes.js';
import type { labelSources, speakerConfidences } from '../../src/domain/transcripts/transcriptSchema.js';

export type ScriptedSpeaker = 'SPEAKER_00' | 'SPEAKER_01' | 'SPEAKER_02';
export type ExpectedRole = 'USER' | 'CONTACT' | 'UNKNOWN';

export type ExpectedEvidence = `${(typeof speakerConfidences)[number]}/${(typeof labelSources)[number]}`;

export interface ScriptedLine {
  speaker: ScriptedSpeaker;
  text: string;
  /** When the line starts, for a line later in the call; by default right after the line before. */
  startSeconds?: number;
}

export interface ScriptedCall {
  name: string;
  userDisplayName?: string;
  metadata: Pick<CallMetadata, 'contactName' | 'phoneNumber' | 'direction'>;
  /** The ids a supplied transcript gives the speakers instead of `SPEAKER_NN` (e.g. their names). */
  sourceIds?: Partial<Record<ScriptedSpeaker, string>>;
  /** A stereo recording: the channel the recorder puts the user on, and whether diarization went by channel. */
  stereo?: { userChannel: 'left' | 'right'; diarizedByChannel: boolean };
  lines: ScriptedLine[];
  expected: Partial<Record<ScriptedSpeaker, { role: ExpectedRole; name: string | null; evidence?: ExpectedEvidence }>>;
}

const S0 = 'SPEAKER_00';
const S1 = 'SPEAKER_01';
const S2 = 'SPEAKER_02';
const line = (speaker: ScriptedSpeaker, text: string, startSeconds?: number): ScriptedLine => ({ speaker, text, ...(startSeconds === undefined ? {} : { startSeconds }) });
/** Three short lines each, the opening of a call with no names in it: what follows at 60 s is past the greeting window. */
const namelessOpening = [
  line(S0, 'Hello?'), line(S1, "Hi, it's about the order from Monday."), line(S0, 'Which order?'),
  line(S1, 'The garden chairs.'), line(S0, 'Let me check.'), line(S1, 'Sure.'),
];

export const speakerCalls: ScriptedCall[] = [
  {
    name: 'en: both introduce themselves',
    userDisplayName: 'Diane Smith',
    metadata: { contactName: 'Sheila Jones', direction: 'INCOMING' },
    lines: [line(S0, 'Hello, this is Diane.'), line(S1, "Hi, it's Sheila, do you have a minute?"), line(S0, 'Sure, go ahead.')],
    expected: { [S0]: { role: 'USER', name: 'Diane Smith' }, [S1]: { role: 'CONTACT', name: 'Sheila Jones' } },
  },
  {
    name: 'en: caller addresses the contact only (outgoing)',
    userDisplayName: 'Mark',
    metadata: { contactName: 'Laura Chen', direction: 'OUTGOING' },
    lines: [line(S0, 'Hello?'), line(S1, "Hi Laura, it's about the invoice from last week."), line(S0, 'Oh right, I sent it on Monday.')],
    expected: { [S0]: { role: 'CONTACT', name: 'Laura Chen' }, [S1]: { role: 'USER', name: 'Mark' } },
  },
  {
    name: 'no greeting, incoming (direction tiebreaker: first is user)',
    userDisplayName: 'Diane',
    metadata: { contactName: 'Sheila', direction: 'INCOMING' },
    lines: [line(S0, 'Yes?'), line(S1, 'The parcel arrived this morning.'), line(S0, 'Great, thanks for letting me know.')],
    expected: { [S0]: { role: 'USER', name: 'Diane' }, [S1]: { role: 'CONTACT', name: 'Sheila' } },
  },
  {
    name: 'no greeting, outgoing (direction tiebreaker: first is contact)',
    userDisplayName: 'Diane',
    metadata: { contactName: 'Sheila', direction: 'OUTGOING' },
    lines: [line(S0, 'Yes?'), line(S1, 'I am calling about the parcel.'), line(S0, 'It left the depot today.')],
    expected: { [S0]: { role: 'CONTACT', name: 'Sheila' }, [S1]: { role: 'USER', name: 'Diane' } },
  },
  {
    name: 'no greeting, no direction (positional: first is user)',
    userDisplayName: 'Diane',
    metadata: { contactName: 'Sheila' },
    lines: [line(S0, 'Hi there.'), line(S1, "I'm fine, thanks."), line(S0, 'Good to hear.')],
    expected: { [S0]: { role: 'USER', name: 'Diane' }, [S1]: { role: 'CONTACT', name: 'Sheila' } },
  },
  {
    name: 'only the contact named, by mention (beats the positional guess)',
    userDisplayName: 'Tom',
    metadata: { contactName: 'Priya Patel' },
    lines: [line(S0, 'Yes, I got the report yesterday.'), line(S1, 'Thanks, Priya, that really helps.'), line(S0, 'No problem at all.')],
    expected: { [S0]: { role: 'CONTACT', name: 'Priya Patel' }, [S1]: { role: 'USER', name: 'Tom' } },
  },
  {
    name: 'first name only mentioned, full names in metadata (beats the direction)',
    userDisplayName: 'Robert Miller',
    metadata: { contactName: 'Catherine Young', direction: 'OUTGOING' },
    lines: [line(S0, 'Catherine, did you see the numbers?'), line(S1, 'Yes, I did, they look fine to me.'), line(S0, 'Good, then we can ship.')],
    expected: { [S0]: { role: 'USER', name: 'Robert Miller' }, [S1]: { role: 'CONTACT', name: 'Catherine Young' } },
  },
  {
    name: 'AMBIGUOUS: both speakers mention both names',
    userDisplayName: 'Ben',
    metadata: { contactName: 'Anna', direction: 'INCOMING' },
    lines: [
      line(S0, 'Anna, as I said to Ben yesterday, the meeting moved.'),
      line(S1, 'Right, Ben told me, and Anna from accounting knows too.'),
    ],
    expected: { [S0]: { role: 'UNKNOWN', name: null }, [S1]: { role: 'UNKNOWN', name: null } },
  },
  {
    name: 'both named by both (greetings agree)',
    userDisplayName: 'Diane',
    metadata: { contactName: 'Sheila', direction: 'OUTGOING' },
    lines: [line(S0, 'Hi Sheila, this is Diane.'), line(S1, 'Hello Diane, Sheila here.'), line(S0, 'How was the trip?')],
    expected: { [S0]: { role: 'USER', name: 'Diane' }, [S1]: { role: 'CONTACT', name: 'Sheila' } },
  },
  {
    name: 'no contact name, phone number (phone fallback label)',
    userDisplayName: 'Diane',
    metadata: { phoneNumber: '+1 (555) 123-4567', direction: 'OUTGOING' },
    lines: [line(S0, 'Good afternoon, how can I help?'), line(S1, 'I would like to book a table for two.'), line(S0, 'Of course, for what time?')],
    // The role is the direction's LOW guess: the source stays POSITIONAL_FALLBACK, the only one LOW goes with.
    expected: { [S0]: { role: 'CONTACT', name: 'Contact …4567', evidence: 'LOW/POSITIONAL_FALLBACK' }, [S1]: { role: 'USER', name: 'Diane' } },
  },
  {
    name: 'phone number of four digits: never shown, contact keeps Speaker N',
    userDisplayName: 'Diane',
    metadata: { phoneNumber: '4567', direction: 'INCOMING' },
    lines: [line(S0, 'Hello?'), line(S1, 'This is an automated reminder.')],
    expected: { [S0]: { role: 'USER', name: 'Diane' }, [S1]: { role: 'CONTACT', name: null } },
  },
  {
    name: 'stranger introduces himself (name not in metadata), phone fallback',
    userDisplayName: 'Diane',
    metadata: { phoneNumber: '555-0199', direction: 'INCOMING' },
    lines: [line(S0, 'Hello?'), line(S1, 'Hi, this is Gary from Acme, calling about your warranty.'), line(S0, 'Not interested, thanks.')],
    expected: { [S0]: { role: 'USER', name: 'Diane' }, [S1]: { role: 'CONTACT', name: 'Contact …0199' } },
  },
  {
    name: 'three speakers, two introduce themselves',
    userDisplayName: 'Diane',
    metadata: { contactName: 'Sheila', direction: 'INCOMING' },
    lines: [
      line(S0, 'Hi, this is Diane.'),
      line(S1, "Hello, I'm Sheila, and my colleague is here too."),
      line(S2, 'And I am Robert from the office.'),
      line(S0, 'Nice to meet you both.'),
    ],
    expected: { [S0]: { role: 'USER', name: 'Diane' }, [S1]: { role: 'CONTACT', name: 'Sheila' }, [S2]: { role: 'UNKNOWN', name: null } },
  },
  {
    name: 'three speakers, only addresses (addresses need exactly two speakers)',
    userDisplayName: 'Diane',
    metadata: { contactName: 'Sheila', direction: 'OUTGOING' },
    lines: [line(S0, 'Hello Sheila.'), line(S1, 'Hi Diane.'), line(S2, 'Hello everyone.')],
    expected: { [S0]: { role: 'UNKNOWN', name: null }, [S1]: { role: 'UNKNOWN', name: null }, [S2]: { role: 'UNKNOWN', name: null } },
  },
  {
    name: 'one speaker, outgoing, no greeting (a message left: the user)',
    userDisplayName: 'Mark',
    metadata: { contactName: 'Laura Chen', direction: 'OUTGOING' },
    lines: [line(S0, 'Hey, just calling about the delivery, call me back when you can.')],
    expected: { [S0]: { role: 'USER', name: 'Mark' } },
  },
  {
    name: 'one speaker, incoming, no greeting (stays unknown)',
    userDisplayName: 'Mark',
    metadata: { contactName: 'Laura Chen', direction: 'INCOMING' },
    lines: [line(S0, 'Your appointment is confirmed for Tuesday at nine.')],
    expected: { [S0]: { role: 'UNKNOWN', name: null } },
  },
  {
    name: 'one speaker, incoming, contact introduces herself',
    userDisplayName: 'Mark',
    metadata: { contactName: 'Sheila', direction: 'INCOMING' },
    lines: [line(S0, 'Hi Mark, this is Sheila from the clinic, please call back.')],
    expected: { [S0]: { role: 'CONTACT', name: 'Sheila' } },
  },
  {
    name: 'es: habla / hola / soy, accents',
    userDisplayName: 'José García',
    metadata: { contactName: 'María López', direction: 'INCOMING' },
    lines: [line(S0, '¿Bueno? Habla José.'), line(S1, 'Hola José, soy María.'), line(S0, '¿Qué tal?')],
    expected: { [S0]: { role: 'USER', name: 'José García' }, [S1]: { role: 'CONTACT', name: 'María López' } },
  },
  {
    name: 'es: buenos días señora + le habla (surname with title)',
    userDisplayName: 'Pablo',
    metadata: { contactName: 'Carmen Ruiz', direction: 'INCOMING' },
    lines: [line(S0, '¿Diga?'), line(S1, 'Buenos días, señora Ruiz. Le habla Pablo.'), line(S0, 'Ah, sí, dígame.')],
    expected: { [S0]: { role: 'CONTACT', name: 'Carmen Ruiz' }, [S1]: { role: 'USER', name: 'Pablo' } },
  },
  {
    name: 'de: "Weber am Apparat" / "Guten Tag, Herr Weber, hier ist Anke"',
    userDisplayName: 'Jürgen Weber',
    metadata: { contactName: 'Anke Schulz', direction: 'OUTGOING' },
    lines: [line(S0, 'Weber am Apparat.'), line(S1, 'Guten Tag, Herr Weber, hier ist Anke Schulz.'), line(S0, 'Ja, worum geht es?')],
    expected: { [S0]: { role: 'USER', name: 'Jürgen Weber' }, [S1]: { role: 'CONTACT', name: 'Anke Schulz' } },
  },
  {
    name: 'de: upper-case "hier spricht MÜLLER", elimination',
    userDisplayName: 'Lena',
    metadata: { contactName: 'Klaus Müller', direction: 'OUTGOING' },
    lines: [line(S0, 'Ja, hallo?'), line(S1, 'Hallo, hier spricht MÜLLER.'), line(S0, 'Ach, Herr Müller, schön.')],
    expected: { [S0]: { role: 'USER', name: 'Lena' }, [S1]: { role: 'CONTACT', name: 'Klaus Müller' } },
  },
  {
    name: 'punctuation and case: "HI, THIS IS DIANE!!! Is this... Sheila?"',
    userDisplayName: 'Diane',
    metadata: { contactName: 'Sheila', direction: 'INCOMING' },
    lines: [line(S0, 'Hello??'), line(S1, 'HI, THIS IS DIANE!!! Is this... Sheila?'), line(S0, 'yes, speaking.')],
    expected: { [S0]: { role: 'CONTACT', name: 'Sheila' }, [S1]: { role: 'USER', name: 'Diane' } },
  },
  {
    name: 'no user display name: the user keeps Speaker N',
    metadata: { contactName: 'Sheila', direction: 'OUTGOING' },
    lines: [line(S0, 'Sheila speaking.'), line(S1, 'Hi, it is about the order.'), line(S0, 'Which one?')],
    expected: { [S0]: { role: 'CONTACT', name: 'Sheila' }, [S1]: { role: 'USER', name: null } },
  },
  {
    name: 'conflicting self-introductions are dropped (falls to direction)',
    userDisplayName: 'Diane',
    metadata: { contactName: 'Sheila', direction: 'INCOMING' },
    lines: [line(S0, 'This is Diane.'), line(S1, 'No, this is Diane.'), line(S0, 'Very funny.')],
    expected: { [S0]: { role: 'USER', name: 'Diane' }, [S1]: { role: 'CONTACT', name: 'Sheila' } },
  },
  {
    name: 'shared first name names neither (falls to direction)',
    userDisplayName: 'Alex Kim',
    metadata: { contactName: 'Alex Stone', direction: 'OUTGOING' },
    lines: [line(S0, 'Hi, this is Alex.'), line(S1, 'Hey Alex, this is Alex too.'), line(S0, 'Ha, what are the odds.')],
    expected: { [S0]: { role: 'CONTACT', name: 'Alex Stone' }, [S1]: { role: 'USER', name: 'Alex Kim' } },
  },
  {
    name: 'possessive: "is this Sheila\'s phone?" is a mention (beats the positional guess)',
    userDisplayName: 'Diane',
    metadata: { contactName: 'Sheila Jones' },
    lines: [line(S0, 'Hello?'), line(S1, "Hi, is this Sheila's phone?"), line(S0, 'Yes, who is calling?')],
    expected: {
      [S0]: { role: 'CONTACT', name: 'Sheila Jones', evidence: 'MEDIUM/NAME_MENTION' },
      [S1]: { role: 'USER', name: 'Diane', evidence: 'MEDIUM/NAME_MENTION' },
    },
  },
  {
    name: 'possessive with a typographic apostrophe: "Robert’s number"',
    userDisplayName: 'Tom',
    metadata: { contactName: 'Robert Miller' },
    lines: [line(S0, 'Hello?'), line(S1, 'Hi, sorry, is this Robert’s number?'), line(S0, 'It is, what can I do for you?')],
    expected: { [S0]: { role: 'CONTACT', name: 'Robert Miller', evidence: 'MEDIUM/NAME_MENTION' }, [S1]: { role: 'USER', name: 'Tom' } },
  },
  {
    name: 'line announcement "Robert Miller\'s office": no greeting of Robert, no mention (direction decides)',
    userDisplayName: 'Diane',
    metadata: { contactName: 'Robert Miller', direction: 'OUTGOING' },
    lines: [
      line(S0, "Good morning, Robert Miller's office."), line(S1, 'Hi, I am calling about the invoice, is he in?'),
      line(S0, 'He is in a meeting, can I take a message?'),
    ],
    expected: {
      [S0]: { role: 'CONTACT', name: 'Robert Miller', evidence: 'LOW/POSITIONAL_FALLBACK' },
      [S1]: { role: 'USER', name: 'Diane', evidence: 'LOW/POSITIONAL_FALLBACK' },
    },
  },
  {
    name: 'no possessive without the apostrophe: "Marcos" is not the contact Marco',
    userDisplayName: 'Elena',
    metadata: { contactName: 'Marco Díaz', direction: 'OUTGOING' },
    lines: [line(S0, '¿Diga?'), line(S1, 'Hola, llamo por el pedido de ayer.'), line(S0, 'Ah, sí, eso lo lleva Marcos, mi compañero.')],
    expected: { [S0]: { role: 'CONTACT', name: 'Marco Díaz', evidence: 'LOW/POSITIONAL_FALLBACK' }, [S1]: { role: 'USER', name: 'Elena' } },
  },
  {
    name: 'late self-introduction after a dropped line is no mention (direction decides)',
    userDisplayName: 'Diane',
    metadata: { contactName: 'Sheila', direction: 'OUTGOING' },
    lines: [...namelessOpening, line(S0, 'Sorry, the line dropped, this is Sheila again.', 60), line(S1, 'No problem.')],
    expected: {
      [S0]: { role: 'CONTACT', name: 'Sheila', evidence: 'LOW/POSITIONAL_FALLBACK' },
      [S1]: { role: 'USER', name: 'Diane', evidence: 'LOW/POSITIONAL_FALLBACK' },
    },
  },
  {
    name: 'late "Diane here, by the way"; the contact\'s mention of Diane still decides',
    userDisplayName: 'Diane',
    metadata: { contactName: 'Sheila' },
    lines: [...namelessOpening, line(S1, 'Diane here, by the way, in case you wondered.', 60), line(S0, "Thanks, Diane, I'll send them today.")],
    expected: {
      [S0]: { role: 'CONTACT', name: 'Sheila', evidence: 'MEDIUM/NAME_MENTION' },
      [S1]: { role: 'USER', name: 'Diane', evidence: 'MEDIUM/NAME_MENTION' },
    },
  },
  {
    name: 'phone fallback keeps the deciding layer\'s confidence (elimination after a greeting)',
    userDisplayName: 'Diane',
    metadata: { phoneNumber: '+44 20 7946 0958', direction: 'OUTGOING' },
    lines: [line(S0, 'Hello?'), line(S1, 'Hello, this is Diane, calling about the quote.'), line(S0, 'Ah yes, one moment.')],
    expected: {
      [S0]: { role: 'CONTACT', name: 'Contact …0958', evidence: 'MEDIUM/PHONE_FALLBACK' },
      [S1]: { role: 'USER', name: 'Diane', evidence: 'HIGH/GREETING_MATCH' },
    },
  },
  {
    name: 'supplied transcript naming its speakers: strict match on the supplied names (beats the direction)',
    userDisplayName: 'Diane Smith',
    metadata: { contactName: 'Sheila Jones', direction: 'OUTGOING' },
    sourceIds: { [S0]: 'Diane Smith', [S1]: 'Sheila Jones' },
    lines: [line(S0, 'Hello?'), line(S1, 'Hi, about the delivery.'), line(S0, 'Yes, it left today.')],
    expected: {
      [S0]: { role: 'USER', name: 'Diane Smith', evidence: 'HIGH/USER_PROFILE' },
      [S1]: { role: 'CONTACT', name: 'Sheila Jones', evidence: 'HIGH/CONTACT_METADATA' },
    },
  },
  {
    name: 'stereo, diarized by channel, user on the right (MEDIUM, beats the positional guess)',
    userDisplayName: 'Diane',
    metadata: { contactName: 'Sheila' },
    stereo: { userChannel: 'right', diarizedByChannel: true },
    lines: [line(S0, 'Hello?'), line(S1, 'Hi, about the delivery.'), line(S0, 'Yes, it left today.')],
    expected: {
      [S0]: { role: 'CONTACT', name: 'Sheila', evidence: 'MEDIUM/POSITIONAL_FALLBACK' },
      [S1]: { role: 'USER', name: 'Diane', evidence: 'MEDIUM/POSITIONAL_FALLBACK' },
    },
  },
  {
    name: 'stereo, but diarized by the model: the channel says nothing (positional)',
    userDisplayName: 'Diane',
    metadata: { contactName: 'Sheila' },
    stereo: { userChannel: 'right', diarizedByChannel: false },
    lines: [line(S0, 'Hello?'), line(S1, 'Hi, about the delivery.'), line(S0, 'Yes, it left today.')],
    expected: {
      [S0]: { role: 'USER', name: 'Diane', evidence: 'LOW/POSITIONAL_FALLBACK' },
      [S1]: { role: 'CONTACT', name: 'Sheila', evidence: 'LOW/POSITIONAL_FALLBACK' },
    },
  },
];
