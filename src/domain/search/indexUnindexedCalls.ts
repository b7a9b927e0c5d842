import { sql } from 'drizzle-orm';
import { reindexCall, type ReindexDependencies } from './reindexCall.js';

/**
 * Indexes every COMPLETED call that has no search rows: calls completed before the search index
 * existed (`callscope search-index` after an upgrade). Calls are indexed one at a time, oldest
 * first, each in its own transaction; one whose documents cannot be read is skipped (counted).
 */
export async function indexUnindexedCalls(dependencies: ReindexDependencies): Promise<{ indexed: number; skipped: number }> {
  const unindexed = await dependencies.database.all<{ id: string }>(sql`SELECT calls.id AS id FROM calls
    LEFT JOIN search_calls ON search_calls.call_id = calls.id
    WHERE calls.status = 'COMPLETED' AND calls.deleting_since IS NULL AND search_calls.call_id IS NULL ORDER BY calls.seq`);
  let indexed = 0;
  let skipped = 0;
  for (const { id } of unindexed) {
    try {
      if ((await reindexCall(dependencies, id)) === 'indexed') indexed += 1;
    } catch {
      skipped += 1;
    }
  }
  return { indexed, skipped };
}
