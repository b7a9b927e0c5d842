import { eq } from 'drizzle-orm';
import type { Db } from '../../infrastructure/database/openDatabase.js';
import { adminSettings } from '../../infrastructure/database/schema.js';

/** The `admin_settings` table: setting name → JSON value, as saved on the admin page. */
export class StoredSettingRepository {
  constructor(private readonly db: Db) {}

  all(): Map<string, unknown> {
    return new Map(this.db.select().from(adminSettings).all().map((row) => [row.key, JSON.parse(row.value) as unknown]));
  }

  /** Stores every value, or removes the setting where it is `undefined`; all or nothing. */
  save(changes: ReadonlyMap<string, unknown>, now: number): void {
    this.db.transaction((tx) => {
      for (const [key, value] of changes) {
        if (value === undefined) {
          tx.delete(adminSettings).where(eq(adminSettings.key, key)).run();
          continue;
        }
        const json = JSON.stringify(value);
        tx.insert(adminSettings).values({ key, value: json, updatedAt: now })
          .onConflictDoUpdate({ target: adminSettings.key, set: { value: json, updatedAt: now } }).run();
      }
    });
  }
}
