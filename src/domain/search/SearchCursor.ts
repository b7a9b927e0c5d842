import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Paging cursors of search results: `<payload>.<mac>`, both base64url. The payload holds how
 * many results the earlier pages showed (results are ranked, so there is no keyset to resume
 * from) and a digest of the query; the HMAC covers the payload and the user id, so a cursor
 * cannot be altered, forged, used by another user or with another query.
 */
export class SearchCursor {
  constructor(private readonly key: Buffer) {}

  /** `queryKey`: the parsed query's canonical form (SearchQuery.key). */
  encode(userId: string, queryKey: string, offset: number): string {
    const payload = Buffer.from(JSON.stringify({ o: offset, q: digestOf(queryKey) })).toString('base64url');
    return `${payload}.${this.mac(userId, payload)}`;
  }

  /** The offset, or undefined when the cursor is malformed, altered, someone else's or another query's. */
  decode(userId: string, queryKey: string, cursor: string): number | undefined {
    const [payload, mac, extra] = cursor.split('.');
    if (!payload || !mac || extra !== undefined) return undefined;
    const expected = Buffer.from(this.mac(userId, payload));
    const presented = Buffer.from(mac);
    if (expected.length !== presented.length || !timingSafeEqual(expected, presented)) return undefined;
    try {
      const decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { o?: unknown; q?: unknown };
      if (!Number.isSafeInteger(decoded.o) || (decoded.o as number) < 0 || decoded.q !== digestOf(queryKey)) return undefined;
      return decoded.o as number;
    } catch {
      return undefined;
    }
  }

  private mac(userId: string, payload: string): string {
    // 128 bits of the HMAC are plenty against forgery and keep cursors short.
    return createHmac('sha256', this.key).update(userId).update('\0').update(payload).digest().subarray(0, 16).toString('base64url');
  }
}

/** 96 bits of sha256: tells queries apart without carrying their words in the cursor. */
function digestOf(queryKey: string): string {
  return createHash('sha256').update(queryKey).digest().subarray(0, 12).toString('base64url');
}
