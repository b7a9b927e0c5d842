import { sql } from 'drizzle-orm';
import type { SqlDatabase } from '../../infrastructure/database/SqlDatabase.js';

/** Assumed processing time of one call before any has been measured, milliseconds. */
export const defaultTypicalCallMs = 60_000;
/** How long a computed figure is reused, so polling does not aggregate events each time. */
const cacheMs = 30_000;

/**
 * Figures about recent processing, from the processing events of the last 50 calls that
 * completed: the median of their total stage time (robust to one very long recording).
 */
export class ProcessingStatistics {
  private cached?: { value: number; at: number };

  constructor(private readonly db: SqlDatabase) {}

  async typicalCallMs(now: number): Promise<number> {
    if (this.cached && now - this.cached.at < cacheMs) return this.cached.value;
    const rows = await this.db.all<{ total: number }>(sql`
      SELECT sum(duration_ms) AS total FROM processing_events
      WHERE call_id IN (SELECT id FROM calls WHERE status = 'COMPLETED' ORDER BY seq DESC LIMIT 50)
        AND duration_ms IS NOT NULL
      GROUP BY call_id ORDER BY total`);
    const median = rows.length > 0 ? rows[Math.floor(rows.length / 2)]!.total : defaultTypicalCallMs;
    this.cached = { value: median, at: now };
    return median;
  }
}
