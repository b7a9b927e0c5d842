import type { AnalysisActionItem } from '../../../../domain/analysis/analysisSchema.js';
import type { CallMetadata } from '../../../../domain/calls/callTypes.js';
import type { Speaker } from '../../../../domain/transcripts/transcriptSchema.js';
import { actionKey, actionTitle } from './actionTitle.js';
import { ownerFieldsOf, type CallParties } from './callParties.js';
import type { ActionWords } from './FactLexicon.js';
import { findActionCues, type ActionCue, type ActionKind } from './findActionCues.js';
import type { DateMention } from './findDateMentions.js';
import { intentMetadataFor } from './intentMetadataFor.js';
import { clip } from './sentences.js';
import type { SentenceFacts } from './sentenceFacts.js';

/** An action item with how it was said: commitments are listed from it too. */
export interface FoundAction {
  item: AnalysisActionItem;
  kind: ActionKind;
  /** The sentence's speaker. */
  speakerId: string;
}

const PRIORITY_RANK = { low: 0, medium: 1, high: 2 } as const;

/**
 * The action items of a call, one per action cue (see `findActionCues`), duplicates merged.
 *
 * Owner: a promise (and "remind me to …") is the speaker's; a request is the other party's
 * (null when the call has not exactly two speakers); a joint action ("let's …") has no owner.
 * Due date: the first date said in the cue's part of the sentence, else in the sentence when
 * it holds one action only. Priority: high for the lexicon's urgency words ("urgent", "asap",
 * "today"), low for its no-hurry words, else medium. Intent: the first of the lexicon's intent
 * rows matching the clause, else `task`. Duplicates (same owner, same verb and object, e.g.
 * "send the contract" said twice) are merged: cited segments joined, the first due date kept,
 * the higher priority kept, metadata fields filled from the repetition (or, when the first was
 * only a `task`, the repetition's more specific intent taken).
 */
export function buildActionItems(
  call: readonly SentenceFacts[], parties: CallParties, metadata: CallMetadata, words: ActionWords,
): FoundAction[] {
  const found = new Map<string, FoundAction>();
  const ignoredInKeys = [...words.objectStopWords, ...parties.speakers.flatMap((speaker) => speaker.displayName.split(/\s+/))];
  for (const facts of call) {
    const cues = findActionCues(facts.sentence, words);
    for (const cue of cues) {
      const speaker = parties.speaker(facts.sentence.segment.speakerId);
      if (!speaker) continue;
      const action = actionOf(cue, cues.length, speaker, { facts, call, parties, metadata, words });
      const key = `${action.item.ownerSpeakerId ?? '-'}|${actionKey(action.item.title, ignoredInKeys)}`;
      const earlier = found.get(key);
      if (earlier) mergeInto(earlier.item, action.item);
      else found.set(key, action);
    }
  }
  return [...found.values()];
}

interface ActionContext {
  facts: SentenceFacts;
  call: readonly SentenceFacts[];
  parties: CallParties;
  metadata: CallMetadata;
  words: ActionWords;
}

function actionOf(cue: ActionCue, cuesInSentence: number, speaker: Speaker, context: ActionContext): FoundAction {
  const { facts, parties, words } = context;
  const addressee = parties.other(speaker.speakerId);
  const owner = cue.kind === 'commitment' || cue.kind === 'selfReminder' ? speaker : cue.kind === 'request' ? addressee : null;
  const when = dateOf(cue, facts.dates, cuesInSentence);
  const removable = [...facts.dates.map((mention) => mention.text), ...facts.amounts.filter((amount) => amount.kind === 'duration').map((amount) => amount.text)];
  const title = actionTitle(cue.clause, removable, {
    speakerName: speaker.displayName,
    addresseeName: addressee?.displayName ?? null,
    ownerIsSpeaker: owner === speaker,
    ownerIsAddressee: owner !== null && owner === addressee,
  }, words);
  const intent = cue.kind === 'selfReminder' ? 'reminder' : words.intents.find((row) => row.pattern.test(cue.clause))?.intent ?? 'task';
  const sentence = facts.sentence.text;
  const priority = words.priority.high.test(sentence) ? 'high' : words.priority.low.test(sentence) ? 'low' : 'medium';
  const item: AnalysisActionItem = {
    title,
    description: clip(sentence, 1000),
    dueDate: when?.date ?? null,
    priority,
    ...ownerFieldsOf(owner),
    sourceSegmentIds: [facts.sentence.segment.id],
    intent,
    intentMetadata: intentMetadataFor({
      intent, kind: cue.kind, title, clause: cue.clause, when, facts, call: context.call, speaker, addressee, parties, metadata: context.metadata, words,
    }),
  };
  return { item, kind: cue.kind, speakerId: speaker.speakerId };
}

/** The first dated mention in the cue's part; else in the sentence when the sentence holds this one action only. */
function dateOf(cue: ActionCue, dates: readonly DateMention[], cuesInSentence: number): DateMention | null {
  const dated = dates.filter((mention) => mention.date !== null);
  const inPart = dated.find((mention) => mention.index >= cue.part.index && mention.index < cue.part.index + cue.part.text.length);
  return inPart ?? (cuesInSentence === 1 ? dated[0] ?? null : null);
}

function mergeInto(kept: AnalysisActionItem, duplicate: AnalysisActionItem): void {
  kept.sourceSegmentIds = [...new Set([...kept.sourceSegmentIds, ...duplicate.sourceSegmentIds])];
  kept.dueDate ??= duplicate.dueDate;
  if (PRIORITY_RANK[duplicate.priority] > PRIORITY_RANK[kept.priority]) kept.priority = duplicate.priority;
  if (kept.intent === duplicate.intent) kept.intentMetadata = { ...duplicate.intentMetadata, ...kept.intentMetadata };
  else if (kept.intent === 'task') {
    // The repetition said how ("I'll send it" … "I'll email it"): the more specific intent wins.
    kept.intent = duplicate.intent;
    kept.intentMetadata = duplicate.intentMetadata;
  }
}
