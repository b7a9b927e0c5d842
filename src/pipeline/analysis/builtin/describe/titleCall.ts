import type { CallOutcome } from './callOutcome.js';
import type { CallType, ConversationOutcome } from './classifyCall.js';
import { isNamedSpeaker } from '../facts/callParties.js';
import { speakerNameOf, type Conversation } from './readConversation.js';
import { clip } from '../../text/clip.js';
import { joinAsList } from './words.js';

/** How a title names the call type. */
const titleLabels: Record<CallType, string> = {
  sales: 'Sales call', support: 'Support call', scheduling: 'Scheduling call', follow_up: 'Follow-up call', complaint: 'Complaint',
  negotiation: 'Negotiation', inquiry: 'Inquiry', internal: 'Internal call', personal: 'Personal call', voicemail: 'Voicemail', other: 'Call',
};
/** How the one-line summary opens, by call type. */
const summaryOpenings: Record<CallType, string> = {
  sales: 'A sales call', support: 'A support call', scheduling: 'A scheduling call', follow_up: 'A follow-up call',
  complaint: 'A complaint call', negotiation: 'A negotiation', inquiry: 'An inquiry', internal: 'An internal call',
  personal: 'A personal call', voicemail: 'A voicemail', other: 'A call',
};
/** How the one-line summary ends, by outcome; outcomes that say nothing add nothing. */
const outcomeEndings: Record<ConversationOutcome, string> = {
  resolved: ', ending with the issue resolved', agreement: ', ending in agreement', scheduled: ', ending with a time scheduled',
  follow_up_needed: ', with follow-up needed', escalated: ', which was escalated', unresolved: ', left unresolved',
  declined: ', ending with a decline', informational: ', mainly an exchange of information', no_outcome: '', unclear: '',
};
/** Topics named in a title and in the one-line summary. */
const titleTopics = 3;
/** Schema limits (characters). */
const maxTitleChars = 120;
const maxOneLineChars = 300;

export interface CallHeadline {
  suggestedTitle: string | null;
  oneLineSummary: string | null;
}

/**
 * The title and the one-line summary, as a person would write them: what the call came to when
 * its action items say (see `findCallOutcome`): "Appointment moved to Tuesday 1 December at
 * 2:30 pm" and "Maria Lopez called Janet Hughes at Dr. Patel's office about appointment and
 * mum: appointment moved to Tuesday 1 December at 2:30 pm."; else templates of the call type,
 * its top tags and its outcome label ("Negotiation with Sheila Brown: contract, discount and
 * renewal"; "A negotiation between Diane and Sheila Brown about contract, discount and renewal,
 * ending in agreement."). Facts only: the speakers' and contact's names, the metadata's
 * organisation and direction, tags and outcome as found. Null when there is nothing to say.
 */
export function titleCall(
  conversation: Conversation, callType: CallType | null, outcome: ConversationOutcome | null, tags: readonly string[], callOutcome: CallOutcome | null = null,
): CallHeadline {
  const topics = joinAsList(tags.slice(0, titleTopics));
  const type = callType ?? 'other';
  const { contactName } = conversation;
  const counterpart = contactName ? `${type === 'voicemail' ? ' from' : ' with'} ${contactName}` : '';
  const typeTitle = `${titleLabels[type]}${counterpart}`;
  // A topic the outcome opens with ("appointment" before "appointment moved to …") is not said twice.
  const subjects = callOutcome ? tags.filter((tag) => !callOutcome.statement.toLowerCase().startsWith(tag.toLowerCase())).slice(0, 2) : [];
  const suggestedTitle = callOutcome
    ? clip(callOutcome.namesSubject ? upperFirst(callOutcome.statement) : `${subjects.length > 0 ? upperFirst(joinAsList(subjects)) : typeTitle}: ${callOutcome.statement}`, maxTitleChars)
    : callType !== null || contactName || topics ? clip(`${typeTitle}${topics ? `: ${topics}` : ''}`, maxTitleChars) : null;
  if (!conversation.utterances.some((utterance) => utterance.usable)) return { suggestedTitle, oneLineSummary: null };

  const about = topics ? ` about ${topics}` : '';
  const caller = type === 'voicemail' ? null : whoCalledWhom(conversation);
  if (callOutcome) {
    const opening = caller ?? `${summaryOpenings[type]}${between(conversation, type)}`;
    return { suggestedTitle, oneLineSummary: clip(`${opening}${about}: ${callOutcome.statement}.`, maxOneLineChars) };
  }
  const ending = outcome ? outcomeEndings[outcome] : '';
  return { suggestedTitle, oneLineSummary: clip(`${caller ?? `${summaryOpenings[type]}${between(conversation, type)}`}${about}${ending}.`, maxOneLineChars) };
}

/** " between Diane and Sheila Brown", " from Sheila Brown" (a voicemail), or nothing when nobody is named. */
function between(conversation: Conversation, type: CallType): string {
  const participants = participantsOf(conversation);
  return participants.length === 0 ? ''
    : participants.length === 1 ? `${type === 'voicemail' ? ' from' : ' with'} ${participants[0]}`
      : ` between ${joinAsList(participants)}`;
}

/**
 * "Maria Lopez called Janet Hughes at Dr. Patel's office" (an outgoing call) or "Janet Hughes from
 * Dr. Patel's office called Maria Lopez" (incoming), from the metadata's direction and
 * organisation and the named user and contact; null when the direction or a name is not known.
 */
function whoCalledWhom(conversation: Conversation): string | null {
  const { metadata, transcript } = conversation.input;
  const user = transcript.speakers.find((speaker) => speaker.role === 'USER' && isNamedSpeaker(speaker))?.displayName.trim();
  const contact = conversation.contactName;
  if (!user || !contact || !metadata.direction) return null;
  const organization = metadata.organization?.trim();
  return metadata.direction === 'OUTGOING'
    ? `${user} called ${contact}${organization ? ` at ${organization}` : ''}`
    : `${contact}${organization ? ` from ${organization}` : ''} called ${user}`;
}

function upperFirst(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * The speakers who said something, in order of their first words, as prose names them (an
 * unnamed party by their role: "the caller"), so nobody is left out; none when nobody carries a
 * real name ("a call between the caller and the user" says nothing).
 */
function participantsOf(conversation: Conversation): string[] {
  const names: string[] = [];
  let anyNamed = false;
  for (const segment of conversation.segments) {
    const speaker = conversation.speakers.get(segment.speakerId);
    const name = speakerNameOf(conversation, segment);
    if (speaker && isNamedSpeaker(speaker)) anyNamed = true;
    if (name && !names.includes(name)) names.push(name);
  }
  return anyNamed ? names : [];
}
