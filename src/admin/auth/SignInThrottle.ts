/** Failed sign-ins counted per key before it is locked. */
const maxFailures = 5;
/** Failures older than this are forgotten, ms. */
const windowMs = 15 * 60_000;
/** First lock; each further lock in a row doubles it, up to {@link maxLockMs}. */
const firstLockMs = 60_000;
const maxLockMs = 60 * 60_000;
/** Tracked keys beyond which forgotten ones are swept (one per client IP that failed). */
const sweepAbove = 10_000;

interface KeyState {
  /** Times of failures within the window, ms. */
  failures: number[];
  lockedUntil: number;
  /** Locks in a row without a success or a quiet window: the exponent of the back-off. */
  locks: number;
}

/**
 * Sign-in lockout: after 5 failures within 15 minutes a key is locked for a minute, and each
 * further failure once the lock ends locks it twice as long (at most an hour), until 15 quiet
 * minutes (no failure, no lock) forgive it. Keys are the client IP and the account itself, so
 * neither one address nor many can guess on. A success clears both. Kept in memory: a restart
 * forgets the counts, which is fine for one admin account.
 */
export class SignInThrottle {
  private readonly states = new Map<string, KeyState>();
  private previousAttempt: Promise<unknown> = Promise.resolve();

  /**
   * Runs `verify` unless one of `keys` is locked, and counts its outcome. Attempts run one at a
   * time, so a burst of parallel guesses cannot all start before the first failures are counted.
   */
  attempt(keys: readonly string[], clock: () => number, verify: () => Promise<boolean>): Promise<{ verified: boolean } | { retryAfterSeconds: number }> {
    const attempt = this.previousAttempt.then(async () => {
      const retryAfterSeconds = this.retryAfterSeconds(keys, clock());
      if (retryAfterSeconds > 0) return { retryAfterSeconds };
      const verified = await verify();
      if (verified) this.recordSuccess(keys);
      else this.recordFailure(keys, clock());
      return { verified };
    });
    this.previousAttempt = attempt.catch(() => undefined);
    return attempt;
  }

  /** Seconds until the first of `keys` is unlocked; 0 when none is locked. */
  retryAfterSeconds(keys: readonly string[], now: number): number {
    const lockedUntil = Math.max(0, ...keys.map((key) => this.states.get(key)?.lockedUntil ?? 0));
    return lockedUntil > now ? Math.ceil((lockedUntil - now) / 1000) : 0;
  }

  recordFailure(keys: readonly string[], now: number): void {
    if (this.states.size > sweepAbove) this.sweep(now);
    for (const key of keys) {
      const known = this.states.get(key);
      const state = known && !isForgiven(known, now) ? known : { failures: [], lockedUntil: 0, locks: 0 };
      state.failures = [...state.failures.filter((at) => at > now - windowMs), now];
      // Once locked, every failure until a quiet window locks again, twice as long.
      if (state.locks > 0 || state.failures.length >= maxFailures) {
        state.lockedUntil = now + Math.min(firstLockMs * 2 ** state.locks, maxLockMs);
        state.locks += 1;
      }
      this.states.set(key, state);
    }
  }

  recordSuccess(keys: readonly string[]): void {
    for (const key of keys) this.states.delete(key);
  }

  private sweep(now: number): void {
    for (const [key, state] of this.states) if (isForgiven(state, now)) this.states.delete(key);
  }
}

/** No failure and no lock for a whole window: everything before is forgotten, earlier locks too. */
function isForgiven(state: KeyState, now: number): boolean {
  return Math.max(state.lockedUntil, ...state.failures) <= now - windowMs;
}
