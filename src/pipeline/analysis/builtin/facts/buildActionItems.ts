import type { AnalysisActionItem } from '../../../../domain/analysis/analysisSchema.js';
import type { CallMetadata } from '../../../../domain/calls/callTypes.js';
import type { Speaker } from '../../../../domain/transcripts/transcriptSchema.js';
import { actionKey, actionTitle } from './actionTitle.js';
import { ownerFieldsOf, type CallParties } from './callParties.js';
import type { ActionWords } from './ActionWords.js';
import { findActionCues, type ActionCue } from './findActionCues.js';
import type { DateMention } from './findDateMentions.js';
import { intentMetadataFor } from './intentMetadataFor.js';
import { clip } from '../../text/clip.js';
import type { SentenceFacts } from './sentenceFacts.js';
import { mergeActions, objectWordsOf, type FoundAction, type PlacedAction } from './mergeActions.js';
import { laterDateTime, turnsOf } from './nearbyEvidence.js';

/**
 * The action items of a call, one per action cue (see `findActionCues`), merged where several
 * are one action (see `mergeActions`).
 *
 * Owner: a promise (and "remind me to …") is the speaker's; a request is the other party's
 * (null when the call has not exactly two speakers); a joint action ("let's …") and one a third
 * party takes on ("my colleague will ring you") have no owner. Due date: the first date said in
 * the cue's part of the sentence, else in the sentence when it holds one action only, else the
 * call's date (`callDate`) when the part says it is due as the call ends ("now", "straight after
 * this call"). Priority: high for the lexicon's urgency words ("urgent", "asap", "today"), low
 * for its no-hurry words, else medium. Intent: the first of the lexicon's intent rows matching
 * the clause, else `task`.
 */
export function buildActionItems(
  call: readonly SentenceFacts[], parties: CallParties, metadata: CallMetadata, words: ActionWords, callDate: string,
): FoundAction[] {
  const placed: PlacedAction[] = [];
  const ignoredInKeys = [...words.objectStopWords, ...parties.speakers.flatMap((speaker) => speaker.displayName.split(/\s+/))];
  for (const facts of call) {
    const cues = findActionCues(facts.sentence, words);
    for (const cue of cues) {
      const speaker = parties.speaker(facts.sentence.segment.speakerId);
      if (!speaker) continue;
      const action = actionOf(cue, cues.length, speaker, { facts, call, parties, metadata, words, callDate });
      placed.push({
        ...action,
        segmentIndex: facts.sentence.segmentIndex,
        key: `${action.item.ownerSpeakerId ?? '-'}|${actionKey(action.item.title, ignoredInKeys)}`,
        ...objectWordsOf(action.item.title, words),
      });
    }
  }
  return mergeActions(placed);
}

interface ActionContext {
  facts: SentenceFacts;
  call: readonly SentenceFacts[];
  parties: CallParties;
  metadata: CallMetadata;
  words: ActionWords;
  callDate: string;
}

function actionOf(cue: ActionCue, cuesInSentence: number, speaker: Speaker, context: ActionContext): FoundAction {
  const { facts, parties, words } = context;
  const addressee = parties.other(speaker.speakerId);
  const owner = cue.kind === 'commitment' || cue.kind === 'selfReminder' ? speaker : cue.kind === 'request' ? addressee : null;
  const intent = cue.kind === 'selfReminder' ? 'reminder' : words.intents.find((row) => row.pattern.test(cue.clause))?.intent ?? 'task';
  const said = dateOf(cue, facts.dates, cuesInSentence);
  // "We should meet up" … "The 15th at noon?": a meeting takes the time agreed in the next turns.
  const agreed = intent === 'meeting' && !said?.dateTime ? laterDateTime(facts, context.call, turnsOf(context.call)) : null;
  const when = agreed?.when ?? said;
  const dueDate = when?.date ?? (words.immediacy.test(cue.part.text) ? context.callDate : null);
  const removable = [...facts.dates.map((mention) => mention.text), ...facts.amounts.filter((amount) => amount.kind === 'duration').map((amount) => amount.text)];
  const title = actionTitle(cue.clause, removable, {
    speakerName: speaker.displayName,
    addresseeName: addressee?.displayName ?? null,
    ownerIsSpeaker: owner === speaker,
    ownerIsAddressee: owner !== null && owner === addressee,
  }, words);
  const sentence = facts.sentence.text;
  const priority = words.priority.high.test(sentence) ? 'high' : words.priority.low.test(sentence) ? 'low' : 'medium';
  const item: AnalysisActionItem = {
    title,
    description: clip(sentence, 1000),
    dueDate,
    priority,
    ...ownerFieldsOf(owner),
    sourceSegmentIds: [facts.sentence.segment.id],
    intent,
    intentMetadata: intentMetadataFor({
      intent, kind: cue.kind, title, clause: cue.clause, when, whenSaidIn: agreed?.facts ?? null, facts, call: context.call, speaker, addressee, parties,
      metadata: context.metadata, words,
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
