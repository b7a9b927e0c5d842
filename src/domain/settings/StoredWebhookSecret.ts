import { newWebhookSecret } from '../../infrastructure/inference/standardWebhooks.js';
import type { SettingsRepository } from './SettingsRepository.js';

/**
 * A Standard Webhooks secret (`whsec_…`) from an environment variable, else the one generated on
 * the admin page and kept in the database under `storedKey` (so that every node and every request
 * reads the one in force: a rotation replaces the old one at once, as the specification asks).
 * Never logged; shown once when generated.
 */
export class StoredWebhookSecret {
  constructor(
    private readonly settings: SettingsRepository,
    /** The environment's value, read at each use (undefined: not set there). */
    private readonly fromEnvironment: () => string | undefined,
    private readonly storedKey: string,
  ) {}

  /** The secret in force now, or undefined when none is configured. */
  async current(): Promise<string | undefined> {
    return this.fromEnvironment() ?? this.settings.get(this.storedKey);
  }

  async source(): Promise<'env' | 'stored' | 'none'> {
    if (this.fromEnvironment()) return 'env';
    return (await this.settings.get(this.storedKey)) === undefined ? 'none' : 'stored';
  }

  /** A new secret in place of the stored one (the caller refuses this when the environment sets it). */
  async rotate(now: number): Promise<string> {
    const secret = newWebhookSecret();
    await this.settings.set(this.storedKey, secret, now);
    return secret;
  }
}
