import { openPostgresDatabase } from './postgres/PostgresDatabase.js';
import { openSqliteDatabase } from './sqlite/SqliteDatabase.js';
import type { DatabaseHandle } from './SqlDatabase.js';

export type { DatabaseHandle, SqlDatabase } from './SqlDatabase.js';

export interface DatabaseLocation {
  /** postgres://… for PostgreSQL; unset for the embedded SQLite database in `DATA_DIR`. */
  DATABASE_URL?: string | undefined;
  DATA_DIR: string;
}

/**
 * Opens the configured database: PostgreSQL when `DATABASE_URL` is set, else
 * `<DATA_DIR>/callscope.db`. Migrations are applied unless `applyMigrations` is false (the
 * `migrate` command applies them itself, to report what it did).
 */
export async function openDatabase(location: DatabaseLocation, options: { applyMigrations?: boolean } = {}): Promise<DatabaseHandle> {
  const database = location.DATABASE_URL ? openPostgresDatabase(location.DATABASE_URL) : openSqliteDatabase(location.DATA_DIR);
  if (options.applyMigrations !== false) {
    try {
      await database.migrate();
    } catch (error) {
      await database.close();
      throw error;
    }
  }
  return database;
}
