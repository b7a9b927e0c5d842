import { AnalysisSchema, type Analysis } from '../../../domain/analysis/analysisSchema.js';
import type { AnalysisInput } from '../Analyser.js';
import { buildActionItems } from './facts/buildActionItems.js';
import { callPartiesOf } from './facts/callParties.js';
import { findActionCues } from './facts/findActionCues.js';
import { findOpenQuestions } from './facts/findOpenQuestions.js';
import { findPeople } from './facts/findPeople.js';
import { findStatements } from './facts/findStatements.js';
import { importantDatesOf } from './facts/importantDatesOf.js';
import { lexiconFor } from './facts/lexiconFor.js';
import { numbersAndAmountsOf } from './facts/numbersAndAmountsOf.js';
import { sentenceFactsOf } from './facts/sentenceFacts.js';
import { sentencesOf, type Sentence } from '../text/sentences.js';
import { calendarDateIn, isKnownTimeZone, zoneOffsetMinutes } from '../text/timeZones.js';

/** The typed lists of an Analysis v2 the fact extractor fills. */
export type FactListKey =
  | 'actionItems' | 'followUps' | 'importantDates' | 'decisions' | 'commitments'
  | 'openQuestions' | 'risks' | 'opportunities' | 'peopleMentioned' | 'numbersAndAmounts';

/** The fact half of a built-in analysis: every list an array (never null), and the extractor's own warnings. */
export type ExtractedFacts = { [Key in FactListKey]: NonNullable<Analysis[Key]> } & { qualityWarnings: string[] };

/** Below this much speech a call may hold too little to extract from: said in a warning, never an error. */
export const SHORT_CALL_SPEECH_SECONDS = 15;

/** Zone used when the configured one is unknown to `Intl`. */
const FALLBACK_TIME_ZONE = 'UTC';

/**
 * The facts of a call, by rules and lexicons, without a language model: action items with
 * owners and intents, follow-ups, dates, decisions, commitments, open questions, risks,
 * opportunities, people and amounts. Pure and synchronous.
 *
 * Grounding: every name, address, phone number, date and amount emitted was said in the
 * transcript or given in the metadata (speaker names are the transcript's). Two things are
 * derived rather than copied: a spelled address is written out ("john dot smith at acme dot
 * com" → `john.smith@acme.com`), and a date is resolved against `recordedAt` in `timeZone`
 * ("next Tuesday at 3" → 2026-03-10 15:00, a bare hour from 1 to 7 read as afternoon).
 *
 * The lexicon follows `transcript.language` (English for `en*` and `und`); another language is
 * read with English and said in `qualityWarnings`, as are a short call, an unknown time zone and
 * lists cut to the schema's maximum length.
 */
export function extractFacts(input: AnalysisInput): ExtractedFacts {
  const { transcript, metadata } = input;
  const qualityWarnings: string[] = [];
  const { lexicon, supported } = lexiconFor(transcript.language);
  if (!supported) qualityWarnings.push(`facts_language_unsupported: no fact lexicon for "${transcript.language}"; read with English rules`);
  const speechSeconds = transcript.segments.reduce((sum, segment) => sum + Math.max(0, segment.endSeconds - segment.startSeconds), 0);
  if (speechSeconds < SHORT_CALL_SPEECH_SECONDS) qualityWarnings.push(`facts_short_call: ${speechSeconds.toFixed(1)} s of speech; facts may be incomplete`);
  let timeZone = input.timeZone;
  if (!isKnownTimeZone(timeZone)) {
    qualityWarnings.push(`facts_time_zone_unknown: "${timeZone}" is no known time zone; dates resolved in ${FALLBACK_TIME_ZONE}`);
    timeZone = FALLBACK_TIME_ZONE;
  }
  const clock = { recordedAt: input.recordedAt, timeZone, offsetMinutes: zoneOffsetMinutes(timeZone, input.recordedAt) };

  const sentences = sentencesOf(transcript.segments, lexicon.sentences.abbreviations);
  const parties = callPartiesOf(transcript);
  // The organisation's words are capitalised but no person ("ask Acme Supplies").
  const call = sentenceFactsOf(sentences, clock, lexicon, metadata.organization?.split(/\s+/) ?? []);
  const actions = buildActionItems(call, parties, metadata, lexicon.actions, calendarDateIn(input.recordedAt, timeZone));
  const statements = findStatements(sentences, lexicon.statements);
  const cuesOf = (sentence: Sentence) => findActionCues(sentence, lexicon.actions);
  const isRequest = (sentence: Sentence) => cuesOf(sentence).some((cue) => cue.kind === 'request' || cue.kind === 'joint');

  const facts: ExtractedFacts = {
    actionItems: actions.map((action) => action.item),
    followUps: actions.map(({ item }) => ({ text: item.title, ownerSpeakerId: item.ownerSpeakerId, dueDate: item.dueDate, sourceSegmentIds: item.sourceSegmentIds })),
    importantDates: importantDatesOf(call, (sentence) => cuesOf(sentence).length > 0),
    decisions: statements.decisions,
    commitments: actions.filter((action) => action.kind === 'commitment').map(({ item, speakerId, said }) => ({
      text: said, speakerId, dueDate: item.dueDate, sourceSegmentIds: item.sourceSegmentIds,
    })),
    openQuestions: findOpenQuestions(sentences, lexicon.statements.openQuestions, isRequest),
    risks: statements.risks,
    opportunities: statements.opportunities,
    peopleMentioned: findPeople(sentences, call.flatMap((facts) => facts.names), parties, metadata, lexicon.people),
    numbersAndAmounts: numbersAndAmountsOf(call),
    qualityWarnings,
  };
  return withinSchemaLimits(facts);
}

const factListKeys: readonly FactListKey[] = [
  'actionItems', 'followUps', 'importantDates', 'decisions', 'commitments', 'openQuestions', 'risks', 'opportunities', 'peopleMentioned', 'numbersAndAmounts',
];

/** The schema's `maxItems` of a list (its non-null branch), so the limits are written once. */
function maxItemsOf(key: FactListKey): number {
  const branches: readonly unknown[] = AnalysisSchema.properties[key].anyOf;
  for (const branch of branches) {
    if (typeof branch === 'object' && branch !== null && 'maxItems' in branch && typeof branch.maxItems === 'number') return branch.maxItems;
  }
  return Number.POSITIVE_INFINITY;
}

/** Each list cut to its schema maximum, first items kept (they come in call order), with a warning per cut list. */
function withinSchemaLimits(facts: ExtractedFacts): ExtractedFacts {
  for (const key of factListKeys) {
    const max = maxItemsOf(key);
    const list: unknown[] = facts[key];
    if (list.length <= max) continue;
    facts.qualityWarnings.push(`facts_list_truncated: ${list.length - max} ${key} beyond the schema's ${max} dropped`);
    list.length = max;
  }
  return facts;
}
