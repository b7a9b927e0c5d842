import type { Static } from 'typebox';
import type { NumberOrAmountSchema } from '../../../../domain/analysis/analysisSchema.js';
import { onePerKey } from './onePerKey.js';
import { clip } from '../../text/clip.js';
import type { SentenceFacts } from './sentenceFacts.js';

export type NumberOrAmount = Static<typeof NumberOrAmountSchema>;

/**
 * Every amount said in the call (see `findAmounts`), once per kind and wording: a repetition
 * ("$1,200 … yes, $1,200") adds its segment. `context` is the sentence of the first saying.
 */
export function numbersAndAmountsOf(call: readonly SentenceFacts[]): NumberOrAmount[] {
  return onePerKey(
    call,
    (facts) => facts.amounts,
    (amount) => `${amount.kind} ${amount.text.toLowerCase()}`,
    (amount, facts) => ({
      text: clip(amount.text, 80),
      kind: amount.kind,
      value: amount.value,
      unit: amount.unit,
      currency: amount.currency,
      context: clip(facts.sentence.text, 200),
      sourceSegmentIds: [facts.sentence.segment.id],
    }),
  );
}
