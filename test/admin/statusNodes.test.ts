import { afterAll, beforeAll, expect, test } from 'vitest';
import { NodeRegistry } from '../../src/node/NodeRegistry.js';
import { startTestApp, type TestApp } from '../helpers/startTestApp.js';
import { completeSetup, type AdminBrowser } from './adminClient.js';

/* The Status page's node list: every node of the site, read from the shared database. */

let testApp: TestApp;
let browser: AdminBrowser;
beforeAll(async () => {
  testApp = await startTestApp({ LEASE_TIMEOUT_SECONDS: '60' });
  browser = await completeSetup(testApp);
});
afterAll(async () => { await testApp.close(); });

interface NodeBody { id: string; host: string; role: string; state: string; processes: boolean; callsInFlight: number; lastHeartbeatAt: string; models: { slot: string; check: string }[] | null }

test('running, lost and stopped nodes are listed with their role, heartbeat, calls in flight and models', async () => {
  const registry = new NodeRegistry(testApp.services.database.sql);
  const now = testApp.services.clock();
  await registry.register({ id: 'serve-1', host: 'api.clinic.lan', role: 'serve', version: '0.1.0', pid: 10, processes: false }, now - 5_000);
  await registry.register({ id: 'worker-1', host: 'gpu1.clinic.lan', role: 'worker', version: '0.1.0', pid: 11, processes: true }, now - 5_000);
  await registry.beat('worker-1', { callsInFlight: 1, models: [{ slot: 'whisper', fileName: 'whisper.bin', check: 'checksum_mismatch' }] }, now - 1_000);
  await registry.register({ id: 'worker-2', host: 'gpu2.clinic.lan', role: 'worker', version: '0.1.0', pid: 12, processes: true }, now - 120_000);

  const body = (await (await browser.fetch('/admin/api/status')).json()) as { nodes: NodeBody[] };
  expect(body.nodes.map((node) => [node.id, node.role, node.state])).toEqual([
    ['serve-1', 'serve', 'running'], ['worker-1', 'worker', 'running'], ['worker-2', 'worker', 'lost'],
  ]);
  expect(body.nodes[1]).toMatchObject({ host: 'gpu1.clinic.lan', processes: true, callsInFlight: 1, models: [{ slot: 'whisper', check: 'checksum_mismatch' }] });
  expect(Date.parse(body.nodes[1]!.lastHeartbeatAt)).toBe(now - 1_000);

  await registry.stopped('serve-1', now);
  const after = (await (await browser.fetch('/admin/api/status')).json()) as { nodes: NodeBody[] };
  expect(after.nodes.map((node) => [node.id, node.state])).toEqual([['worker-1', 'running'], ['worker-2', 'lost'], ['serve-1', 'stopped']]);
});
