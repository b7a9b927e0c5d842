import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { buildApp } from '../../../src/app.js';
import { loadConfig } from '../../../src/config/loadConfig.js';
import { createServices, type Services } from '../../../src/createServices.js';
import { recoverStorage } from '../../../src/domain/maintenance/recoverStorage.js';
import { callFolders, rowsOfCall, tempFiles } from '../../helpers/callInspection.js';
import { seedCall, seedUser } from '../../helpers/seedCalls.js';

let dataDir: string;
let services: Services;

const openServices = () => createServices(loadConfig({ DATA_DIR: dataDir, LOCAL_AUTH: 'true', LOG_LEVEL: 'silent' }), { processMetrics: false });

beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'callscope-recovery-'));
  services = openServices();
});
afterEach(() => {
  services.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** What a crash can leave behind, next to one healthy call. */
async function leaveCrashDebris() {
  const healthy = await seedCall(services, 'alice');
  const halfDeleted = await seedCall(services, 'alice');
  expect(services.calls.claimForDeletion(seedUser(services, 'alice').id, halfDeleted, services.clock()).outcome).toBe('claimed');
  const orphan = randomUUID();
  mkdirSync(join(dataDir, 'objects', 'calls', orphan), { recursive: true });
  writeFileSync(join(dataDir, 'objects', 'calls', orphan, 'original.wav'), 'left over');
  writeFileSync(join(dataDir, 'tmp', `${randomUUID()}.upload`), 'half an upload');
  return { healthy, halfDeleted, orphan };
}

function expectRecovered(debris: Awaited<ReturnType<typeof leaveCrashDebris>>, recovered: Services): void {
  expect(tempFiles(dataDir)).toEqual([]);
  expect(callFolders(dataDir)).toEqual([debris.healthy]);
  expect(rowsOfCall(recovered, 'calls', debris.halfDeleted)).toBe(0);
  expect(rowsOfCall(recovered, 'call_artifacts', debris.halfDeleted)).toBe(0);
  expect(rowsOfCall(recovered, 'action_items', debris.halfDeleted)).toBe(0);
  expect(rowsOfCall(recovered, 'calls', debris.healthy)).toBe(1);
  expect(rowsOfCall(recovered, 'action_items', debris.healthy)).toBe(2);
  expect(existsSync(join(dataDir, 'objects', 'calls', debris.healthy, 'original.wav'))).toBe(true);
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

    await recoverStorage(services, log);

    expectRecovered(debris, services);
    expect(logLines).toContainEqual(expect.objectContaining({ msg: 'storage recovered', finishedDeletions: 1, orphanFolders: 1 }));
  });

  test('runs when the app starts on a DATA_DIR left by a crash', async () => {
    const debris = await leaveCrashDebris();
    services.close();

    services = openServices();
    const app = await buildApp({ services, logger: false });
    try {
      await app.ready();
      expectRecovered(debris, services);
    } finally {
      await app.close();
    }
  });

  test('does nothing on a fresh DATA_DIR', async () => {
    await expect(recoverStorage(services, pino({ level: 'silent' }))).resolves.toBeUndefined();
    expect(tempFiles(dataDir)).toEqual([]);
    expect(callFolders(dataDir)).toEqual([]);
  });
});
