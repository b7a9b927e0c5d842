import { eq, lt, ne, or } from 'drizzle-orm';
import type { Config } from '../../config/configSchema.js';
import type { Db } from '../../infrastructure/database/openDatabase.js';
import { adminSessions } from '../../infrastructure/database/schema.js';
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
    private readonly db: Db,
    private readonly config: Pick<Config, 'ADMIN_SESSION_IDLE_MINUTES' | 'ADMIN_SESSION_MAX_HOURS'>,
  ) {}

  /** A new session; `id` goes into the cookie and is not kept. */
  start(now: number): AdminSession & { id: string } {
    const id = randomSecret();
    const session = { idHash: sha256Hex(id), csrfToken: randomSecret(), createdAt: now, lastSeenAt: now };
    this.removeExpired(now);
    this.db.insert(adminSessions).values(session).run();
    return { id, idHash: session.idHash, csrfToken: session.csrfToken, expiresAt: this.expiryOf(session) };
  }

  /** The live session with this cookie id, its idle clock restarted; undefined when unknown or ended. */
  resume(id: string, now: number): AdminSession | undefined {
    const idHash = sha256Hex(id);
    const row = this.db.select().from(adminSessions).where(eq(adminSessions.idHash, idHash)).get();
    if (!row) return undefined;
    if (this.expiryOf(row) <= now) {
      this.end(idHash);
      return undefined;
    }
    this.db.update(adminSessions).set({ lastSeenAt: now }).where(eq(adminSessions.idHash, idHash)).run();
    return { idHash, csrfToken: row.csrfToken, expiresAt: this.expiryOf({ ...row, lastSeenAt: now }) };
  }

  end(idHash: string): void {
    this.db.delete(adminSessions).where(eq(adminSessions.idHash, idHash)).run();
  }

  /** Signs out every other session (after a password change). */
  endAllExcept(idHash: string): void {
    this.db.delete(adminSessions).where(ne(adminSessions.idHash, idHash)).run();
  }

  private expiryOf(session: { createdAt: number; lastSeenAt: number }): number {
    return Math.min(session.lastSeenAt + this.idleMs(), session.createdAt + this.maxMs());
  }

  private removeExpired(now: number): void {
    this.db.delete(adminSessions)
      .where(or(lt(adminSessions.lastSeenAt, now - this.idleMs()), lt(adminSessions.createdAt, now - this.maxMs()))).run();
  }

  private idleMs(): number {
    return this.config.ADMIN_SESSION_IDLE_MINUTES * 60_000;
  }

  private maxMs(): number {
    return this.config.ADMIN_SESSION_MAX_HOURS * 3_600_000;
  }
}
