import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { CallRepository } from '../../src/domain/calls/CallRepository.js';
import { UserRepository } from '../../src/domain/users/UserRepository.js';
import type { DatabaseHandle } from '../../src/infrastructure/database/SqlDatabase.js';
import { currentProcessScope } from '../../src/infrastructure/processes/processScope.js';
import { NodeRegistry } from '../../src/node/NodeRegistry.js';
import { ProcessingQueue } from '../../src/processing/ProcessingQueue.js';
import { openTestDatabase } from '../helpers/testDatabase.js';

/*
 * The queue as several nodes share it (on SQLite, and on PostgreSQL in a TEST_DATABASE=postgres
 * run): claims never overlap, a heartbeat keeps a call, a silent holder loses it after the lease
 * timeout (at once when it is known gone), and the old holder's writes are fenced off afterwards.
 */

const leaseMs = 60_000;
let dataDir: string;
let database: DatabaseHandle;
let calls: CallRepository;
let userId: string;

beforeEach(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'callscope-lease-'));
  database = await openTestDatabase(dataDir);
  calls = new CallRepository(database.sql);
  userId = (await new UserRepository(database.sql).findOrCreate({ externalUserId: 'local:alice' }, 1)).id;
});
afterEach(async () => {
  await database.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function queueCalls(count: number, now = 1_000): Promise<string[]> {
  const ids: string[] = [];
  for (let index = 0; index < count; index += 1) {
    const id = randomUUID();
    await calls.insert({ id, userId, title: `call ${index}`, direction: 'UNKNOWN', status: 'QUEUED', audioFormat: 'wav', audioSizeBytes: 1,
      audioObjectKey: `calls/${id}/original.wav`, queuedAt: now + index, createdAt: now, updatedAt: now });
    ids.push(id);
  }
  return ids;
}

test('nodes claiming at once take different calls, oldest first, and each call once', async () => {
  const ids = await queueCalls(12);
  const nodes = ['node-a', 'node-b', 'node-c'].map((lease) => ({ lease, queue: new ProcessingQueue(database.sql) }));
  const claims = await Promise.all(Array.from({ length: 15 }, (_, index) => nodes[index % 3]!.queue.claimNext(nodes[index % 3]!.lease, 2_000)));
  const claimed = claims.flatMap((claim) => (claim ? [claim.call.id] : []));
  expect(claimed).toHaveLength(12);
  expect(new Set(claimed)).toEqual(new Set(ids));
  expect(claims.filter((claim) => claim === undefined)).toHaveLength(3);
  for (const claim of claims) if (claim) expect(claim.call).toMatchObject({ status: 'TRANSCRIBING', workerLease: claim.lease, processingAttempts: 1, heartbeatAt: 2_000 });
});

test('a beating holder keeps its call; a silent one loses it after the lease timeout, and its writes are refused after', async () => {
  const [callId] = await queueCalls(1);
  const queue = new ProcessingQueue(database.sql);
  await queue.claimNext('node-a', 10_000);
  expect(await queue.beat('node-a', 50_000)).toEqual([callId]);

  // Another node's sweep at 100 s: the heartbeat of 50 s is within the lease.
  const sweep = (now: number) => queue.takeOverAbandoned('node-b', { cutoff: now - leaseMs, maxAttempts: 3, now });
  expect(await sweep(100_000)).toEqual({ requeued: [], failed: [] });
  // Silent since 50 s: at 111 s the lease has run out.
  expect(await sweep(111_000)).toEqual({ requeued: [callId], failed: [] });
  expect(await sweep(111_001)).toEqual({ requeued: [], failed: [] });

  const call = await calls.findOwned(userId, callId!);
  expect(call).toMatchObject({ status: 'QUEUED', workerLease: null, processingAttempts: 1, queuedAt: 1_000 });
  // The old holder wakes up: fenced off.
  expect(await queue.reportProgress(callId!, 'node-a', 'transcription', 0.5, 112_000)).toBe(false);
  expect(await queue.complete(callId!, 'node-a', 30, 112_000)).toBe(false);
  expect(await queue.beat('node-a', 112_000)).toEqual([]);
  // Another node runs it: its second attempt.
  expect((await queue.claimNext('node-b', 113_000))?.call).toMatchObject({ id: callId, processingAttempts: 2 });
});

test('a call whose holders keep dying fails after MAX_PROCESSING_ATTEMPTS; a call waiting for a callback is left alone', async () => {
  const [dying, waiting] = await queueCalls(2);
  const queue = new ProcessingQueue(database.sql);
  for (let attempt = 1; attempt <= 3; attempt += 1) {
    const now = attempt * 1_000_000;
    const claimed = await queue.claimNext(`node-${attempt}`, now);
    expect(claimed?.call.id).toBe(dying);
    // Its holder is silent from the claim on: the sweep after the lease timeout takes the call.
    const sweepAt = now + leaseMs + 1;
    const taken = await queue.takeOverAbandoned('sweeper', { cutoff: sweepAt - leaseMs, maxAttempts: 3, now: sweepAt });
    expect(attempt < 3 ? taken.requeued : taken.failed).toEqual([dying]);
  }
  const failed = await calls.findOwned(userId, dying!);
  expect(failed).toMatchObject({ status: 'FAILED', workerLease: null });
  expect(failed?.errorReason).toContain('interrupted 3 times');

  const claimed = await queue.claimNext('node-x', 5_000_000);
  expect(claimed?.call.id).toBe(waiting);
  expect(await queue.awaitCallback(waiting!, 'node-x', false, 5_000_000)).toBe(true);
  expect(await queue.takeOverAbandoned('sweeper', { cutoff: 9_000_000, maxAttempts: 3, now: 9_000_000 })).toEqual({ requeued: [], failed: [] });
});

test('the node list: running, lost after the lease timeout, stopped; departed nodes leave the list after a day', async () => {
  const registry = new NodeRegistry(database.sql);
  const identity = (id: string, role: 'serve' | 'worker') => ({ id, host: `host-${id}`, role, version: '0.1.0', pid: 1, processes: role === 'worker' });
  await registry.register(identity('a', 'serve'), 1_000);
  await registry.register(identity('b', 'worker'), 1_000);
  await registry.register(identity('c', 'worker'), 1_000);
  await registry.beat('b', { callsInFlight: 2, models: [{ slot: 'segmentation', fileName: 'segmentation.onnx', check: 'ok' }] }, 50_000);
  await registry.beat('a', { callsInFlight: 0, models: null }, 50_000);
  await registry.stopped('c', 20_000);

  const listed = await registry.list(100_000, leaseMs);
  expect(listed.map((node) => [node.id, node.state])).toEqual([['a', 'running'], ['b', 'running'], ['c', 'stopped']]);
  expect(listed[1]).toMatchObject({ role: 'worker', processes: true, callsInFlight: 2, models: [{ slot: 'segmentation', check: 'ok' }] });

  const later = await registry.list(111_000, leaseMs);
  expect(later.map((node) => [node.id, node.state, node.callsInFlight])).toEqual([['a', 'lost', 0], ['b', 'lost', 0], ['c', 'stopped', 0]]);
  expect(await registry.list(50_000 + 24 * 60 * 60_000 + 1, leaseMs)).toEqual([]);
});

test('a node knows a neighbour of its own process scope gone as soon as its process is; others only by their heartbeat', async () => {
  const registry = new NodeRegistry(database.sql);
  const scope = currentProcessScope();
  expect(scope).toMatch(/^[0-9a-f-]+\/pid:\[\d+\]$/);
  // A child that has exited (and was reaped): its pid runs no more.
  const dead = spawnSync(process.execPath, ['-e', '']).pid!;
  const node = (id: string, pid: number, processScope?: string) => ({
    id, host: 'host', role: 'worker' as const, version: '0.1.0', pid, processes: true, ...(processScope ? { processScope } : {}),
  });
  await registry.register(node('self', process.pid, scope), 1_000);
  await registry.register(node('crashed-here', dead, scope), 1_000);
  await registry.register(node('running-here', process.pid, scope), 1_000);
  await registry.register(node('other-machine', dead, 'another-boot/pid:[1]'), 1_000);
  await registry.register(node('no-scope', dead), 1_000);
  await registry.register(node('stopped', process.pid, scope), 1_000);
  await registry.stopped('stopped', 2_000);

  const now = await registry.survey({ id: 'self', ...(scope ? { processScope: scope } : {}) }, 30_000, leaseMs);
  expect(now.goneNodeIds.sort()).toEqual(['crashed-here', 'stopped']);
  expect(now.othersAlive).toBe(3);
  // Past the lease, silence is enough.
  const later = await registry.survey({ id: 'self', ...(scope ? { processScope: scope } : {}) }, 61_001, leaseMs);
  expect(later.goneNodeIds.sort()).toEqual(['crashed-here', 'no-scope', 'other-machine', 'running-here', 'stopped']);
  expect(later.othersAlive).toBe(0);
});

test('the calls of a node known gone are taken over at once, within the attempts; a live holder keeps its call', async () => {
  const [ofGone, ofLive] = await queueCalls(2);
  const queue = new ProcessingQueue(database.sql);
  expect((await queue.claimNext('node-gone', 10_000))?.call.id).toBe(ofGone);
  expect((await queue.claimNext('node-live', 10_000))?.call.id).toBe(ofLive);

  // Two seconds later, long before the lease runs out.
  const taken = await queue.takeOverAbandoned('node-new', { cutoff: 12_000 - leaseMs, goneLeases: ['node-gone'], maxAttempts: 3, now: 12_000 });
  expect(taken).toEqual({ requeued: [ofGone], failed: [] });
  expect(await calls.findOwned(userId, ofGone!)).toMatchObject({ status: 'QUEUED', workerLease: null, processingAttempts: 1 });
  expect(await calls.findOwned(userId, ofLive!)).toMatchObject({ status: 'TRANSCRIBING', workerLease: 'node-live' });
  expect(await queue.complete(ofGone!, 'node-gone', 30, 13_000)).toBe(false);
});
