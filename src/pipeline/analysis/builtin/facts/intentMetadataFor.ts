import type { ActionIntent, IntentMetadata } from '../../../../domain/analysis/analysisSchema.js';
import type { CallMetadata } from '../../../../domain/calls/callTypes.js';
import type { Speaker } from '../../../../domain/transcripts/transcriptSchema.js';
import { isNamedSpeaker, type CallParties } from './callParties.js';
import type { EmailMention } from './contactDetails.js';
import type { ActionWords } from './ActionWords.js';
import type { ActionKind } from './findActionCues.js';
import type { DateMention } from './findDateMentions.js';
import { clip } from '../../text/clip.js';
import type { SentenceFacts } from './sentenceFacts.js';
import { anyOfWords, escapeRegExp } from '../../text/regexWords.js';
import { EVIDENCE_WINDOW_TURNS, MEETING_LENGTH_WINDOW_TURNS, sentencesNear, turnsOf } from './nearbyEvidence.js';

/** What an action item's metadata is drawn from. */
export interface ActionEvidence {
  intent: ActionIntent;
  kind: ActionKind;
  title: string;
  /** The action clause as said, after the cue. */
  clause: string;
  /** The date the action is set for (its due date or the meeting time). */
  when: DateMention | null;
  /** The sentence `when` was said in, when not the action's own (a meeting time agreed a turn later). */
  whenSaidIn: SentenceFacts | null;
  facts: SentenceFacts;
  /** Every sentence's facts: addresses and numbers are often said a turn later. */
  call: readonly SentenceFacts[];
  speaker: Speaker;
  addressee: Speaker | null;
  parties: CallParties;
  metadata: CallMetadata;
  words: ActionWords;
}

/** `IntentMetadataSchema` limits: a meeting lasts 1 to 1440 minutes, at most 20 attendees. */
const DURATION_MINUTES = { min: 1, max: 1440 } as const;
const MAX_ATTENDEES = 20;
const MINUTES_PER_HOUR = 60;

const MEETING_HINTS = new Set(['meet', 'zoom', 'teams', 'phone']);
const MESSAGE_HINTS = new Set(['whatsapp', 'sms', 'telegram']);

/** Whom an action is directed at: a speaker, or a third party by the name said. */
interface Recipient {
  speaker: Speaker | null;
  name: string | null;
}

const firstName = (name: string) => (name.split(/\s+/)[0] ?? '').toLowerCase();
const says = (text: string, word: string) => word !== '' && new RegExp(`\\b${escapeRegExp(word)}\\b`, 'i').test(text);

/**
 * The specification's `intentMetadata` for an action, with only what the call grounds: a field
 * nothing said supports is left out. "Nearby" is within `EVIDENCE_WINDOW_TURNS` turns (see
 * `sentencesNear`). Meeting: provider, the named parties and third parties of the sentence as
 * attendees (an address said nearby whose local part holds their first name as email),
 * `proposedAt` when a day and time were said, the length said nearby (or further off with a
 * meeting word: "a forty-five minute conversation"), the title, a place said with the action or
 * its time. Email: the recipient's address said in the action's segment or by the recipient
 * nearby, their name, the object as subject, the sentence as preview. Call and message: the
 * number said in the action's segment, by the recipient nearby, or before it when the action
 * points back to it ("on that number"), else the metadata's number when the recipient is the
 * contact. Reminder: `remindAt` when a day and time were said.
 */
export function intentMetadataFor(evidence: ActionEvidence): IntentMetadata {
  const { intent, facts, title } = evidence;
  const sentence = facts.sentence.text;
  const recipient = recipientOf(evidence);
  const hint = evidence.words.providerHints.find((candidate) => candidate.pattern.test(sentence))?.hint;
  const metadata: IntentMetadata = {};
  switch (intent) {
    case 'meeting': {
      if (hint && MEETING_HINTS.has(hint)) metadata.providerHint = hint;
      const attendees = attendeesOf(evidence);
      if (attendees.length > 0) metadata.attendees = attendees;
      if (evidence.when?.dateTime) metadata.proposedAt = evidence.when.dateTime;
      const duration = durationMinutesOf(evidence);
      if (duration !== null) metadata.durationMinutes = duration;
      metadata.title = title;
      const location = [sentence, evidence.whenSaidIn?.sentence.text ?? '']
        .map((text) => evidence.words.location.exec(text)?.groups?.location).find(Boolean);
      if (location) metadata.location = location;
      break;
    }
    case 'email': {
      const email = emailFor(evidence, recipient);
      if (email) metadata.toEmail = email.address;
      if (recipient.name) metadata.toName = recipient.name;
      const subject = subjectOf(title, evidence.words);
      if (subject) metadata.subject = subject;
      metadata.bodyPreview = clip(sentence, 300);
      break;
    }
    case 'call':
    case 'message': {
      if (intent === 'message' && hint && MESSAGE_HINTS.has(hint)) {
        metadata.channel = hint;
        metadata.providerHint = hint;
      }
      const phoneNumber = phoneFor(evidence, recipient);
      if (phoneNumber) metadata.phoneNumber = phoneNumber;
      if (intent === 'call' && recipient.name) metadata.contactName = recipient.name;
      const handle = evidence.words.handle.exec(sentence)?.[0];
      if (intent === 'message' && handle) metadata.handle = handle;
      if (intent === 'message') metadata.bodyPreview = clip(sentence, 300);
      break;
    }
    case 'reminder':
      if (evidence.when?.dateTime) metadata.remindAt = evidence.when.dateTime;
      metadata.title = title;
      metadata.notes = clip(sentence, 500);
      break;
    case 'task':
      metadata.title = title;
      metadata.notes = clip(sentence, 500);
      break;
    case 'none':
      break;
  }
  return metadata;
}

/**
 * Whom the action is for: the pronoun right after a channel verb ("email *me* a scan"), a party
 * or third party named in the clause ("email Mark"), else the
 * pronoun's ("send *me*" is the speaker, "call *you*" the addressee), else by how it was said:
 * a promise is for the other party, a request for the one asking. Names only for named speakers.
 */
function recipientOf(evidence: ActionEvidence): Recipient {
  const { clause, kind, speaker, addressee } = evidence;
  const asRecipient = (party: Speaker | null): Recipient => ({ speaker: party, name: party && isNamedSpeaker(party) ? party.displayName : null });
  // The pronoun right after a channel verb says whom it reaches ("ask Nationwide … and *email me* a scan").
  const channelled = new RegExp(`\\b(?:${anyOfWords(evidence.words.ditransitiveVerbs)})\\s+(me|us|you)\\b`, 'i').exec(clause)?.[1]?.toLowerCase();
  if (channelled) return asRecipient(channelled === 'you' ? addressee : speaker);
  const namedParty = evidence.parties.speakers.find((party) => isNamedSpeaker(party) && says(clause, firstName(party.displayName)));
  if (namedParty) return asRecipient(namedParty);
  const thirdParty = evidence.facts.names.find((mention) => says(clause, mention.name));
  if (thirdParty) return { speaker: null, name: thirdParty.name };
  if (/\b(?:me|us)\b/i.test(clause)) return asRecipient(speaker);
  if (/\byou\b/i.test(clause)) return asRecipient(addressee);
  if (kind === 'commitment') return asRecipient(addressee);
  if (kind === 'request') return asRecipient(speaker);
  return { speaker: null, name: null };
}

/** The sentences near the action, nearest first (see `sentencesNear`). */
function nearby(evidence: ActionEvidence, windowTurns = EVIDENCE_WINDOW_TURNS): SentenceFacts[] {
  return sentencesNear(evidence.facts, evidence.call, windowTurns, turnsOf(evidence.call));
}

/** Said in the action's own segment, or by the recipient. */
function saidWithActionOrByRecipient(facts: SentenceFacts, evidence: ActionEvidence, recipient: Recipient): boolean {
  return facts.sentence.segmentIndex === evidence.facts.sentence.segmentIndex
    || (recipient.speaker !== null && facts.sentence.segment.speakerId === recipient.speaker.speakerId);
}

/** An address said with the action or by the recipient nearby; for a third party, only one holding their first name. */
function emailFor(evidence: ActionEvidence, recipient: Recipient): EmailMention | null {
  for (const facts of nearby(evidence)) {
    for (const email of facts.emails) {
      const holdsName = recipient.name !== null && email.address.split('@')[0]?.includes(firstName(recipient.name));
      if (recipient.speaker === null ? holdsName : saidWithActionOrByRecipient(facts, evidence, recipient)) return email;
    }
  }
  return null;
}

/** A number said with the action, by the recipient nearby, or before it when pointed back to; else the metadata's, when the recipient is the contact. */
function phoneFor(evidence: ActionEvidence, recipient: Recipient): string | null {
  const pointsBack = evidence.words.numberReference.test(evidence.clause);
  for (const facts of nearby(evidence)) {
    const before = facts.sentence.segmentIndex < evidence.facts.sentence.segmentIndex;
    if (!saidWithActionOrByRecipient(facts, evidence, recipient) && !(pointsBack && before)) continue;
    const phone = facts.amounts.find((amount) => amount.kind === 'phone_number');
    if (phone) return phone.number ?? phone.text;
  }
  const metadataNumber = evidence.metadata.phoneNumber?.trim();
  return metadataNumber && recipient.speaker?.role === 'CONTACT' ? metadataNumber : null;
}

/** The named parties, then third parties named in the sentence, each with an address said nearby that holds their first name. */
function attendeesOf(evidence: ActionEvidence): { name: string; email?: string }[] {
  // Someone the call named before ("our adjuster, Fiona Marsh") counts when the action's sentence
  // says their first name ("I'll book Fiona in"), under the fullest name the call gave them.
  const sentenceWords = new Set(evidence.facts.sentence.text.toLowerCase().match(/[\p{L}'’-]+/gu) ?? []);
  const named = evidence.call.flatMap((facts) => facts.names).map((mention) => mention.name)
    .filter((name) => sentenceWords.has(firstName(name)))
    .sort((first, second) => second.length - first.length);
  const names = [
    ...evidence.parties.speakers.filter(isNamedSpeaker).map((speaker) => speaker.displayName),
    ...evidence.facts.names.map((mention) => named.find((full) => firstName(full) === firstName(mention.name)) ?? mention.name),
    ...named,
  ];
  const emails = nearby(evidence).flatMap((facts) => facts.emails);
  const distinct = [...new Map(names.map((name) => [name.toLowerCase(), name])).values()];
  return distinct.slice(0, MAX_ATTENDEES).map((name) => {
    const email = emails.find((candidate) => candidate.address.split('@')[0]?.includes(firstName(name)));
    return email ? { name, email: email.address } : { name };
  });
}

/**
 * The length of a meeting in whole minutes, within the schema's range: the first said nearby,
 * else one said further off right before a meeting word ("a forty-five minute conversation").
 */
function durationMinutesOf(evidence: ActionEvidence): number | null {
  const meetingWord = new RegExp(`^\\s*(?:${anyOfWords(evidence.words.meetingNouns)})\\b`, 'i');
  const lengths = (facts: SentenceFacts, withMeetingWord: boolean) => facts.amounts.filter((amount) => amount.kind === 'duration'
    && (!withMeetingWord || meetingWord.test(facts.sentence.text.slice(amount.index + amount.text.length))));
  const candidates = [
    ...nearby(evidence).flatMap((facts) => lengths(facts, false)),
    ...nearby(evidence, MEETING_LENGTH_WINDOW_TURNS).flatMap((facts) => lengths(facts, true)),
  ];
  for (const amount of candidates) {
    if (amount.value === null) continue;
    const minutes = amount.unit === 'minutes' ? amount.value : amount.unit === 'hours' ? amount.value * MINUTES_PER_HOUR : null;
    if (minutes !== null && Number.isInteger(minutes) && minutes >= DURATION_MINUTES.min && minutes <= DURATION_MINUTES.max) return minutes;
  }
  return null;
}

/** The object of the title ("Send the revised contract to Sheila" → "Revised contract"), or null for a pronoun. */
function subjectOf(title: string, words: ActionWords): string | null {
  const afterVerb = title.replace(/^\S+\s*/, '');
  const end = words.objectEnd.exec(afterVerb);
  const object = (end ? afterVerb.slice(0, end.index) : afterVerb).split(/\s+/).filter(Boolean);
  const stop = new Set(words.objectStopWords);
  while (object.length > 0 && stop.has((object[0] ?? '').toLowerCase())) object.shift();
  if (object.length === 0) return null;
  const subject = object.join(' ');
  return clip(subject.charAt(0).toUpperCase() + subject.slice(1), 200);
}
