import { rmSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { waitFor } from '../helpers/processingHarness.js';
import { createPostgresDatabaseOn, startThrowawayCluster, type ThrowawayCluster } from '../helpers/postgres/throwawayCluster.js';
import { asUser, killProcessGroup, newDataDir, startServer, startWorker, storedFiles, type ServerProcess } from '../helpers/serverProcess.js';
import { faultRig, uploadSample, type FaultRig } from '../faults/faultSetup.js';
import { callsCompletedBy } from './nodeProcesses.js';

/*
 * Beyond one box: one API node (EMBEDDED_WORKER=false) and three `callscope worker` processes
 * on one PostgreSQL database and one storage folder process a batch of real recordings. One
 * worker is SIGKILLed in the middle of a call; the others take the call over as soon as they see
 * its process gone. Every call ends COMPLETED, completed by exactly one node, with nothing lost, and the
 * surviving workers shared the work.
 */

const leaseTimeoutSeconds = 10;
const batchSize = 6;

let cluster: ThrowawayCluster;
let rig: FaultRig;
let dataDir: string;
let databaseUrl: string;
const nodes: ServerProcess[] = [];

beforeAll(async () => {
  cluster = await startThrowawayCluster();
  databaseUrl = await createPostgresDatabaseOn(cluster);
  rig = await faultRig();
  dataDir = newDataDir();
}, 60_000);

afterAll(async () => {
  for (const node of nodes) if (node.child.exitCode === null && node.child.signalCode === null) killProcessGroup(node.child);
  await Promise.all(nodes.map((node) => node.exited));
  cluster?.stop();
  rig?.remove();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

test('three workers on one PostgreSQL share a batch; a worker killed mid-call loses nothing and no call runs to completion twice', async () => {
  const site = { ...rig.env, DATABASE_URL: databaseUrl, LEASE_TIMEOUT_SECONDS: String(leaseTimeoutSeconds) };
  const api = await startServer(dataDir, { ...site, EMBEDDED_WORKER: 'false', LOG_FORMAT: 'json' });
  nodes.push(api);
  // The first worker holds the first call it takes in its transcription stage (heartbeats go on), to be killed there.
  const doomed = await startWorker(dataDir, { ...site, FAULT_HOLD_AT: 'stage.transcription' });
  nodes.push(doomed);

  const callIds: string[] = [];
  for (let index = 0; index < batchSize; index += 1) {
    const response = await uploadSample(api, 'alice', `multinode-batch-${index}`);
    expect(response.status, await response.clone().text()).toBe(202);
    callIds.push(((await response.json()) as { callId: string }).callId);
  }
  await waitFor('the first worker to hold a call in transcription', () => doomed.output().includes('"holdPoint":"stage.transcription"') || undefined, 60_000);
  const survivors = [await startWorker(dataDir, site), await startWorker(dataDir, site)];
  nodes.push(...survivors);

  // Readiness by role: the API node needs no models; a worker reports its pool; both check the shared storage and the database.
  const checksOf = async (node: ServerProcess) => Object.keys(((await (await fetch(`${node.baseUrl}/actuator/health/readiness`)).json()) as { checks: object }).checks);
  expect(await checksOf(api)).toEqual(expect.arrayContaining(['database', 'storage']));
  expect(await checksOf(api)).not.toContain('models');
  expect(await checksOf(survivors[0]!)).toEqual(expect.arrayContaining(['database', 'storage', 'models', 'workerPool']));
  // A worker serves no API.
  expect((await fetch(`${survivors[0]!.baseUrl}/api/calls`)).status).toBe(404);

  // Mid-call: the held call is TRANSCRIBING under the doomed worker's lease.
  killProcessGroup(doomed.child);
  expect((await doomed.exited).signal).toBe('SIGKILL');

  // The killed worker ran on this machine: a survivor sees its process gone and takes the held
  // call over at its next heartbeat, without waiting for the lease to run out (a node on another
  // machine is known gone only by its silence: test/processing/leaseTakeover.test.ts). Counted in
  // the survivors' own heartbeats (every LEASE_TIMEOUT_SECONDS / 6): lease expiry would take six.
  const tookOver = (line: string) => line.includes('took over calls left in flight');
  const survivorBeats = new Set<number>();
  const watcher = new pg.Client(databaseUrl);
  await watcher.connect();
  try {
    await waitFor('a survivor to take the held call over', async () => {
      const beats = await watcher.query<{ heartbeat_at: string }>('SELECT heartbeat_at FROM nodes WHERE pid = $1', [survivors[0]!.child.pid]);
      for (const { heartbeat_at: beat } of beats.rows) survivorBeats.add(Number(beat));
      return survivors.some((survivor) => survivor.output().split('\n').some(tookOver));
    }, 120_000);
  } finally {
    await watcher.end();
  }
  // The beat seen at the kill, then at most the beat that took over and one more on the way.
  expect(survivorBeats.size - 1, 'survivor heartbeats from the kill to the takeover').toBeLessThanOrEqual(2);

  const statuses = await waitFor('every call to end', async () => {
    const response = await asUser(api, 'alice', `/api/calls/status?ids=${callIds.join(',')}`);
    const items = ((await response.json()) as { items: { callId: string; status: string }[] }).items;
    return items.every((item) => item.status === 'COMPLETED' || item.status === 'FAILED') ? items : undefined;
  }, 180_000);
  expect(statuses.map((item) => item.status)).toEqual(callIds.map(() => 'COMPLETED'));

  // Exactly once: each call completed by one node; the killed worker completed none. (Log lines
  // reach stdout within a fraction of a second: wait for the last ones.)
  const completed = await waitFor('the completions in the workers\' logs', () => {
    const logged = survivors.flatMap(callsCompletedBy);
    return logged.length >= callIds.length ? logged : undefined;
  }, 5_000);
  expect(callsCompletedBy(doomed)).toEqual([]);
  expect([...completed].sort()).toEqual([...callIds].sort());
  // Shared: both survivors completed calls.
  for (const survivor of survivors) expect(callsCompletedBy(survivor).length).toBeGreaterThan(0);

  // Nothing lost or left over: each call has one analysis and its action items once; every stored file is named by a row.
  for (const callId of callIds) {
    const items = (await (await asUser(api, 'alice', '/api/actions')).json()) as { callRecordId: string; title: string }[];
    const titles = items.filter((item) => item.callRecordId === callId).map((item) => item.title);
    expect(new Set(titles).size, `action items of ${callId} are not duplicated`).toBe(titles.length);
    expect(titles.length).toBeGreaterThan(0);
    const analysis = await asUser(api, 'alice', `/api/calls/${callId}/analysis`);
    expect(analysis.status).toBe(200);
  }
  const client = new pg.Client(databaseUrl);
  await client.connect();
  try {
    const interrupted = await client.query<{ call_id: string }>("SELECT call_id FROM processing_events WHERE outcome = 'INTERRUPTED'");
    expect(interrupted.rows.length, 'the killed run\'s stage was closed as INTERRUPTED').toBeGreaterThan(0);
    const running = await client.query("SELECT 1 FROM processing_events WHERE outcome = 'RUNNING'");
    expect(running.rowCount).toBe(0);
    const nodesSeen = await client.query<{ role: string; state: string }>('SELECT role, CASE WHEN stopped_at IS NOT NULL THEN \'stopped\' ELSE \'running\' END AS state FROM nodes ORDER BY role');
    expect(nodesSeen.rows.map((row) => row.role)).toEqual(['serve', 'worker', 'worker', 'worker']);
    const named = await client.query<{ key: string }>(`SELECT audio_object_key AS key FROM calls WHERE audio_object_key IS NOT NULL
      UNION SELECT object_key AS key FROM call_artifacts`);
    // The killed run's work folder went with the next run of its call.
    expect(storedFiles(dataDir)).toEqual(named.rows.map((row) => join('objects', row.key)).sort());
  } finally {
    await client.end();
  }
}, 300_000);
