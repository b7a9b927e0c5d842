import { UserBoundToken } from '../../infrastructure/crypto/UserBoundToken.js';

/** Where a page ends, and the filter it was asked with. */
export interface CursorPosition {
  /** The last call's `seq`: the next page starts below it. */
  beforeSeq: number;
  /** The status filter, as given (a cursor is only valid with the same filter). */
  statusFilter: string;
}

/** Opaque paging cursors of the call list, bound to their user (see UserBoundToken). */
export class CallCursor {
  private readonly tokens: UserBoundToken;

  constructor(key: Buffer) {
    this.tokens = new UserBoundToken(key);
  }

  encode(userId: string, position: CursorPosition): string {
    return this.tokens.seal(userId, { s: position.beforeSeq, f: position.statusFilter });
  }

  /** The position, or undefined when the cursor is malformed, altered or someone else's. */
  decode(userId: string, cursor: string): CursorPosition | undefined {
    const decoded = this.tokens.open(userId, cursor) as { s?: unknown; f?: unknown } | null | undefined;
    if (!decoded || !Number.isSafeInteger(decoded.s) || typeof decoded.f !== 'string') return undefined;
    return { beforeSeq: decoded.s as number, statusFilter: decoded.f };
  }
}
