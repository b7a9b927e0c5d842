import type { CallStatus } from './callTypes.js';

/** The spec's bounds for the hint, milliseconds. */
export const minPollMs = 1000;
export const maxPollMs = 60_000;
/**
 * Longest hint while a polled call is in flight: its status can change at any moment (a short
 * call finishes in seconds), so clients poll at the spec's suggested 3-5 s cadence, ms.
 */
export const inFlightMaxPollMs = 5000;

export interface PolledCall {
  status: CallStatus;
  /** For QUEUED calls: how many queued calls (of any user) were accepted before it. */
  queuedAhead: number;
  /** For calls in flight: progress of the run, 0..1, as the engine records it. Defaults to 0.5. */
  progress?: number;
}

export interface QueueState {
  /** How many calls are processed at once. */
  concurrency: number;
  /** Calls being processed right now. */
  inFlight: number;
  /** Typical wall-clock processing time of one call, milliseconds. */
  typicalCallMs: number;
}

/**
 * When the client should poll again: the soonest expected status change among the polled calls,
 * clamped to 1000..60000 ms. Undefined when every polled call is terminal (nothing to wait for).
 *
 * A queued call starts after the calls ahead of it and those in flight drain through
 * `concurrency` slots; a call in flight changes status within the rest of a typical call
 * (by its recorded progress).
 * The hint is half the expected wait, so a status change is seen with at most that delay, and
 * at most {@link inFlightMaxPollMs} while any polled call is in flight.
 */
export function estimateNextPollMs(polled: readonly PolledCall[], queue: QueueState): number | undefined {
  let soonestChangeMs = Number.POSITIVE_INFINITY;
  for (const call of polled) {
    if (call.status === 'COMPLETED' || call.status === 'FAILED') continue;
    const changeMs = call.status === 'QUEUED'
      // With every slot busy, the first wave ahead is the calls in flight, already about halfway.
      ? Math.floor((call.queuedAhead + queue.inFlight) / Math.max(1, queue.concurrency)) * queue.typicalCallMs
        - (queue.inFlight >= queue.concurrency ? queue.typicalCallMs / 2 : 0)
      : queue.typicalCallMs * (1 - Math.min(1, Math.max(0, call.progress ?? 0.5)));
    soonestChangeMs = Math.min(soonestChangeMs, changeMs);
  }
  if (soonestChangeMs === Number.POSITIVE_INFINITY) return undefined;
  const anyInFlight = polled.some((call) => call.status === 'TRANSCRIBING' || call.status === 'ANALYZING');
  return Math.round(Math.min(anyInFlight ? inFlightMaxPollMs : maxPollMs, Math.max(minPollMs, soonestChangeMs / 2)));
}
