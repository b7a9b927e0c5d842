import { sql } from 'drizzle-orm';
import type { SqlDatabase } from '../../infrastructure/database/SqlDatabase.js';
import { columnsOf, insertInto } from '../../infrastructure/database/sqlFragments.js';
import { adminAudit } from '../../infrastructure/database/tables.js';

export type AdminActor = (typeof adminAudit.$inferSelect)['actor'];

/** One thing done in the admin area. `detail` must hold no secrets: names and plain values only. */
export interface AdminAuditEntry {
  actor: AdminActor;
  /** What was done, snake_case: `sign_in`, `sign_in_failed`, `settings_change`, … */
  action: string;
  /** What it was done to (`session`, `settings`, `api_key`, a model folder…). */
  target?: string;
  detail?: Record<string, unknown>;
  clientIp?: string;
}

export type AdminAuditRecord = Required<Pick<AdminAuditEntry, 'actor' | 'action'>> & {
  at: number;
  target: string | null;
  detail: Record<string, unknown> | null;
  clientIp: string | null;
};

/** The `admin_audit` table: append-only, read newest first. */
export class AdminAuditLog {
  constructor(private readonly db: SqlDatabase) {}

  async record(entry: AdminAuditEntry, now: number): Promise<void> {
    await this.db.run(insertInto(adminAudit, [{
      at: now,
      actor: entry.actor,
      action: entry.action,
      target: entry.target ?? null,
      detail: entry.detail ? JSON.stringify(entry.detail) : null,
      clientIp: entry.clientIp ?? null,
    }]));
  }

  async newest(limit: number): Promise<AdminAuditRecord[]> {
    const rows = await this.db.all<typeof adminAudit.$inferSelect>(sql`SELECT ${columnsOf(adminAudit)} FROM admin_audit ORDER BY id DESC LIMIT ${limit}`);
    return rows.map((row) => ({
      at: row.at,
      actor: row.actor,
      action: row.action,
      target: row.target,
      detail: row.detail ? (JSON.parse(row.detail) as Record<string, unknown>) : null,
      clientIp: row.clientIp,
    }));
  }
}
