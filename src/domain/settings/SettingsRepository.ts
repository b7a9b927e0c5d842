import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../../infrastructure/database/openDatabase.js';
import { settings } from '../../infrastructure/database/schema.js';

export class SettingsRepository {
  constructor(private readonly db: Db) {}

  get(key: string): string | undefined {
    return this.db.select().from(settings).where(eq(settings.key, key)).get()?.value;
  }


  /** Stores `value` under `key`, replacing what was there. */
  set(key: string, value: string, now: number): void {
    this.db.insert(settings).values({ key, value, updatedAt: now }).onConflictDoUpdate({ target: settings.key, set: { value, updatedAt: now } }).run();
  }

  /** A random secret generated on first use and kept in the database (base64url, 32 bytes). */
  secret(key: string, now: number): Buffer {
    const existing = this.get(key);
    if (existing) return Buffer.from(existing, 'base64url');
    this.db.insert(settings).values({ key, value: randomBytes(32).toString('base64url'), updatedAt: now }).onConflictDoNothing().run();
    return Buffer.from(this.get(key)!, 'base64url');
  }
}
