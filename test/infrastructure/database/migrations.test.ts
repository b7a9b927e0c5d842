import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { expect, test } from 'vitest';
import { openDatabase } from '../../../src/infrastructure/database/openDatabase.js';
import { postgresMigrationsFolder } from '../../../src/infrastructure/database/postgres/PostgresDatabase.js';
import { openSqliteDatabase, sqliteMigrationsFolder } from '../../../src/infrastructure/database/sqlite/SqliteDatabase.js';
import { createPostgresDatabase, testDatabaseEngine } from '../../helpers/testDatabase.js';

/**
 * Migrations are forward-only and never edited once committed: each committed file's sha256 is
 * pinned here, for each engine. A new migration adds a line; changing an existing line means an
 * edited migration.
 */
const committedPostgresMigrations: Record<string, string> = {
  '0000_initial.sql': 'f9dd6e3909ba286978feb76a36b4594d29f6015af4f8cf11ef71cb360738764c',
  '0001_node_process_scope.sql': '7ae72a83a3f2c83d3bfd72a84f23adb0ce0d62dcf347091b8957fb7b1ee3c583',
  '0002_speaker_corrections_and_webhooks.sql': 'a630533d8066867d0f376c172f9fd0c88e264c2a58ca760c116c3e17bfdac84e',
  '0003_search_index.sql': 'b63d0f59118eacb9c2542c6f90f8f06a89fda1068d40604baada7249aa0f66d3',
  '0004_calls_updated_at_index.sql': '54c755b70af518fbaa98dc2e8f01a046677ad4a5a2633d65b2a1fd0f5f2d7c57',
  '0005_access_audit_and_legal_holds.sql': 'eaf788a63ea5a53865f95f0446f4b09abecaadb3801d013aab5511d749ae2417',
};

const committedMigrations: Record<string, string> = {
  '0000_initial.sql': 'c32bebdf887e7960a9e5b5eaeab9a55091216f5be688cdb539bbe4ccb11171ef',
  '0001_processing_queue.sql': 'de4006bbf7dbfa44dc6e8d0fa2ad6ed87bfde397dfd0bf7477ed2a2745e42181',
  '0002_voice_profiles.sql': '6a9937482703194751af9e93f2a23e746283f41a874cf3f3c641aadf327143da',
  '0003_admin.sql': 'e5e56b7c93552a204d200f92b31b635a79a8453f4402a8dac379183369e87209',
  '0004_transcription_callbacks.sql': '0bc109ffc7d7072a34a93c950d848a863655752f621615f053f856f5f64c0858',
  '0005_nodes.sql': 'cca5d0adb6cd83cef8b454b59b5e557f67724338ee412acd0b12e5b94d9875f0',
  '0006_node_process_scope.sql': '7b2fdbdea43bef6ba96fadf17016e909101ffb91ad10dcf7868190358f8e9322',
  '0007_speaker_corrections_and_webhooks.sql': '6cf0bc464c3290c85181ffec861648af5d3948148db887679449a5f5c406710e',
  '0008_search_index.sql': '5cf63ed48cb1244f09207dd0eab06cf0c9b8e35a88ca7903795695dc0dc524a9',
  '0009_calls_updated_at_index.sql': '6cb058fffcc46962503e939e3b5997f352b5c60c826f03623e51bb374e2c9448',
  '0010_access_audit_and_legal_holds.sql': '58c1fae33fa07429de81ef20baf9c059f19001bff293a64535fb1feeb9f5afc1',
};

const engines = [
  { engine: 'SQLite', folder: sqliteMigrationsFolder, pinned: committedMigrations },
  { engine: 'PostgreSQL', folder: postgresMigrationsFolder, pinned: committedPostgresMigrations },
];

test.each(engines)('$engine: committed migrations are unchanged and every migration file is pinned', ({ folder, pinned }) => {
  const files = readdirSync(folder).filter((name) => name.endsWith('.sql')).sort();
  expect(files).toEqual(Object.keys(pinned).sort());
  for (const file of files) {
    const digest = createHash('sha256').update(readFileSync(join(folder, file))).digest('hex');
    expect(digest, file).toBe(pinned[file]);
  }
});

test.each(engines)('$engine: the journal lists every migration file in order', ({ folder, pinned }) => {
  const journal = JSON.parse(readFileSync(join(folder, 'meta/_journal.json'), 'utf8')) as { entries: { tag: string }[] };
  expect(journal.entries.map((entry) => `${entry.tag}.sql`)).toEqual(Object.keys(pinned).sort());
});

test('a fresh database gets every table with foreign keys on and WAL journaling', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'callscope-migrate-'));
  const total = Object.keys(committedMigrations).length;
  try {
    // The SQLite handle itself: its raw connection answers the SQLite-only questions (PRAGMAs).
    const database = openSqliteDatabase(dataDir);
    try {
      expect(await database.migrate()).toEqual({ applied: total, total });
      const tables = database.client.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[];
      expect(tables.map((table) => table.name)).toEqual(expect.arrayContaining(['users', 'calls', 'call_artifacts', 'action_items', 'processing_events', 'idempotency_records', 'settings']));
      expect(database.client.pragma('foreign_keys', { simple: true })).toBe(1);
      expect(database.client.pragma('journal_mode', { simple: true })).toBe('wal');
    } finally {
      await database.close();
    }
    // Applying again on an up-to-date database is a no-op.
    const reopened = await openDatabase({ DATA_DIR: dataDir });
    try {
      expect(await reopened.migrate()).toEqual({ applied: 0, total });
    } finally {
      await reopened.close();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test.runIf(testDatabaseEngine === 'postgres')('PostgreSQL: nodes starting together migrate one at a time; both end up on every migration', async () => {
  const url = await createPostgresDatabase();
  const dataDir = mkdtempSync(join(tmpdir(), 'callscope-migrate-'));
  try {
    const nodes = await Promise.all([0, 1, 2].map(() => openDatabase({ DATA_DIR: dataDir, DATABASE_URL: url }, { applyMigrations: false })));
    const outcomes = await Promise.all(nodes.map((node) => node.migrate()));
    const total = Object.keys(committedPostgresMigrations).length;
    expect(outcomes.map((outcome) => outcome.total)).toEqual([total, total, total]);
    expect(outcomes.reduce((sum, outcome) => sum + outcome.applied, 0)).toBe(total);
    const tables = await nodes[0]!.sql.all<{ name: string }>(sql`SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public'`);
    expect(tables.map((table) => table.name)).toEqual(expect.arrayContaining(['users', 'calls', 'nodes', 'transcription_jobs']));
    await Promise.all(nodes.map((node) => node.close()));
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
