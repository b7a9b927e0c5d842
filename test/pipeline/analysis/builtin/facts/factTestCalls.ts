import { expect } from 'vitest';
import type { AnalysisActionItem } from '../../../../../src/domain/analysis/analysisSchema.js';
export { RECORDED_AT, TIME_ZONE, TURN_SECONDS, callOf, defaultMetadata, type Turn } from '../../../../../scripts/evaluation/dialogueCalls.js';

/** The one action item whose title matches, failing the test (and listing the titles) when there is none or more. */
export function itemTitled(facts: { actionItems: readonly AnalysisActionItem[] }, title: RegExp): AnalysisActionItem {
  const items = facts.actionItems.filter((item) => title.test(item.title));
  expect(items.map((item) => item.title), `action items titled ${title} among ${JSON.stringify(facts.actionItems.map((item) => item.title))}`).toHaveLength(1);
  return items[0] as AnalysisActionItem;
}
