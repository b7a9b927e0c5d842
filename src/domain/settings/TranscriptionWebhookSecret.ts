import type { Config } from '../../config/configSchema.js';
import type { SettingsRepository } from './SettingsRepository.js';
import { StoredWebhookSecret } from './StoredWebhookSecret.js';

/**
 * The secret the transcription provider signs its callbacks with: `TRANSCRIPTION_WEBHOOK_SECRET`
 * from the environment, else the one generated on the admin page.
 */
export class TranscriptionWebhookSecret extends StoredWebhookSecret {
  constructor(settings: SettingsRepository, config: Pick<Config, 'TRANSCRIPTION_WEBHOOK_SECRET'>) {
    super(settings, () => config.TRANSCRIPTION_WEBHOOK_SECRET, 'transcription_webhook_secret');
  }
}
