import { inject } from 'vitest';
import { openDatabase } from '../../src/infrastructure/database/openDatabase.js';
import type { DatabaseHandle } from '../../src/infrastructure/database/SqlDatabase.js';
import { createPostgresDatabaseOn } from './postgres/throwawayCluster.js';

/**
 * Which engine this test run uses: `TEST_DATABASE=postgres npx vitest run` runs the suite on a
 * throwaway PostgreSQL cluster (test/helpers/postgres/globalSetup.ts), anything else on SQLite.
 */
export const testDatabaseEngine: 'sqlite' | 'postgres' = process.env.TEST_DATABASE === 'postgres' ? 'postgres' : 'sqlite';

/** A new, empty PostgreSQL database on the run's cluster; its URL. */
export function createPostgresDatabase(): Promise<string> {
  return createPostgresDatabaseOn(inject('postgresAdminUrl'));
}

/**
 * The environment a test app or server needs for its database: on a PostgreSQL run, a
 * `DATABASE_URL` naming a database of its own (one per app, so tests never see each other's
 * rows); on SQLite nothing (the database lives in the app's own DATA_DIR).
 */
export async function testDatabaseEnvironment(): Promise<Record<string, string>> {
  return testDatabaseEngine === 'postgres' ? { DATABASE_URL: await createPostgresDatabase() } : {};
}

/** Opens (migrated) the database a test uses beside `dataDir`: SQLite there, or a fresh PostgreSQL database. */
export async function openTestDatabase(dataDir: string, environment?: Record<string, string>): Promise<DatabaseHandle> {
  const { DATABASE_URL } = environment ?? await testDatabaseEnvironment();
  return openDatabase({ DATA_DIR: dataDir, DATABASE_URL });
}
