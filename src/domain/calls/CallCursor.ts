import { createHmac, timingSafeEqual } from 'node:crypto';

/** Where a page ends, and the filter it was asked with. */
export interface CursorPosition {
  /** The last call's `seq`: the next page starts below it. */
  beforeSeq: number;
  /** The status filter, as given (a cursor is only valid with the same filter). */
  statusFilter: string;
}

/**
 * Opaque paging cursors: `<payload>.<mac>`, both base64url. The HMAC covers the payload and the
 * user id, so a cursor cannot be altered, forged, or used by another user.
 */
export class CallCursor {
  constructor(private readonly key: Buffer) {}

  encode(userId: string, position: CursorPosition): string {
    const payload = Buffer.from(JSON.stringify({ s: position.beforeSeq, f: position.statusFilter })).toString('base64url');
    return `${payload}.${this.mac(userId, payload)}`;
  }

  /** The position, or undefined when the cursor is malformed, altered or someone else's. */
  decode(userId: string, cursor: string): CursorPosition | undefined {
    const [payload, mac, extra] = cursor.split('.');
    if (!payload || !mac || extra !== undefined) return undefined;
    const expected = Buffer.from(this.mac(userId, payload));
    const presented = Buffer.from(mac);
    if (expected.length !== presented.length || !timingSafeEqual(expected, presented)) return undefined;
    try {
      const decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { s?: unknown; f?: unknown };
      if (!Number.isSafeInteger(decoded.s) || typeof decoded.f !== 'string') return undefined;
      return { beforeSeq: decoded.s as number, statusFilter: decoded.f };
    } catch {
      return undefined;
    }
  }

  private mac(userId: string, payload: string): string {
    // 128 bits of the HMAC are plenty against forgery and keep cursors short.
    return createHmac('sha256', this.key).update(userId).update('\0').update(payload).digest().subarray(0, 16).toString('base64url');
  }
}
