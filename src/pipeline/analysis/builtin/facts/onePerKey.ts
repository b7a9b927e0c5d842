import type { SentenceFacts } from './sentenceFacts.js';

/**
 * One list item per key over the mentions of every sentence, in order of first saying: the
 * first mention builds the item, a later one with the same key only adds its segment to the
 * item's citations. A mention whose key is null is left out.
 */
export function onePerKey<Mention, Item extends { sourceSegmentIds: string[] }>(
  call: readonly SentenceFacts[],
  mentionsOf: (facts: SentenceFacts) => readonly Mention[],
  keyOf: (mention: Mention, facts: SentenceFacts) => string | null,
  build: (mention: Mention, facts: SentenceFacts) => Item,
): Item[] {
  const byKey = new Map<string, Item>();
  for (const facts of call) {
    for (const mention of mentionsOf(facts)) {
      const key = keyOf(mention, facts);
      if (key === null) continue;
      const known = byKey.get(key);
      const segmentId = facts.sentence.segment.id;
      if (!known) byKey.set(key, build(mention, facts));
      else if (!known.sourceSegmentIds.includes(segmentId)) known.sourceSegmentIds.push(segmentId);
    }
  }
  return [...byKey.values()];
}
