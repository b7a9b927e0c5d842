import type { AnalysisActionItem } from '../../src/domain/analysis/analysisSchema.js';

/** What the battery reads of an extracted item. */
type ScoredItem = Pick<AnalysisActionItem, 'title' | 'description' | 'intent' | 'ownerDisplayName' | 'dueDate'>;
import type { BatteryDialogue } from './dialogueBattery.js';

/** One dialogue of the battery, scored: what was wrong (empty when it is fully right). */
export interface DialogueScore {
  dialogue: BatteryDialogue;
  problems: string[];
  extracted: readonly ScoredItem[];
}

/**
 * A dialogue's items against the expected ones: each expected item is matched to the first
 * unmatched extracted item whose title and description mention it, then its intent, owner and
 * due date are checked where the battery gives them; every extracted item left over is an extra.
 */
export function scoreDialogue(dialogue: BatteryDialogue, extracted: readonly ScoredItem[]): DialogueScore {
  const problems: string[] = [];
  const used = new Set<number>();
  for (const expected of dialogue.items) {
    const at = extracted.findIndex((item, index) => !used.has(index) && expected.mentions.test(`${item.title} ${item.description ?? ''}`));
    if (at < 0) {
      problems.push(`missing ${expected.mentions}`);
      continue;
    }
    used.add(at);
    const item = extracted[at]!;
    if (expected.intent !== undefined && item.intent !== expected.intent) problems.push(`intent ${item.intent} (expected ${expected.intent})`);
    if (expected.owner !== undefined && item.ownerDisplayName !== expected.owner) problems.push(`owner ${item.ownerDisplayName ?? 'none'} (expected ${expected.owner ?? 'none'})`);
    if (expected.due !== undefined && item.dueDate !== expected.due) problems.push(`due ${item.dueDate ?? 'none'} (expected ${expected.due ?? 'none'})`);
  }
  const extra = extracted.length - used.size;
  if (extra > 0) problems.push(`${extra} extra`);
  return { dialogue, problems, extracted };
}

/** Dialogues fully right per category, in the battery's order of categories. */
export function rightByCategory(scores: readonly DialogueScore[]): Map<string, { right: number; total: number }> {
  const byCategory = new Map<string, { right: number; total: number }>();
  for (const { dialogue, problems } of scores) {
    const counts = byCategory.get(dialogue.category) ?? { right: 0, total: 0 };
    counts.total++;
    if (problems.length === 0) counts.right++;
    byCategory.set(dialogue.category, counts);
  }
  return byCategory;
}
