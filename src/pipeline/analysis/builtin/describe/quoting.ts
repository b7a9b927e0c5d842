import type { Segment } from '../../../../domain/transcripts/transcriptSchema.js';
import { speakerNameOf, type Conversation, type Utterance } from './readConversation.js';
import { capitalise, clip } from '../../text/clip.js';

/** A quoted sentence is cut to this many characters (the prose summary holds up to five in 3000). */
const maxQuotedSentenceChars = 400;

/** The sentence as said, ending in punctuation (a full stop is added when the transcriber gave none). */
export function asSentence(text: string, maxLength = maxQuotedSentenceChars): string {
  const cut = clip(text.trim(), maxLength);
  return /[.!?…]["'”’)\]]*$/.test(cut) ? cut : `${cut}.`;
}

/** "Diane: I'll send the contract by Friday." — the sentence as said, attributed to its speaker. */
export function quoteSentence(conversation: Conversation, utterance: Utterance): string {
  return `${capitalise(speakerNameOf(conversation, utterance.segment))}: ${asSentence(utterance.text)}`;
}

/**
 * The name of whoever the segment's speaker is talking to, when that is certain: the call has
 * exactly two speakers who said something. Null otherwise.
 */
export function otherPartyName(conversation: Conversation, segment: Segment): string | null {
  const others = new Map<string, Segment>();
  for (const candidate of conversation.segments) {
    if (candidate.speakerId !== segment.speakerId) others.set(candidate.speakerId, candidate);
  }
  if (others.size !== 1) return null;
  return speakerNameOf(conversation, [...others.values()][0]!);
}
