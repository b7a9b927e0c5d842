import type { AdminCredentialRepository } from './AdminCredentialRepository.js';
import { randomSecret, sha256Hex } from './sha256.js';

/** Prefix of generated API keys, so one is recognisable in a config file or a support ticket. */
const apiKeyPrefix = 'cs_';

/** How long a node trusts its copy of the stored key, ms: a rotation on another API node applies here within this. */
export const storedApiKeyRecheckMs = 5_000;

interface KnownKey {
  value: { digest: Buffer; createdAt: number } | null;
  /** When the copy was read, ms (monotonic). */
  readAt: number;
}

/**
 * The API key generated on the admin page (used when the `API_KEY` env variable is unset). Only
 * its sha256 is stored. The `/api` guard asks on every request, so the answer is kept for
 * {@link storedApiKeyRecheckMs}: a rotation or removal on this node applies with the next request,
 * one on another node within that time.
 */
export class StoredApiKey {
  private known?: KnownKey;

  constructor(private readonly credentials: AdminCredentialRepository, private readonly monotonicMs: () => number = () => performance.now()) {}

  /** sha256 of the stored key (raw bytes), or undefined when none is stored. */
  async digest(): Promise<Buffer | undefined> {
    return (await this.current())?.digest;
  }

  async createdAt(): Promise<number | undefined> {
    return (await this.current())?.createdAt;
  }

  /** Generates a new key (`cs_` + 32 random bytes, base64url), replacing any other; returns it, the only time it is seen. */
  async rotate(now: number): Promise<string> {
    const key = `${apiKeyPrefix}${randomSecret()}`;
    await this.credentials.put('api_key', sha256Hex(key), now);
    this.known = undefined;
    return key;
  }

  /** Removes the stored key: `/api` needs no key any more (unless `API_KEY` is set). */
  async remove(): Promise<boolean> {
    const removed = await this.credentials.remove('api_key');
    this.known = undefined;
    return removed;
  }

  private async current(): Promise<KnownKey['value']> {
    const now = this.monotonicMs();
    if (this.known && now - this.known.readAt < storedApiKeyRecheckMs) return this.known.value;
    const record = await this.credentials.get('api_key');
    this.known = { value: record ? { digest: Buffer.from(record.secretHash, 'hex'), createdAt: record.createdAt } : null, readAt: now };
    return this.known.value;
  }
}
