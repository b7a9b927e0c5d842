/**
 * A token bucket per user, in memory (one appliance, one process). A user may burst up to
 * `burst` requests, then `perMinute` per minute. Idle buckets are forgotten by `sweep()`.
 */
export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; updatedAt: number }>();
  private readonly tokensPerMs: number;

  constructor(private readonly perMinute: number, private readonly burst: number) {
    this.tokensPerMs = perMinute / 60_000;
  }

  get enabled(): boolean {
    return this.perMinute > 0;
  }

  /** Takes one token; returns 0 when allowed, else the seconds to wait before retrying. */
  take(key: string, now: number): number {
    if (!this.enabled) return 0;
    const bucket = this.buckets.get(key) ?? { tokens: this.burst, updatedAt: now };
    bucket.tokens = Math.min(this.burst, bucket.tokens + (now - bucket.updatedAt) * this.tokensPerMs);
    bucket.updatedAt = now;
    this.buckets.set(key, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - bucket.tokens) / this.tokensPerMs / 1000));
  }

  /** Drops buckets that have refilled completely: they carry no state worth keeping. */
  sweep(now: number): void {
    for (const [key, bucket] of this.buckets) {
      if (bucket.tokens + (now - bucket.updatedAt) * this.tokensPerMs >= this.burst) this.buckets.delete(key);
    }
  }
}
