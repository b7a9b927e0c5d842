import Database from 'better-sqlite3';
import { drizzle, type BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../packageRoot.js';
import * as schema from './schema.js';

/** The drizzle query builder; `$client` is the raw better-sqlite3 connection for hand-tuned statements. */
export type Db = BetterSQLite3Database<typeof schema> & { $client: Database.Database };

export interface DatabaseHandle {
  /** Typed query builder. */
  db: Db;
  /** The raw connection, for prepared hot-path statements and transactions. */
  sqlite: Database.Database;
  close(): void;
}

export const migrationsFolder = join(packageRoot, 'src/infrastructure/database/migrations');

/**
 * Opens (creating if needed) `<dataDir>/callscope.db` in WAL mode with foreign keys enforced
 * and a busy timeout, so the API process and worker threads can share it. Migrations are
 * applied unless `applyMigrations` is false (the `migrate` command applies them explicitly).
 */
export function openDatabase(dataDir: string, options: { applyMigrations?: boolean } = {}): DatabaseHandle {
  mkdirSync(dataDir, { recursive: true });
  const sqlite = new Database(join(dataDir, 'callscope.db'));
  sqlite.pragma('journal_mode = WAL');
  // NORMAL is durable across process crashes in WAL mode; only an OS crash may lose the last commits.
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const db = drizzle(sqlite, { schema });
  if (options.applyMigrations !== false) applyMigrations(db);
  return { db, sqlite, close: () => sqlite.close() };
}

/** Applies every committed migration not yet recorded in the database; forward only. */
export function applyMigrations(db: Db): void {
  migrate(db, { migrationsFolder });
}
