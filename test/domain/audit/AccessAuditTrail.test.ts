import { sql } from 'drizzle-orm';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { AccessAuditTrail } from '../../../src/domain/audit/AccessAuditTrail.js';
import { AuditChainVerifier } from '../../../src/domain/audit/auditChain.js';
import { AuditWriterThread } from '../../../src/domain/audit/auditWriter.js';
import { openDatabase } from '../../../src/infrastructure/database/openDatabase.js';
import type { DatabaseHandle } from '../../../src/infrastructure/database/SqlDatabase.js';
import { testDatabaseEngine, testDatabaseEnvironment } from '../../helpers/testDatabase.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function temporaryFolder(): string {
  const dataDir = mkdtempSync(join(tmpdir(), 'callscope-audit-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  return dataDir;
}

/** A migrated database of its own; with `count`, that many connections (handles) to it, as nodes would have. */
async function openDatabases(count: number, dataDir = temporaryFolder()): Promise<DatabaseHandle[]> {
  const { DATABASE_URL } = await testDatabaseEnvironment();
  const handles: DatabaseHandle[] = [];
  for (let index = 0; index < count; index += 1) {
    const handle = await openDatabase({ DATA_DIR: dataDir, DATABASE_URL });
    await handle.migrate();
    cleanups.push(() => handle.close());
    handles.push(handle);
  }
  return handles;
}

async function verify(database: DatabaseHandle) {
  const rows = await new AccessAuditTrail({ database: database.sql, clock: Date.now }).repository.inOrderAfter(0, 100_000);
  const verifier = new AuditChainVerifier();
  return { broken: verifier.check(rows), rows };
}

describe('AccessAuditTrail', () => {
  test('record is synchronous and writes nothing until the batch is due; flush writes the batch as one chain', async () => {
    const [database] = await openDatabases(1);
    const trail = new AccessAuditTrail({ database: database!.sql, clock: () => 1_700_000_000_000, flushIntervalMs: 60_000 });
    trail.record({ actorKind: 'user', actorId: 'u1', action: 'transcript.read', callId: 'c1', clientIp: '10.0.0.1' });
    trail.record({ actorKind: 'admin', actorId: 'admin', action: 'admin.sign_in', target: 'session', detail: { ok: true } });
    expect((await verify(database!)).rows).toEqual([]);
    await trail.flush();
    const { broken, rows } = await verify(database!);
    expect(broken).toBeUndefined();
    expect(rows).toMatchObject([
      { seq: 1, at: 1_700_000_000_000, actorKind: 'user', actorId: 'u1', action: 'transcript.read', callId: 'c1', target: null, clientIp: '10.0.0.1', detail: null },
      { seq: 2, actorKind: 'admin', action: 'admin.sign_in', target: 'session', detail: '{"ok":true}' },
    ]);
    await trail.close();
  });

  test('writes on its own after the interval, and at once when a batch is full', async () => {
    const [database] = await openDatabases(1);
    const trail = new AccessAuditTrail({ database: database!.sql, clock: Date.now, flushIntervalMs: 50, batchSize: 3 });
    cleanups.push(() => trail.close());
    trail.record({ actorKind: 'user', actorId: 'u1', action: 'analysis.read' });
    await expect.poll(async () => (await verify(database!)).rows.length, { timeout: 2000 }).toBe(1);
    const slow = new AccessAuditTrail({ database: database!.sql, clock: Date.now, flushIntervalMs: 60_000, batchSize: 3 });
    cleanups.push(() => slow.close());
    for (let index = 0; index < 3; index += 1) slow.record({ actorKind: 'user', actorId: 'u2', action: 'transcript.read' });
    await expect.poll(async () => (await verify(database!)).rows.length, { timeout: 2000 }).toBe(4);
    expect((await verify(database!)).broken).toBeUndefined();
  });

  test('close writes what is buffered', async () => {
    const [database] = await openDatabases(1);
    const trail = new AccessAuditTrail({ database: database!.sql, clock: Date.now, flushIntervalMs: 60_000 });
    trail.record({ actorKind: 'system', actorId: 'cli', action: 'call.reprocess', callId: 'c9' });
    await trail.close();
    expect((await verify(database!)).rows).toMatchObject([{ seq: 1, action: 'call.reprocess' }]);
  });

  test('a batch the database refuses stays buffered and is written by the next flush, in order', async () => {
    const [database] = await openDatabases(1);
    const trail = new AccessAuditTrail({ database: database!.sql, clock: Date.now, flushIntervalMs: 60_000 });
    await database!.sql.run(sql`ALTER TABLE access_audit RENAME TO access_audit_away`);
    trail.record({ actorKind: 'user', actorId: 'u1', action: 'first' });
    await expect(trail.flush()).rejects.toThrow();
    trail.record({ actorKind: 'user', actorId: 'u1', action: 'second' });
    await database!.sql.run(sql`ALTER TABLE access_audit_away RENAME TO access_audit`);
    await trail.flush();
    expect((await verify(database!)).rows.map((row) => row.action)).toEqual(['first', 'second']);
  });

  test('switched off, it records nothing', async () => {
    const [database] = await openDatabases(1);
    const trail = new AccessAuditTrail({ database: database!.sql, clock: Date.now, enabled: false });
    trail.record({ actorKind: 'user', actorId: 'u1', action: 'transcript.read' });
    await trail.close();
    expect((await verify(database!)).rows).toEqual([]);
  });

  // On PostgreSQL two connection pools, as two nodes have; SQLite serves one node (a second writer
  // in the same thread would wait on itself), so there two trails share the connection.
  test(`two ${testDatabaseEngine === 'postgres' ? 'nodes' : 'trails'} appending at the same time keep one unbroken chain`, async () => {
    const databases = testDatabaseEngine === 'postgres' ? await openDatabases(2) : await openDatabases(1).then(([one]) => [one!, one!]);
    const trails = databases.map((database) => new AccessAuditTrail({ database: database.sql, clock: Date.now, flushIntervalMs: 60_000, batchSize: 1_000 }));
    const rounds = 20;
    const perRound = 5;
    await Promise.all(trails.map(async (trail, node) => {
      for (let round = 0; round < rounds; round += 1) {
        for (let index = 0; index < perRound; index += 1) trail.record({ actorKind: 'user', actorId: `node-${node}`, action: 'transcript.read', detail: { round, index } });
        await trail.flush();
      }
    }));
    const { broken, rows } = await verify(databases[0]!);
    expect(broken).toBeUndefined();
    expect(rows).toHaveLength(2 * rounds * perRound);
    expect(rows.map((row) => row.seq)).toEqual(rows.map((_row, index) => index + 1));
    for (const node of [0, 1]) expect(rows.filter((row) => row.actorId === `node-${node}`)).toHaveLength(rounds * perRound);
  });
});

describe.runIf(testDatabaseEngine === 'sqlite')('AccessAuditTrail with a writer thread (SQLite)', () => {
  test('the thread writes the batches with its own connection, in one unbroken chain with an inline writer\'s', async () => {
    const dataDir = temporaryFolder();
    const [database] = await openDatabases(1, dataDir);
    const threaded = new AccessAuditTrail({ database: database!.sql, clock: Date.now, flushIntervalMs: 60_000, writer: new AuditWriterThread({ dataDir }) });
    const inline = new AccessAuditTrail({ database: database!.sql, clock: Date.now, flushIntervalMs: 60_000 });
    cleanups.push(() => threaded.close());
    await Promise.all([threaded, inline].map(async (trail, writer) => {
      for (let round = 0; round < 10; round += 1) {
        for (let index = 0; index < 20; index += 1) trail.record({ actorKind: 'user', actorId: `writer-${writer}`, action: 'transcript.read', detail: { round, index } });
        await trail.flush();
      }
    }));
    const { broken, rows } = await verify(database!);
    expect(broken).toBeUndefined();
    expect(rows).toHaveLength(400);
    expect(rows.filter((row) => row.actorId === 'writer-0').map((row) => JSON.parse(row.detail!) as unknown))
      .toEqual(Array.from({ length: 200 }, (_unused, n) => ({ index: n % 20, round: Math.floor(n / 20) })));
  });

  test('a batch the thread cannot write stays buffered; close writes it on the calling thread', async () => {
    const [database] = await openDatabases(1);
    // The thread opens a folder with no migrated database: its insert fails.
    const trail = new AccessAuditTrail({ database: database!.sql, clock: Date.now, flushIntervalMs: 60_000, writer: new AuditWriterThread({ dataDir: temporaryFolder() }) });
    trail.record({ actorKind: 'user', actorId: 'u1', action: 'transcript.read', callId: 'c1' });
    await expect(trail.flush()).rejects.toThrow(/audit trail write failed: .*access_audit/);
    expect((await verify(database!)).rows).toEqual([]);
    await trail.close();
    expect((await verify(database!)).rows).toMatchObject([{ seq: 1, actorId: 'u1', callId: 'c1' }]);
  });
});
