/** The limits on long-lived streams, read at each opening (so a changed setting applies to the next stream). */
export interface StreamLimits {
  /** Streams one user may hold open at once. */
  perUser: number;
  /** Streams the process holds open at once, all users together. */
  total: number;
}

/** An opening: granted with the function that frees the slot (safe to call more than once), or refused at a limit. */
export type SlotGrant =
  | { granted: true; release: () => void }
  | { granted: false; scope: 'user' | 'server'; limit: number };

/** Counts the open streams per user and in all, and refuses one more past either limit. */
export class StreamSlots {
  private readonly perUser = new Map<string, number>();
  private total = 0;

  constructor(private readonly limits: () => StreamLimits) {}

  take(userId: string): SlotGrant {
    const limits = this.limits();
    const held = this.perUser.get(userId) ?? 0;
    if (held >= limits.perUser) return { granted: false, scope: 'user', limit: limits.perUser };
    if (this.total >= limits.total) return { granted: false, scope: 'server', limit: limits.total };
    this.perUser.set(userId, held + 1);
    this.total += 1;
    let released = false;
    return {
      granted: true,
      release: () => {
        if (released) return;
        released = true;
        this.total -= 1;
        const remaining = (this.perUser.get(userId) ?? 1) - 1;
        if (remaining > 0) this.perUser.set(userId, remaining);
        else this.perUser.delete(userId);
      },
    };
  }

  /** Streams open now, in all. */
  get openCount(): number {
    return this.total;
  }
}
