import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { drawDownloadProgress, progressLine } from '../../../src/infrastructure/models/downloadProgressBar.js';
import type { ModelDownloadItem, ModelDownloads, ModelDownloadSnapshot } from '../../../src/infrastructure/models/ModelDownloads.js';

const MiB = 1024 ** 2;

const item = (entry: string, state: ModelDownloadItem['state'], receivedBytes: number, totalBytes: number | null): ModelDownloadItem =>
  ({ slot: 'segmentation', entry, state, receivedBytes, totalBytes, message: null, warning: null, target: null });
const snapshotOf = (items: ModelDownloadItem[], state: ModelDownloadSnapshot['state'] = 'running'): ModelDownloadSnapshot =>
  ({ state, trigger: 'start', startedAt: null, finishedAt: null, unreachable: null, items });

describe('progressLine', () => {
  test('0 %: an empty bar and the total', () => {
    expect(progressLine(snapshotOf([item('a', 'waiting', 0, 4 * MiB), item('b', 'waiting', 0, 4 * MiB)])))
      .toBe(`Downloading models [${'.'.repeat(30)}]   0%  0.0 of 8.0 MiB`);
  });

  test('partway: the bar filled in proportion, the percentage rounded down, the model being downloaded', () => {
    expect(progressLine(snapshotOf([item('a', 'downloading', 1 * MiB, 4 * MiB), item('b', 'waiting', 0, 4 * MiB)])))
      .toBe(`Downloading models [${'#'.repeat(4)}${'.'.repeat(26)}]  12%  1.0 of 8.0 MiB  a`);
    expect(progressLine(snapshotOf([item('a', 'downloaded', 4 * MiB, 4 * MiB), item('b', 'downloading', 3.2 * MiB, 4 * MiB)])))
      .toBe(`Downloading models [${'#'.repeat(27)}${'.'.repeat(3)}]  90%  7.2 of 8.0 MiB  b`);
  });

  test('100 %: a full bar; failed and unchanged models do not hold it back', () => {
    const done = `Downloading models [${'#'.repeat(30)}] 100%  8.0 of 8.0 MiB`;
    expect(progressLine(snapshotOf([item('a', 'downloaded', 4 * MiB, 4 * MiB), item('b', 'downloaded', 4 * MiB, 4 * MiB)], 'finished'))).toBe(done);
    expect(progressLine(snapshotOf([
      item('a', 'downloaded', 4 * MiB, 4 * MiB), item('b', 'downloaded', 4 * MiB, 4 * MiB),
      item('c', 'failed', 0, 140 * MiB), item('d', 'unchanged', 0, 25 * MiB),
    ], 'finished'))).toBe(done);
  });

  test('an unknown total: the bytes so far only', () => {
    expect(progressLine(snapshotOf([item('qwen', 'downloading', 1.5 * MiB, null)]))).toBe('Downloading models  1.5 MiB  qwen');
    expect(progressLine(snapshotOf([]))).toBe('Downloading models  0.0 MiB');
  });
});

describe('drawDownloadProgress', () => {
  /** Stands in for ModelDownloads: the bar only listens. */
  function fakeDownloads() {
    const listeners = new Set<(snapshot: ModelDownloadSnapshot) => void>();
    const downloads = {
      listen: (listener: (snapshot: ModelDownloadSnapshot) => void) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    } as unknown as ModelDownloads;
    return { downloads, emit: (snapshot: ModelDownloadSnapshot) => { for (const listener of listeners) listener(snapshot); }, listeners };
  }

  function terminalOf() {
    const terminal = new PassThrough();
    const writes: string[] = [];
    const write = terminal.write.bind(terminal);
    terminal.write = ((chunk: string) => {
      writes.push(String(chunk));
      return write(chunk);
    }) as typeof terminal.write;
    return { terminal, writes };
  }

  const progress = (received: number) => snapshotOf([item('a', 'downloading', received, 100 * MiB)]);

  // Only the clock the throttle reads is frozen; it moves when the test says so.
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.parse('2026-03-01T12:00:00Z'));
  });
  afterEach(() => { vi.useRealTimers(); });

  test('redraws one line in place, at most every 100 ms while running, always the final state, and ends the line', () => {
    const { downloads, emit, listeners } = fakeDownloads();
    const { terminal, writes } = terminalOf();
    const stop = drawDownloadProgress(downloads, terminal);

    for (let chunk = 1; chunk <= 50; chunk++) emit(progress(chunk * 64 * 1024));
    expect(writes).toEqual([`\r${progressLine(progress(64 * 1024))}\x1b[K`]);

    vi.advanceTimersByTime(99);
    emit(progress(51 * 64 * 1024));
    expect(writes).toHaveLength(1);
    vi.advanceTimersByTime(1);
    emit(progress(52 * 64 * 1024));
    expect(writes).toHaveLength(2);
    expect(writes[1]).toBe(`\r${progressLine(progress(52 * 64 * 1024))}\x1b[K`);

    // The end is drawn however soon it follows.
    const finished = snapshotOf([item('a', 'downloaded', 100 * MiB, 100 * MiB)], 'finished');
    emit(finished);
    expect(writes).toHaveLength(3);
    expect(writes[2]).toBe(`\r${progressLine(finished)}\x1b[K`);
    expect(writes[2]).toContain('100%');
    expect(writes.every((line) => line.startsWith('\r') && !line.includes('\n'))).toBe(true);

    stop();
    expect(writes.at(-1)).toBe('\n');
    expect(listeners.size).toBe(0);
    emit(progress(1));
    expect(writes).toHaveLength(4);
    expect(terminal.read()?.toString()).toBe(writes.join(''));
  });

  test('no bar before the first model is reached: not while all wait, not offline; a bar never drawn leaves the terminal untouched', () => {
    const { downloads, emit } = fakeDownloads();
    const { terminal, writes } = terminalOf();
    drawDownloadProgress(downloads, terminal)();
    expect(writes).toEqual([]);

    const stop = drawDownloadProgress(downloads, terminal);
    emit(snapshotOf([item('a', 'waiting', 0, 100 * MiB)], 'running'));
    emit({ ...snapshotOf([item('a', 'waiting', 0, 100 * MiB)], 'offline'), unreachable: 'huggingface.co' });
    stop();
    expect(writes).toEqual([]);
  });
});
