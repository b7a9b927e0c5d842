import { sql } from 'drizzle-orm';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { afterEach, expect, test } from 'vitest';
import { faultRig, uploadSample, type FaultRig } from '../faults/faultSetup.js';
import { newDataDir, query, runNodeUntilExit, startServer } from '../helpers/serverProcess.js';
import { testDatabaseEngine } from '../helpers/testDatabase.js';
import { freeLoopbackPort } from '../../src/infrastructure/processes/freeLoopbackPort.js';

/*
 * A node that cannot start until its setup changes ends with one line saying why, exit code 78
 * (EX_CONFIG, as for a configuration error) and no stack trace, having claimed nothing.
 * Nodes on one host each need a port of their own: a node whose port another process holds ends
 * before it registers or takes a call. The node could process the queued call (the fault rig's
 * models), so a node that claimed before it bound would be caught.
 */

const rigs: FaultRig[] = [];
const occupiedPorts: Server[] = [];

afterEach(async () => {
  for (const rig of rigs.splice(0)) rig.remove();
  await Promise.all(occupiedPorts.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

/** A loopback port held by a plain TCP server of this process, as another program on the host would hold it. */
async function occupiedPort(): Promise<number> {
  const server = createServer();
  occupiedPorts.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

test.each([
  { role: 'worker', setting: 'NODE_PORT' },
  { role: 'serve', setting: 'PORT' },
] as const)('a $role node whose $setting is taken exits 78 with one line naming the port and the setting, and claims no call', async ({ role, setting }) => {
  const rig = await faultRig();
  rigs.push(rig);
  const dataDir = newDataDir();
  // An API-only node takes the upload and leaves the call queued for a node that processes calls.
  const api = await startServer(dataDir, { ...rig.env, EMBEDDED_WORKER: 'false' });
  const upload = await uploadSample(api, 'alice', `port-in-use-${role}`);
  expect(upload.status, await upload.clone().text()).toBe(202);
  const { callId } = (await upload.json()) as { callId: string };
  const port = await occupiedPort();

  const ended = await runNodeUntilExit(role, dataDir, { ...rig.env, [setting]: String(port), LOG_FORMAT: 'json' });

  expect(ended.code, ended.stderr).toBe(78);
  const lines = ended.stderr.trimEnd().split('\n');
  expect(lines, ended.stderr).toHaveLength(1);
  expect(lines[0]).toContain(String(port));
  expect(lines[0]).toMatch(new RegExp(`\\b${setting}\\b`));
  expect(ended.stderr).not.toMatch(/^\s+at /m);
  expect(await query(dataDir, sql`SELECT status, worker_lease AS lease FROM calls WHERE id = ${callId}`)).toEqual([{ status: 'QUEUED', lease: null }]);
  // Only the API node is listed: the refused node never registered.
  const listed = await query<{ role: string }>(dataDir, sql`SELECT role FROM nodes`);
  expect(listed.map((node) => node.role)).toEqual(['serve']);
}, 90_000);

test.skipIf(testDatabaseEngine === 'postgres')('a worker on the DATA_DIR of a running node on the embedded database exits 78 with one line, and lets its port go', async () => {
  const dataDir = newDataDir();
  await startServer(dataDir);
  const port = await freeLoopbackPort();

  // Bound before it was refused: `callscope` sets its exit code and ends only when the node has let its port and database go.
  const ended = await runNodeUntilExit('worker', dataDir, { NODE_PORT: String(port) });

  expect(ended.code, ended.stderr).toBe(78);
  expect(ended.stderr.trimEnd().split('\n'), ended.stderr).toHaveLength(1);
  expect(ended.stderr).toMatch(/is already processing calls from this DATA_DIR.*set DATABASE_URL/);
}, 90_000);
