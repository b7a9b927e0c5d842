import type { AdminCredentialRepository } from './AdminCredentialRepository.js';
import { randomSecret, sha256Hex } from './sha256.js';

/** Prefix of generated API keys, so one is recognisable in a config file or a support ticket. */
const apiKeyPrefix = 'cs_';

/**
 * The API key generated on the admin page (used when the `API_KEY` env variable is unset). Only
 * its sha256 is stored; the `/api` guard reads {@link digest} on every request, so a rotation or
 * removal takes effect with the next request.
 */
export class StoredApiKey {
  // The guard asks on every request; this process is the only writer, so a cached copy stays true.
  private cached?: { digest: Buffer; createdAt: number } | null;

  constructor(private readonly credentials: AdminCredentialRepository) {}

  /** sha256 of the stored key (raw bytes), or undefined when none is stored. */
  digest(): Buffer | undefined {
    return this.current()?.digest;
  }

  createdAt(): number | undefined {
    return this.current()?.createdAt;
  }

  /** Generates a new key (`cs_` + 32 random bytes, base64url), replacing any other; returns it, the only time it is seen. */
  rotate(now: number): string {
    const key = `${apiKeyPrefix}${randomSecret()}`;
    this.credentials.put('api_key', sha256Hex(key), now);
    this.cached = undefined;
    return key;
  }

  /** Removes the stored key: `/api` needs no key any more (unless `API_KEY` is set). */
  remove(): boolean {
    this.cached = undefined;
    return this.credentials.remove('api_key');
  }

  private current(): { digest: Buffer; createdAt: number } | null {
    if (this.cached === undefined) {
      const record = this.credentials.get('api_key');
      this.cached = record ? { digest: Buffer.from(record.secretHash, 'hex'), createdAt: record.createdAt } : null;
    }
    return this.cached;
  }
}
