import { desc } from 'drizzle-orm';
import type { Db } from '../../infrastructure/database/openDatabase.js';
import { adminAudit } from '../../infrastructure/database/schema.js';

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
  constructor(private readonly db: Db) {}

  record(entry: AdminAuditEntry, now: number): void {
    this.db.insert(adminAudit).values({
      at: now,
      actor: entry.actor,
      action: entry.action,
      target: entry.target ?? null,
      detail: entry.detail ? JSON.stringify(entry.detail) : null,
      clientIp: entry.clientIp ?? null,
    }).run();
  }

  newest(limit: number): AdminAuditRecord[] {
    return this.db.select().from(adminAudit).orderBy(desc(adminAudit.id)).limit(limit).all().map((row) => ({
      at: row.at,
      actor: row.actor,
      action: row.action,
      target: row.target,
      detail: row.detail ? (JSON.parse(row.detail) as Record<string, unknown>) : null,
      clientIp: row.clientIp,
    }));
  }
}
