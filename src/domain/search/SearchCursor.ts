import { createHash } from 'node:crypto';
import { UserBoundToken } from '../../infrastructure/crypto/UserBoundToken.js';

/**
 * Paging cursors of search results: `<payload>.<mac>`, both base64url. The payload holds how
 * many results the earlier pages showed (results are ranked, so there is no keyset to resume
 * from) and a digest of the query; the HMAC covers the payload and the user id, so a cursor
 * cannot be altered, forged, used by another user or with another query.
 */
export class SearchCursor {
  private readonly tokens: UserBoundToken;

  constructor(key: Buffer) {
    this.tokens = new UserBoundToken(key);
  }

  /** `queryKey`: the parsed query's canonical form (SearchQuery.key). */
  encode(userId: string, queryKey: string, offset: number): string {
    return this.tokens.seal(userId, { o: offset, q: digestOf(queryKey) });
  }

  /** The offset, or undefined when the cursor is malformed, altered, someone else's or another query's. */
  decode(userId: string, queryKey: string, cursor: string): number | undefined {
    const decoded = this.tokens.open(userId, cursor) as { o?: unknown; q?: unknown } | null | undefined;
    if (!decoded || !Number.isSafeInteger(decoded.o) || (decoded.o as number) < 0 || decoded.q !== digestOf(queryKey)) return undefined;
    return decoded.o as number;
  }
}

/** 96 bits of sha256: tells queries apart without carrying their words in the cursor. */
function digestOf(queryKey: string): string {
  return createHash('sha256').update(queryKey).digest().subarray(0, 12).toString('base64url');
}
