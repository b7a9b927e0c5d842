import { sql } from 'drizzle-orm';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { AccessAuditTrail } from '../../src/domain/audit/AccessAuditTrail.js';
import type { DatabaseHandle } from '../../src/infrastructure/database/SqlDatabase.js';
import { openTestDatabase, testDatabaseEnvironment } from '../helpers/testDatabase.js';

const repoRoot = resolve(import.meta.dirname, '../..');

let dataDir: string;
let environment: Record<string, string>;
let database: DatabaseHandle;

beforeEach(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'callscope-audit-verify-'));
  environment = { DATA_DIR: dataDir, ...(await testDatabaseEnvironment()) };
  database = await openTestDatabase(dataDir, environment);
  await database.migrate();
});
afterEach(async () => {
  await database.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** A trail of `count` records, as the service writes it. */
async function writeTrail(count: number): Promise<void> {
  const trail = new AccessAuditTrail({ database: database.sql, clock: Date.now, batchSize: 1_000 });
  for (let index = 0; index < count; index += 1) {
    trail.record({ actorKind: 'user', actorId: `user-${index % 3}`, action: 'transcript.read', callId: `call-${index}`, clientIp: '10.0.0.7', detail: { index } });
  }
  await trail.close();
}

/** `callscope audit verify` as an operator runs it: its own process, on the same database. */
function auditVerify(args = ['verify']): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(process.execPath, ['--import', 'tsx', 'src/cli/callscope.ts', 'audit', ...args], { cwd: repoRoot, env: { ...process.env, ...environment } }, (error, stdout, stderr) => {
      done({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr });
    });
  });
}

test('an intact chain (read in pages) exits 0 and says how many records it checked', async () => {
  await writeTrail(2_345);
  const outcome = await auditVerify();
  expect(outcome).toMatchObject({ code: 0, stderr: '' });
  expect(outcome.stdout).toMatch(/^Audit trail intact: 2345 records, seq 1-2345; the newest record's hash is [0-9a-f]{64}/);
});

test('an empty trail is intact', async () => {
  expect(await auditVerify()).toEqual({ code: 0, stdout: 'Audit trail intact: no records yet.\n', stderr: '' });
});

test('an edited detail is caught at its record', async () => {
  await writeTrail(20);
  await database.sql.run(sql`UPDATE access_audit SET detail = ${'{"index":99}'} WHERE seq = 7`);
  const outcome = await auditVerify();
  expect(outcome.code).toBe(1);
  expect(outcome.stderr).toBe('Audit trail BROKEN at record 7: record 7 was changed after it was written: its hash does not match its fields (6 records before it are intact).\n');
});

test('a deleted record is caught as a gap', async () => {
  await writeTrail(20);
  await database.sql.run(sql`DELETE FROM access_audit WHERE seq = 12`);
  const outcome = await auditVerify();
  expect(outcome.code).toBe(1);
  expect(outcome.stderr).toContain('Audit trail BROKEN at record 13: record 13 follows record 11: record 12 is missing');
});

test('a changed hash is caught at the record whose hash it is or the next one', async () => {
  await writeTrail(20);
  await database.sql.run(sql`UPDATE access_audit SET hash = ${'f'.repeat(64)} WHERE seq = 15`);
  const outcome = await auditVerify();
  expect(outcome.code).toBe(1);
  expect(outcome.stderr).toContain('Audit trail BROKEN at record 15:');
});

test('anything but "verify" is a usage error', async () => {
  const outcome = await auditVerify(['check']);
  expect(outcome.code).toBe(64);
  expect(outcome.stderr).toContain('Usage: callscope audit verify');
});
