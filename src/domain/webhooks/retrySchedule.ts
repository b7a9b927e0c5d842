/**
 * Waits before the 2nd, 3rd, … attempt of a webhook, ms: the Standard Webhooks specification's
 * suggested schedule (5 s, 5 min, 30 min, 2 h, 5 h, 10 h), then 10 h for every further attempt.
 */
export const standardRetryDelaysMs: readonly number[] = [5_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 5 * 3_600_000, 10 * 3_600_000];

/** Spread of the jitter: a wait is its scheduled length times a factor in [1 - spread, 1 + spread). */
export const retryJitter = 0.2;

/**
 * How long to wait after `failedAttempts` failed attempts (1 after the first), ms, with jitter so
 * that deliveries failed together (a receiver down for an hour) do not all come back at once.
 * `random` gives a number in [0, 1) (Math.random; tests pass a fixed one).
 */
export function retryDelayMs(failedAttempts: number, random: () => number = Math.random, delays: readonly number[] = standardRetryDelaysMs): number {
  const scheduled = delays[Math.min(Math.max(failedAttempts, 1), delays.length) - 1] ?? 0;
  return Math.round(scheduled * (1 - retryJitter + 2 * retryJitter * random()));
}
