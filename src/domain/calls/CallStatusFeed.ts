import type { Clock } from '../../infrastructure/clock.js';
import type { CallState } from './CallStateRepository.js';

/** Where the feed reads changes from ({@link CallStateRepository} in the service). */
export interface CallStateSource {
  changedSince(since: number): Promise<CallState[]>;
}

export interface CallStatusFeedOptions {
  clock: Clock;
  /** Time between the end of one look at the database and the start of the next, ms. Defaults to `1000`. */
  pollIntervalMs?: number;
  /**
   * How far before the previous look each look reaches back, ms: a change committed late (a
   * transaction that took long) or written by a node whose clock lags behind is still seen.
   * Defaults to {@link defaultLookbackMs}.
   */
  lookbackMs?: number;
  /** Told when a look fails (database unreachable); the next look tries again. Defaults to ignoring it. */
  onError?: (error: unknown) => void;
}

export const defaultLookbackMs = 5000;

/** What a subscriber is told: a call's state whenever what a client sees of it changes. */
export type CallStateListener = (state: CallState) => void;

/**
 * The process-wide feed of call status changes behind the live-status streams. While at least
 * one subscriber exists it asks the database, about once a second, for the calls whose
 * `updated_at` moved (one query for all users, whichever node wrote the change), and tells each
 * change to the subscribers of the call's owner; with no subscriber it does not poll at all.
 *
 * Each look reaches back `lookbackMs` before the previous one started, so rows are seen more
 * than once: every subscription remembers what it was told of each call and hears only of
 * changes of the status, progress, stage or failure reason. A subscriber hears only of looks
 * that started after it subscribed, so a state read before its snapshot never reaches it after.
 */
export class CallStatusFeed {
  private readonly byUser = new Map<string, Set<Subscription>>();
  private subscriberCount = 0;
  private readonly pollIntervalMs: number;
  private readonly lookbackMs: number;
  private timer: NodeJS.Timeout | undefined;
  private polling: Promise<void> | undefined;
  /** When the last successful look started (the next one reaches back from there), ms. */
  private lastLookStartedAt = 0;
  private closed = false;

  constructor(private readonly source: CallStateSource, private readonly options: CallStatusFeedOptions) {
    this.pollIntervalMs = options.pollIntervalMs ?? 1000;
    this.lookbackMs = options.lookbackMs ?? defaultLookbackMs;
  }

  /** Whether the feed is polling now (a subscriber exists, or a look is still under way). */
  get isPolling(): boolean {
    return this.timer !== undefined || this.polling !== undefined;
  }

  /**
   * Tells `listener` of every later change of the user's calls. `known` are the states the
   * subscriber already has (its snapshot), so they are not told again. Returns the function that
   * ends the subscription.
   */
  subscribe(userId: string, known: readonly CallState[], listener: CallStateListener): () => void {
    if (this.closed) return () => {};
    const subscription = new Subscription(listener, known);
    let subscriptions = this.byUser.get(userId);
    if (!subscriptions) this.byUser.set(userId, subscriptions = new Set());
    subscriptions.add(subscription);
    this.subscriberCount += 1;
    if (!this.isPolling) {
      this.lastLookStartedAt = this.options.clock();
      this.scheduleLook();
    }
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      subscriptions.delete(subscription);
      if (subscriptions.size === 0 && this.byUser.get(userId) === subscriptions) this.byUser.delete(userId);
      this.subscriberCount -= 1;
      if (this.subscriberCount === 0 && this.timer) {
        clearTimeout(this.timer);
        this.timer = undefined;
      }
    };
  }

  /** Stops polling for good (waits for a look under way); later subscriptions hear nothing. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.polling;
    this.byUser.clear();
    this.subscriberCount = 0;
  }

  private scheduleLook(): void {
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.polling = this.look().finally(() => {
        this.polling = undefined;
        if (this.subscriberCount > 0 && !this.closed) this.scheduleLook();
      });
    }, this.pollIntervalMs);
    this.timer.unref();
  }

  private async look(): Promise<void> {
    // Captured before the query: a subscription made while it runs hears of the next look only.
    const audience = new Set([...this.byUser.values()].flatMap((subscriptions) => [...subscriptions]));
    const startedAt = this.options.clock();
    let changed: CallState[];
    try {
      changed = await this.source.changedSince(this.lastLookStartedAt - this.lookbackMs);
    } catch (error) {
      // The window stays where it was: the next look covers this one's changes too.
      this.options.onError?.(error);
      return;
    }
    this.lastLookStartedAt = startedAt;
    for (const state of changed) {
      for (const subscription of this.byUser.get(state.userId) ?? []) {
        if (!audience.has(subscription)) continue;
        try {
          subscription.offer(state);
        } catch (error) {
          // One subscriber's failure (its connection gone mid-write) must not keep the change from the others.
          this.options.onError?.(error);
        }
      }
    }
    // Rows changed at or before the next look's window start are never read again unless they change.
    const nextWindowStart = startedAt - this.lookbackMs;
    for (const subscription of audience) subscription.forgetOlderThan(nextWindowStart);
  }
}

/** One subscriber and what it was told of each call. */
class Subscription {
  /** By call id: the visible state last told, and the updated_at it came with. */
  private readonly told = new Map<string, { visible: string; updatedAt: number }>();

  constructor(private readonly listener: CallStateListener, known: readonly CallState[]) {
    for (const state of known) this.told.set(state.callId, { visible: visibleStateOf(state), updatedAt: state.updatedAt });
  }

  offer(state: CallState): void {
    const visible = visibleStateOf(state);
    const previous = this.told.get(state.callId);
    this.told.set(state.callId, { visible, updatedAt: state.updatedAt });
    if (previous?.visible !== visible) this.listener(state);
  }

  forgetOlderThan(windowStart: number): void {
    for (const [callId, entry] of this.told) if (entry.updatedAt <= windowStart) this.told.delete(callId);
  }
}

/** What a client sees of a call's state; a change of `updated_at` alone is not news. */
function visibleStateOf(state: CallState): string {
  return JSON.stringify([state.status, state.progress, state.stage, state.errorReason]);
}
