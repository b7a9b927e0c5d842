import { createHash, randomBytes } from 'node:crypto';

/** The hex sha256 under which a random secret (token, key, session id) is stored. */
export function sha256Hex(value: string): string {
  return sha256Digest(value).toString('hex');
}

/** Raw sha256: fixed-length digests make `timingSafeEqual` constant-time whatever was presented. */
export function sha256Digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

/** 32 random bytes, base64url: the admin area's tokens, session ids and API keys. */
export function randomSecret(): string {
  return randomBytes(32).toString('base64url');
}
