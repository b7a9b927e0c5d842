import type { Config } from '../../config/configSchema.js';
import { newWebhookSecret } from '../../infrastructure/inference/standardWebhooks.js';
import type { SettingsRepository } from './SettingsRepository.js';

const storedKey = 'transcription_webhook_secret';

/**
 * The secret the transcription provider signs its callbacks with: `TRANSCRIPTION_WEBHOOK_SECRET`
 * from the environment, else the one generated on the admin page (kept in the database, so that
 * every request reads the one in force: a rotation stops the old one at once, as the
 * specification asks). Never logged, shown once when generated.
 */
export class TranscriptionWebhookSecret {
  constructor(private readonly settings: SettingsRepository, private readonly config: Pick<Config, 'TRANSCRIPTION_WEBHOOK_SECRET'>) {}

  /** The secret in force now, or undefined when none is configured. */
  async current(): Promise<string | undefined> {
    return this.config.TRANSCRIPTION_WEBHOOK_SECRET ?? this.settings.get(storedKey);
  }

  async source(): Promise<'env' | 'stored' | 'none'> {
    if (this.config.TRANSCRIPTION_WEBHOOK_SECRET) return 'env';
    return (await this.settings.get(storedKey)) === undefined ? 'none' : 'stored';
  }

  /** A new secret in place of the stored one (the caller refuses this when the environment sets it). */
  async rotate(now: number): Promise<string> {
    const secret = newWebhookSecret();
    await this.settings.set(storedKey, secret, now);
    return secret;
  }
}
