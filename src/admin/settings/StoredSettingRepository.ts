import { sql } from 'drizzle-orm';
import type { SqlDatabase } from '../../infrastructure/database/SqlDatabase.js';

/** The row of the `settings` table that counts the saves of admin settings. */
const revisionKey = 'admin_settings_revision';

/** The `admin_settings` table: setting name → JSON value, as saved on the admin page. */
export class StoredSettingRepository {
  constructor(private readonly db: SqlDatabase) {}

  async all(): Promise<Map<string, unknown>> {
    const rows = await this.db.all<{ key: string; value: string }>(sql`SELECT key, value FROM admin_settings`);
    return new Map(rows.map((row) => [row.key, JSON.parse(row.value) as unknown]));
  }

  /**
   * Counts the saves (0 before the first): one cheap query tells another node whether anything
   * changed since it last looked (a removed setting included, which no timestamp would show).
   */
  async revision(): Promise<number> {
    return Number((await this.db.get<{ value: string }>(sql`SELECT value FROM settings WHERE key = ${revisionKey}`))?.value ?? 0);
  }

  /** Stores every value, or removes the setting where it is `undefined`; all or nothing. */
  save(changes: ReadonlyMap<string, unknown>, now: number): Promise<void> {
    return this.db.transaction(async (tx) => {
      for (const [key, value] of changes) {
        if (value === undefined) {
          await tx.run(sql`DELETE FROM admin_settings WHERE key = ${key}`);
          continue;
        }
        await tx.run(sql`INSERT INTO admin_settings (key, value, updated_at) VALUES (${key}, ${JSON.stringify(value)}, ${now})
          ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`);
      }
      await tx.run(sql`INSERT INTO settings (key, value, updated_at) VALUES (${revisionKey}, '1', ${now})
        ON CONFLICT (key) DO UPDATE SET value = CAST(CAST(settings.value AS INTEGER) + 1 AS TEXT), updated_at = excluded.updated_at`);
    });
  }
}
