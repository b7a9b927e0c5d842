import type { CallType, ConversationOutcome } from './classifyCall.js';
import { isNamedSpeaker } from '../facts/callParties.js';
import type { Conversation } from './readConversation.js';
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
 * The title ("Negotiation with Sheila Brown: contract, discount and renewal") and the one-line
 * summary ("A negotiation between Diane and Sheila Brown about contract, discount and renewal,
 * ending in agreement."), both templates filled with facts only: the call type and outcome found,
 * the call's top tags, the contact's name (the metadata's, or a resolved contact speaker's) and
 * the speakers' names. Null when there is nothing to say.
 */
export function titleCall(conversation: Conversation, callType: CallType | null, outcome: ConversationOutcome | null, tags: readonly string[]): CallHeadline {
  const topics = joinAsList(tags.slice(0, titleTopics));
  const type = callType ?? 'other';
  const { contactName } = conversation;
  const counterpart = contactName ? `${type === 'voicemail' ? ' from' : ' with'} ${contactName}` : '';
  const suggestedTitle = callType !== null || contactName || topics
    ? clip(`${titleLabels[type]}${counterpart}${topics ? `: ${topics}` : ''}`, maxTitleChars)
    : null;
  if (!conversation.utterances.some((utterance) => utterance.usable)) return { suggestedTitle, oneLineSummary: null };

  const participants = participantsOf(conversation);
  const between = participants.length === 0 ? ''
    : participants.length === 1 ? `${type === 'voicemail' ? ' from' : ' with'} ${participants[0]}`
      : ` between ${joinAsList(participants)}`;
  const about = topics ? ` about ${topics}` : '';
  const ending = outcome ? outcomeEndings[outcome] : '';
  return { suggestedTitle, oneLineSummary: clip(`${summaryOpenings[type]}${between}${about}${ending}.`, maxOneLineChars) };
}

/**
 * The names of the speakers who said something, in order of their first words, placeholders
 * ("Speaker 2") included so nobody is left out; none when nobody carries a real name (a list of
 * placeholders says nothing).
 */
function participantsOf(conversation: Conversation): string[] {
  const names: string[] = [];
  let anyNamed = false;
  for (const segment of conversation.segments) {
    const speaker = conversation.speakers.get(segment.speakerId);
    const name = speaker?.displayName.trim() || segment.speakerDisplayName.trim();
    if (speaker && isNamedSpeaker(speaker)) anyNamed = true;
    if (name && !names.includes(name)) names.push(name);
  }
  return anyNamed ? names : [];
}
