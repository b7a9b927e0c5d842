import type { Static } from 'typebox';
import type { ImportantDateSchema } from '../../../../domain/analysis/analysisSchema.js';
import { onePerKey } from './onePerKey.js';
import { clip } from '../../text/clip.js';
import type { Sentence } from '../../text/sentences.js';
import type { SentenceFacts } from './sentenceFacts.js';

export type ImportantDate = Static<typeof ImportantDateSchema>;

/**
 * Every date said in the call, once per day and time: the first saying gives `text` and
 * `description` (its sentence), later ones add their segments. A time said without a day is
 * kept apart per time and wording ("at 3"), since nothing says which day it belongs to. A vague
 * mention ("lovely weather today", "have a nice weekend") is listed only as a deadline or in a
 * sentence holding an action (`hasAction`).
 */
export function importantDatesOf(call: readonly SentenceFacts[], hasAction: (sentence: Sentence) => boolean): ImportantDate[] {
  return onePerKey(
    call,
    (facts) => facts.dates,
    (mention, facts) => {
      if (mention.isVague && !mention.isDeadline && !hasAction(facts.sentence)) return null;
      return mention.date === null ? `time ${mention.time} ${mention.text.toLowerCase()}` : `${mention.date} ${mention.time ?? ''}`;
    },
    (mention, facts) => ({
      text: clip(mention.text, 120),
      date: mention.date,
      time: mention.time,
      description: clip(facts.sentence.text, 300),
      sourceSegmentIds: [facts.sentence.segment.id],
    }),
  );
}
