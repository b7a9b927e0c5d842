import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Opaque tokens a server hands one user and takes back from them (paging cursors):
 * `<payload>.<mac>`, both base64url, the payload a JSON value. The HMAC covers the payload and
 * the user id, so a token cannot be altered, forged, or used by another user. Not encrypted:
 * put nothing in it the user may not read.
 */
export class UserBoundToken {
  constructor(private readonly key: Buffer) {}

  seal(userId: string, value: unknown): string {
    const payload = Buffer.from(JSON.stringify(value)).toString('base64url');
    return `${payload}.${this.mac(userId, payload)}`;
  }

  /** The sealed value, or undefined when the token is malformed, altered or someone else's. */
  open(userId: string, token: string): unknown {
    const [payload, mac, extra] = token.split('.');
    if (!payload || !mac || extra !== undefined) return undefined;
    const expected = Buffer.from(this.mac(userId, payload));
    const presented = Buffer.from(mac);
    if (expected.length !== presented.length || !timingSafeEqual(expected, presented)) return undefined;
    try {
      return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as unknown;
    } catch {
      return undefined;
    }
  }

  private mac(userId: string, payload: string): string {
    // 128 bits of the HMAC are plenty against forgery and keep tokens short.
    return createHmac('sha256', this.key).update(userId).update('\0').update(payload).digest().subarray(0, 16).toString('base64url');
  }
}
