import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BroadcastChannel, threadId } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { WorkerPool } from '../../../src/infrastructure/workers/WorkerPool.js';
import { workerAckChannel, type DisposedMessage } from '../../../src/infrastructure/workers/workerControl.js';
import type { WorkerTaskName } from '../../../src/infrastructure/workers/workerTasks.js';
import { deserializeFailure, serializeFailure, StageFailure, type StageFailureKind } from '../../../src/pipeline/StageFailure.js';
import { pcmWav, sine } from '../../helpers/pcmWav.js';

let folder: string;
let tonePath: string;
let notAudioPath: string;
beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'callscope-workers-'));
  tonePath = join(folder, 'tone.wav');
  notAudioPath = join(folder, 'notes.wav');
  writeFileSync(tonePath, pcmWav(sine(440, 2, 0.5)));
  writeFileSync(notAudioPath, 'not audio at all');
});
afterAll(() => { rmSync(folder, { recursive: true, force: true }); });

/** Collects the dispose acknowledgements threads broadcast while `close()` runs. */
function listenForAcknowledgements(): { messages: DisposedMessage[]; stop(): void } {
  const channel = new BroadcastChannel(workerAckChannel);
  const messages: DisposedMessage[] = [];
  channel.onmessage = (event) => { messages.push((event as { data: DisposedMessage }).data); };
  return { messages, stop: () => channel.close() };
}

describe('a pool in use', () => {
  let pool: WorkerPool;
  beforeAll(() => { pool = new WorkerPool(1); });
  afterAll(async () => { await pool.close(); });

  test('runs a task on a worker thread and returns its output', async () => {
    const levels = await pool.run('measureLevels', { path: tonePath });

    expect(levels).toMatchObject({ durationSeconds: 2, channels: 1, activeFraction: 1 });
    // A sine at half of full scale: peak -6 dBFS, RMS 3 dB lower.
    expect(levels.peakDbfs).toBeCloseTo(-6.02, 1);
    expect(levels.rmsDbfs).toBeCloseTo(-9.03, 1);
    expect(pool.threadCount).toBe(1);
  });

  test('an error thrown in a task arrives as an Error with its message, not as a StageFailure', async () => {
    const failure = await pool.run('measureLevels', { path: notAudioPath }).catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(Error);
    expect(failure).not.toBeInstanceOf(StageFailure);
    expect((failure as Error).message).toBe('not a RIFF/WAVE file');
  });

  test('a task name outside the task table is refused by the thread', async () => {
    await expect(pool.run('transcribe' as WorkerTaskName, { path: tonePath })).rejects.toThrow('unknown worker task transcribe');
  });

  test('a task whose signal is aborted rejects, and the pool goes on serving', async () => {
    // Repeated: a task aborted as it finishes may still send its result from the terminated thread,
    // which must not surface as an uncaught error.
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const controller = new AbortController();
      const aborted = pool.run('measureLevels', { path: tonePath }, controller.signal);
      controller.abort();
      await expect(aborted).rejects.toThrow(/abort/i);
    }

    await expect(pool.run('measureLevels', { path: tonePath }, AbortSignal.abort())).rejects.toThrow(/abort/i);
    expect((await pool.run('measureLevels', { path: tonePath })).channels).toBe(1);
  });
});

describe('close', () => {
  test('waits for running tasks, has every thread free its resources and confirm, then refuses new tasks', async () => {
    const pool = new WorkerPool(2);
    await Promise.all([pool.run('measureLevels', { path: tonePath }), pool.run('measureLevels', { path: tonePath })]);
    const threads = pool.threadCount;
    expect(threads).toBeGreaterThanOrEqual(1);
    const acknowledgements = listenForAcknowledgements();
    const stillRunning = pool.run('measureLevels', { path: tonePath });

    const closed = await pool.close();

    expect((await stillRunning).durationSeconds).toBe(2);
    expect(closed).toEqual({ threads, resourcesFreed: 0 });
    // The pool's own channel has every confirmation once close() resolves; this listener is another
    // BroadcastChannel, whose copies of the messages may arrive a moment later (seen under load).
    await vi.waitFor(() => expect(acknowledgements.messages).toHaveLength(threads), { timeout: 5000 });
    const threadIds = acknowledgements.messages.map((message) => message.threadId);
    expect(new Set(threadIds).size).toBe(threads);
    expect(threadIds).not.toContain(threadId);
    expect(pool.isClosed).toBe(true);
    await expect(pool.run('measureLevels', { path: tonePath })).rejects.toThrow('worker pool is closed');
    acknowledgements.stop();
  });

  test('a pool that never started a thread closes at once', async () => {
    const pool = new WorkerPool(1);
    expect(await pool.close()).toEqual({ threads: 0, resourcesFreed: 0 });
  });
});

describe('failures across the thread boundary', () => {
  // No task of the table throws a StageFailure yet, so the {code, message} form is checked directly.
  test.each<StageFailureKind>(['bad_input', 'transient', 'rejected', 'unavailable'])('a %s StageFailure crosses as {code, message} and comes back with the same kind and reason', (kind) => {
    const serialized = serializeFailure(new StageFailure(kind, 'The recording contains only silence', { cause: new Error('/srv/data/calls/x.wav') }));

    expect(serialized).toEqual({ code: kind, message: 'The recording contains only silence' });
    expect(structuredClone(serialized)).toEqual(serialized);
    const restored = deserializeFailure(structuredClone(serialized));
    expect(restored).toBeInstanceOf(StageFailure);
    expect(restored).toMatchObject({ kind, reason: 'The recording contains only silence' });
  });

  test('any other error crosses as an internal failure and comes back as a plain Error', () => {
    const restored = deserializeFailure(serializeFailure(new RangeError('offset out of range')));

    expect(restored).not.toBeInstanceOf(StageFailure);
    expect(restored.message).toBe('offset out of range');
    expect(serializeFailure('a thrown string')).toEqual({ code: 'internal', message: 'a thrown string' });
  });
});
