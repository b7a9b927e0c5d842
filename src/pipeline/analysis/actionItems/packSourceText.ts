import type { AnalysisActionItem } from '../../../domain/analysis/analysisSchema.js';
import type { Segment } from '../../../domain/transcripts/transcriptSchema.js';

/** Longest excerpt kept in `sourceText`, characters. */
const EXCERPT_CHARACTERS = 200;

/**
 * An action item's evidence packed into its `sourceText`, in one line:
 * `priority=<high|medium|low>; segments=<seg_0003,seg_0004>; excerpt="<what was said>"`.
 * The excerpt is the first cited segment's text (cut at a word boundary with "…" beyond 200
 * characters; double quotes inside it become single quotes, so the field stays parseable);
 * `segments=` is empty when nothing is cited.
 */
export function packSourceText(item: Pick<AnalysisActionItem, 'priority' | 'sourceSegmentIds'>, segments: ReadonlyMap<string, Segment>): string {
  const cited = item.sourceSegmentIds.map((id) => segments.get(id)).find((segment) => segment !== undefined);
  const excerpt = cited ? truncate(cited.text.replace(/"/g, "'"), EXCERPT_CHARACTERS) : '';
  return `priority=${item.priority}; segments=${item.sourceSegmentIds.join(',')}; excerpt="${excerpt}"`;
}

function truncate(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const cut = text.slice(0, limit - 1);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), limit / 2))}…`;
}
