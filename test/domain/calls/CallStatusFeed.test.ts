import { describe, expect, test } from 'vitest';
import type { CallState } from '../../../src/domain/calls/CallStateRepository.js';
import { CallStatusFeed, type CallStateSource } from '../../../src/domain/calls/CallStatusFeed.js';

/*
 * The feed against a scripted database: what it asks for, and what each subscriber is told.
 * Each test waits for the feed's next question (a look starts only once the previous one has
 * been told to the subscribers), never for a time.
 */

/** Answers with `rows` (or throws `failure`); records every `since` asked; lets a test wait for the n-th question. */
class ScriptedSource implements CallStateSource {
  rows: CallState[] = [];
  failure: Error | undefined;
  /** Holds the next answer back until released. */
  hold: Promise<void> | undefined;
  readonly asked: number[] = [];
  private waiters: { count: number; resolve: () => void }[] = [];

  async changedSince(since: number): Promise<CallState[]> {
    // The answer is the database as it stands when asked, however long it takes to arrive.
    const rows = this.rows.filter((row) => row.updatedAt > since);
    const failure = this.failure;
    this.asked.push(since);
    for (const waiter of this.waiters.filter((entry) => entry.count <= this.asked.length)) waiter.resolve();
    this.waiters = this.waiters.filter((entry) => entry.count > this.asked.length);
    await this.hold;
    if (failure) throw failure;
    return rows;
  }

  /** Resolves once the feed has asked `count` times in all. */
  askedTimes(count: number): Promise<void> {
    if (this.asked.length >= count) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ count, resolve }));
  }
}

let now = 100_000;
const clock = () => now;

function state(callId: string, fields: Partial<CallState> = {}): CallState {
  return { callId, userId: 'alice', status: 'TRANSCRIBING', progress: 0, stage: null, errorReason: null, updatedAt: now, ...fields };
}

function feedOn(source: ScriptedSource, errors: unknown[] = []): CallStatusFeed {
  return new CallStatusFeed(source, { clock, pollIntervalMs: 1, lookbackMs: 5000, onError: (error) => errors.push(error) });
}

describe('CallStatusFeed', () => {
  test('polls only while someone listens', async () => {
    const source = new ScriptedSource();
    const feed = feedOn(source);
    expect(feed.isPolling).toBe(false);
    const unsubscribe = feed.subscribe('alice', [], () => {});
    expect(feed.isPolling).toBe(true);
    unsubscribe();
    expect(feed.isPolling).toBe(false);
    expect(source.asked).toEqual([]);

    feed.subscribe('alice', [], () => {});
    await source.askedTimes(2);
    await feed.close();
    expect(feed.isPolling).toBe(false);
  });

  test('tells a change once, though it is read again while in the look-back window, and tells the next change', async () => {
    const source = new ScriptedSource();
    const feed = feedOn(source);
    const told: CallState[] = [];
    const known = state('call-known', { status: 'QUEUED' });
    source.rows = [known];
    feed.subscribe('alice', [known], (change) => told.push(change));
    source.rows = [known, state('call-1', { progress: 0.2 })];
    await source.askedTimes(3);
    expect(told.map((change) => [change.callId, change.progress])).toEqual([['call-1', 0.2]]);

    now += 10;
    source.rows = [known, state('call-1', { progress: 0.5, stage: 'transcription' })];
    await source.askedTimes(5);
    expect(told.map((change) => [change.callId, change.progress])).toEqual([['call-1', 0.2], ['call-1', 0.5]]);
    await feed.close();
  });

  test('tells a user only of their own calls', async () => {
    const source = new ScriptedSource();
    const feed = feedOn(source);
    const toAlice: string[] = [];
    const toBob: string[] = [];
    feed.subscribe('alice', [], (change) => toAlice.push(change.callId));
    feed.subscribe('bob', [], (change) => toBob.push(change.callId));
    source.rows = [state('alice-call'), state('bob-call', { userId: 'bob' }), state('carol-call', { userId: 'carol' })];
    await source.askedTimes(2);
    expect(toAlice).toEqual(['alice-call']);
    expect(toBob).toEqual(['bob-call']);
    await feed.close();
  });

  test('a subscriber that joins during a look hears of the next look only', async () => {
    const source = new ScriptedSource();
    const feed = feedOn(source);
    let release: () => void = () => {};
    source.hold = new Promise((resolve) => { release = resolve; });
    source.rows = [state('call-1', { progress: 0.1 })];
    const early: number[] = [];
    const late: number[] = [];
    feed.subscribe('alice', [], (change) => early.push(change.progress));
    await source.askedTimes(1);
    // The row the running look will return is older than what the late subscriber's snapshot showed.
    feed.subscribe('alice', [state('call-1', { progress: 0.3 })], (change) => late.push(change.progress));
    source.rows = [state('call-1', { progress: 0.3 })];
    source.hold = undefined;
    release();
    await source.askedTimes(3);
    expect(early).toEqual([0.1, 0.3]);
    expect(late).toEqual([]);
    await feed.close();
  });

  test('a failed look is reported, and the next one reaches back as far', async () => {
    const source = new ScriptedSource();
    const errors: unknown[] = [];
    const feed = feedOn(source, errors);
    source.failure = new Error('database unreachable');
    feed.subscribe('alice', [], () => {});
    await source.askedTimes(1);
    now += 1000;
    await source.askedTimes(2);
    source.failure = undefined;
    await source.askedTimes(3);
    expect(errors.length).toBeGreaterThanOrEqual(1);
    expect(source.asked[1]).toBe(source.asked[0]);
    await feed.close();
  });
});
