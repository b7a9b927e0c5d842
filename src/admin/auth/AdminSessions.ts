import { sql } from 'drizzle-orm';
import type { Config } from '../../config/configSchema.js';
import type { SqlDatabase } from '../../infrastructure/database/SqlDatabase.js';
import { columnsOf, insertInto } from '../../infrastructure/database/sqlFragments.js';
import { adminSessions } from '../../infrastructure/database/tables.js';
import { randomSecret, sha256Hex } from '../credentials/sha256.js';

/** A signed-in session as the guard sees it. */
export interface AdminSession {
  /** sha256 of the cookie's id: the row's key. */
  idHash: string;
  csrfToken: string;
  /** When the session ends unless used again (idle limit), or at the latest (absolute limit); ms. */
  expiresAt: number;
}

/**
 * Admin sign-in sessions in the `admin_sessions` table. A session ends after
 * `ADMIN_SESSION_IDLE_MINUTES` without a request, and `ADMIN_SESSION_MAX_HOURS` after sign-in
 * however active; both limits are read when a session is used.
 */
export class AdminSessions {
  constructor(
    private readonly db: SqlDatabase,
    private readonly config: Pick<Config, 'ADMIN_SESSION_IDLE_MINUTES' | 'ADMIN_SESSION_MAX_HOURS'>,
  ) {}

  /** A new session; `id` goes into the cookie and is not kept. */
  async start(now: number): Promise<AdminSession & { id: string }> {
    const id = randomSecret();
    const session = { idHash: sha256Hex(id), csrfToken: randomSecret(), createdAt: now, lastSeenAt: now };
    await this.removeExpired(now);
    await this.db.run(insertInto(adminSessions, [session]));
    return { id, idHash: session.idHash, csrfToken: session.csrfToken, expiresAt: this.expiryOf(session) };
  }

  /** The live session with this cookie id, its idle clock restarted; undefined when unknown or ended. */
  async resume(id: string, now: number): Promise<AdminSession | undefined> {
    const idHash = sha256Hex(id);
    const row = await this.db.get<typeof adminSessions.$inferSelect>(sql`SELECT ${columnsOf(adminSessions)} FROM admin_sessions WHERE id_hash = ${idHash}`);
    if (!row) return undefined;
    if (this.expiryOf(row) <= now) {
      await this.end(idHash);
      return undefined;
    }
    await this.db.run(sql`UPDATE admin_sessions SET last_seen_at = ${now} WHERE id_hash = ${idHash}`);
    return { idHash, csrfToken: row.csrfToken, expiresAt: this.expiryOf({ ...row, lastSeenAt: now }) };
  }

  async end(idHash: string): Promise<void> {
    await this.db.run(sql`DELETE FROM admin_sessions WHERE id_hash = ${idHash}`);
  }

  /** Signs out every other session (after a password change). */
  async endAllExcept(idHash: string): Promise<void> {
    await this.db.run(sql`DELETE FROM admin_sessions WHERE id_hash <> ${idHash}`);
  }

  private expiryOf(session: { createdAt: number; lastSeenAt: number }): number {
    return Math.min(session.lastSeenAt + this.idleMs(), session.createdAt + this.maxMs());
  }

  private async removeExpired(now: number): Promise<void> {
    await this.db.run(sql`DELETE FROM admin_sessions WHERE last_seen_at < ${now - this.idleMs()} OR created_at < ${now - this.maxMs()}`);
  }

  private idleMs(): number {
    return this.config.ADMIN_SESSION_IDLE_MINUTES * 60_000;
  }

  private maxMs(): number {
    return this.config.ADMIN_SESSION_MAX_HOURS * 3_600_000;
  }
}
