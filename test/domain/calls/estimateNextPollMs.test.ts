import { describe, expect, test } from 'vitest';
import { estimateNextPollMs, inFlightMaxPollMs, maxPollMs, minPollMs, type QueueState } from '../../../src/domain/calls/estimateNextPollMs.js';

/** One worker, idle, a minute per call. */
const idle: QueueState = { concurrency: 1, inFlight: 0, typicalCallMs: 60_000 };

describe('estimateNextPollMs', () => {
  test('is undefined when every call is COMPLETED or FAILED', () => {
    expect(estimateNextPollMs([{ status: 'COMPLETED', queuedAhead: 0 }, { status: 'FAILED', queuedAhead: 0 }], idle)).toBeUndefined();
  });

  test('is undefined when no call is polled', () => {
    expect(estimateNextPollMs([], idle)).toBeUndefined();
  });

  test.each(['TRANSCRIBING', 'ANALYZING'] as const)('for a call %s is a quarter of a typical call, at most the 5 s cadence', (status) => {
    expect(estimateNextPollMs([{ status, queuedAhead: Number.MAX_SAFE_INTEGER }], { ...idle, typicalCallMs: 16_000 })).toBe(4000);
    expect(estimateNextPollMs([{ status, queuedAhead: Number.MAX_SAFE_INTEGER }], idle)).toBe(inFlightMaxPollMs);
  });

  test('for a call next in an idle queue is the minimum, since it starts at once', () => {
    expect(estimateNextPollMs([{ status: 'QUEUED', queuedAhead: 0 }], idle)).toBe(minPollMs);
  });

  test('for a call next in line behind a busy worker is half the rest of the running call, whose end starts it', () => {
    // The running call is about halfway: 30 s left, hint half of it.
    expect(estimateNextPollMs([{ status: 'QUEUED', queuedAhead: 0 }], { ...idle, inFlight: 1 })).toBe(15_000);
  });

  test('for a call second in line behind a busy worker adds one typical call', () => {
    // Running call ends in ~30 s, the one ahead then takes 60 s: 90 s expected, hint half of it.
    expect(estimateNextPollMs([{ status: 'QUEUED', queuedAhead: 1 }], { ...idle, inFlight: 1 })).toBe(45_000);
  });

  test('for a call deep in the queue is capped at the maximum', () => {
    expect(estimateNextPollMs([{ status: 'QUEUED', queuedAhead: 50 }], { ...idle, inFlight: 1 })).toBe(maxPollMs);
  });

  test('shrinks with more workers draining the same queue', () => {
    const queued = [{ status: 'QUEUED' as const, queuedAhead: 3 }];
    const oneWorker = estimateNextPollMs(queued, { concurrency: 1, inFlight: 1, typicalCallMs: 20_000 })!;
    const fourWorkers = estimateNextPollMs(queued, { concurrency: 4, inFlight: 1, typicalCallMs: 20_000 })!;
    expect(fourWorkers).toBeLessThan(oneWorker);
  });

  test('follows the soonest expected change among several calls', () => {
    const polled = [
      { status: 'QUEUED' as const, queuedAhead: 40 },
      { status: 'ANALYZING' as const, queuedAhead: Number.MAX_SAFE_INTEGER },
      { status: 'COMPLETED' as const, queuedAhead: 0 },
    ];
    expect(estimateNextPollMs(polled, { ...idle, inFlight: 1 })).toBe(inFlightMaxPollMs);
  });

  test('is never below the minimum, even for very fast processing', () => {
    expect(estimateNextPollMs([{ status: 'TRANSCRIBING', queuedAhead: 0 }], { ...idle, typicalCallMs: 100 })).toBe(minPollMs);
  });

  test('is a whole number of milliseconds', () => {
    const hint = estimateNextPollMs([{ status: 'ANALYZING', queuedAhead: 0 }], { ...idle, typicalCallMs: 12_345 });
    expect(Number.isInteger(hint)).toBe(true);
    expect(hint).toBeGreaterThanOrEqual(minPollMs);
    expect(hint).toBeLessThanOrEqual(maxPollMs);
  });
});
