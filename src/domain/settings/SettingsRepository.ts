import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { SqlDatabase } from '../../infrastructure/database/SqlDatabase.js';

/** Server-wide values kept in the database (generated secrets, the webhook secret), shared by every node. */
export class SettingsRepository {
  constructor(private readonly db: SqlDatabase) {}

  async get(key: string): Promise<string | undefined> {
    return (await this.db.get<{ value: string }>(sql`SELECT value FROM settings WHERE key = ${key}`))?.value;
  }

  /** Stores `value` under `key`, replacing what was there. */
  async set(key: string, value: string, now: number): Promise<void> {
    await this.db.run(sql`INSERT INTO settings (key, value, updated_at) VALUES (${key}, ${value}, ${now})
      ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`);
  }

  /** A random secret generated on first use and kept in the database (base64url, 32 bytes); nodes starting together agree on one. */
  async secret(key: string, now: number): Promise<Buffer> {
    const existing = await this.get(key);
    if (existing) return Buffer.from(existing, 'base64url');
    await this.db.run(sql`INSERT INTO settings (key, value, updated_at) VALUES (${key}, ${randomBytes(32).toString('base64url')}, ${now})
      ON CONFLICT DO NOTHING`);
    const stored = await this.get(key);
    if (!stored) throw new Error(`setting ${key} vanished right after creation`);
    return Buffer.from(stored, 'base64url');
  }
}
