import { sql } from 'drizzle-orm';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { loadConfig } from '../../../src/config/loadConfig.js';
import { createServices, type Services } from '../../../src/createServices.js';
import { recoverStorage, sharedLeftoverAgeMs } from '../../../src/domain/maintenance/recoverStorage.js';
import { startProcessing } from '../../../src/processing/startProcessing.js';
import { callFolders, rowsOfCall, tempFiles } from '../../helpers/callInspection.js';
import { seedCall, seedUser } from '../../helpers/seedCalls.js';
import { testDatabaseEnvironment } from '../../helpers/testDatabase.js';

let dataDir: string;
/** The test's database beside DATA_DIR (on a PostgreSQL run, its DATABASE_URL), the same for every reopening. */
let databaseEnvironment: Record<string, string>;
let services: Services;

const openServices = () => createServices(loadConfig({ DATA_DIR: dataDir, LOCAL_AUTH: 'true', LOG_LEVEL: 'silent', ...databaseEnvironment }), { processMetrics: false });

beforeEach(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'callscope-recovery-'));
  databaseEnvironment = await testDatabaseEnvironment();
  services = await openServices();
});
afterEach(async () => {
  await services.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** What a crash can leave behind, next to one healthy call. */
async function leaveCrashDebris() {
  const healthy = await seedCall(services, 'alice');
  const halfDeleted = await seedCall(services, 'alice');
  const alice = await seedUser(services, 'alice');
  expect((await services.calls.claimForDeletion(alice.id, halfDeleted, services.clock())).outcome).toBe('claimed');
  const orphan = randomUUID();
  mkdirSync(join(dataDir, 'objects', 'calls', orphan), { recursive: true });
  writeFileSync(join(dataDir, 'objects', 'calls', orphan, 'original.wav'), 'left over');
  writeFileSync(join(dataDir, 'tmp', `${randomUUID()}.upload`), 'half an upload');
  // A run killed mid-way: its work folder, and a document written just before the kill whose row
  // was never committed (the healthy call's own documents have rows and stay).
  const killedRunWork = join(dataDir, 'objects', 'calls', healthy, 'work', randomUUID());
  mkdirSync(killedRunWork, { recursive: true });
  writeFileSync(join(killedRunWork, 'clean.wav'), 'cleaned audio');
  writeFileSync(join(dataDir, 'objects', 'calls', healthy, 'transcript.json.partial'), '{}');
  return { healthy, halfDeleted, orphan };
}

/** Dates what the crash left back to `at`: every file and folder under objects/ and tmp/, and the deletion claim. */
async function ageCrashDebris(debris: Awaited<ReturnType<typeof leaveCrashDebris>>, at: number): Promise<void> {
  const age = (path: string) => {
    for (const entry of readdirSync(path, { withFileTypes: true })) {
      if (entry.isDirectory()) age(join(path, entry.name));
      utimesSync(join(path, entry.name), at / 1000, at / 1000);
    }
  };
  age(join(dataDir, 'objects'));
  age(join(dataDir, 'tmp'));
  await services.database.sql.run(sql`UPDATE calls SET deleting_since = ${at} WHERE id = ${debris.halfDeleted}`);
}

async function expectRecovered(debris: Awaited<ReturnType<typeof leaveCrashDebris>>, recovered: Services): Promise<void> {
  expect(tempFiles(dataDir)).toEqual([]);
  expect(callFolders(dataDir)).toEqual([debris.healthy]);
  expect(await rowsOfCall(recovered, 'calls', debris.halfDeleted)).toBe(0);
  expect(await rowsOfCall(recovered, 'call_artifacts', debris.halfDeleted)).toBe(0);
  expect(await rowsOfCall(recovered, 'action_items', debris.halfDeleted)).toBe(0);
  expect(await rowsOfCall(recovered, 'calls', debris.healthy)).toBe(1);
  expect(await rowsOfCall(recovered, 'action_items', debris.healthy)).toBe(2);
  expect(readdirSync(join(dataDir, 'objects', 'calls', debris.healthy)).sort()).toEqual(await keptFilesOf(recovered, debris.healthy));
  expect(existsSync(join(dataDir, 'objects', 'calls', debris.healthy, 'original.wav'))).toBe(true);
}

/** File names in a call's folder that its rows name (the original audio, stored documents). */
async function keptFilesOf(recovered: Services, callId: string): Promise<string[]> {
  const rows = await recovered.database.sql.all<{ key: string }>(sql`
    SELECT audio_object_key AS key FROM calls WHERE id = ${callId} UNION SELECT object_key AS key FROM call_artifacts WHERE call_id = ${callId}`);
  return rows.map((row) => row.key.split('/').at(-1)!).sort();
}

describe('recoverStorage', () => {
  test('clears cut uploads, finishes interrupted deletions and removes orphan call folders, keeping healthy calls', async () => {
    const debris = await leaveCrashDebris();
    const logLines: Record<string, unknown>[] = [];
    const log = pino({ level: 'info' }, new Writable({
      write(chunk: Buffer, _encoding, callback) {
        logLines.push(JSON.parse(chunk.toString('utf8')) as Record<string, unknown>);
        callback();
      },
    }));

    await recoverStorage(services, log, { aloneSince: Number.POSITIVE_INFINITY });

    await expectRecovered(debris, services);
    expect(logLines).toContainEqual(expect.objectContaining({ msg: 'storage recovered', finishedDeletions: 1, orphanFolders: 1, strayEntries: 2 }));
  });

  test('runs when processing starts on a DATA_DIR left by a crash, before any call is taken', async () => {
    const debris = await leaveCrashDebris();
    // On PostgreSQL other nodes may share DATA_DIR, so a starting node removes only leftovers
    // older than sharedLeftoverAgeMs: there the crash is made to lie that far back. (On SQLite
    // the node is alone on DATA_DIR and clears everything at once, however fresh.)
    if (services.database.dialect === 'postgres') await ageCrashDebris(debris, Date.now() - 2 * sharedLeftoverAgeMs);
    await services.close();

    services = await openServices();
    const processing = await startProcessing(services, pino({ level: 'silent' }));
    try {
      await expectRecovered(debris, services);
    } finally {
      await processing.stop(0);
    }
  });

  test('shared storage: a node alone since a moment repairs what was left before it and keeps what is newer; with other nodes alive, only what is an hour old', async () => {
    const debris = await leaveCrashDebris();
    const crashedAt = Date.now() - 60_000;
    await ageCrashDebris(debris, crashedAt);
    // Written after the survey by a node that started since: an upload under way.
    const aloneSince = Date.now() - 1_000;
    const newcomersUpload = `${randomUUID()}.upload`;
    writeFileSync(join(dataDir, 'tmp', newcomersUpload), 'an upload under way');

    await recoverStorage(services, pino({ level: 'silent' }), {});
    expect(tempFiles(dataDir)).toHaveLength(2);
    expect(callFolders(dataDir).sort()).toEqual([debris.healthy, debris.halfDeleted, debris.orphan].sort());

    await recoverStorage(services, pino({ level: 'silent' }), { aloneSince });
    expect(tempFiles(dataDir)).toEqual([newcomersUpload]);
    rmSync(join(dataDir, 'tmp', newcomersUpload));
    await expectRecovered(debris, services);
  });

  test('does nothing on a fresh DATA_DIR', async () => {
    await expect(recoverStorage(services, pino({ level: 'silent' }), { aloneSince: Number.POSITIVE_INFINITY })).resolves.toBeUndefined();
    expect(tempFiles(dataDir)).toEqual([]);
    expect(callFolders(dataDir)).toEqual([]);
  });
});
