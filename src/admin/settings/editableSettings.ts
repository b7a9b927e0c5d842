import type { Config } from '../../config/configSchema.js';

/** How a setting changed on the admin page behaves. */
export interface EditableSetting {
  /** Takes effect at once (its consumers read `services.config` when they use it); otherwise at the next start. */
  live: boolean;
  /** Never shown or written to the audit log; only that it changed. */
  secret: boolean;
}

/**
 * The settings the admin page may change (stored in SQLite, applied where no env variable of
 * the same name is set). The identity-provider settings need a restart: the token verifier
 * is built once at start-up; so do the inference providers and the language model's server
 * (the analyser is built at start-up).
 */
export const editableSettings = {
  OIDC_ISSUER: { live: false, secret: false },
  OIDC_AUDIENCE: { live: false, secret: false },
  OIDC_JWKS_URL: { live: false, secret: false },
  OIDC_JWKS_FILE: { live: false, secret: false },
  LOCAL_AUTH: { live: true, secret: false },
  SERVICE_VOICE_EMBEDDING_ENABLED: { live: true, secret: false },
  SERVICE_VOICE_CONSENT_VERSION: { live: true, secret: false },
  SERVICE_VOICE_EMBEDDING_HIGH_THRESHOLD: { live: true, secret: false },
  SERVICE_VOICE_EMBEDDING_MEDIUM_THRESHOLD: { live: true, secret: false },
  MAX_FILE_SIZE: { live: true, secret: false },
  AUDIO_RETENTION_DAYS: { live: true, secret: false },
  CALL_RETENTION_DAYS: { live: true, secret: false },
  STALE_JOB_MINUTES: { live: true, secret: false },
  // Read when each call is transcribed.
  REDACT: { live: true, secret: false },
  // Inference: each call reads the transcription server's settings when it starts; the choice of
  // provider (a whisper-server to run, or not) and the language model's are made at start-up.
  TRANSCRIPTION_PROVIDER: { live: false, secret: false },
  TRANSCRIPTION_URL: { live: true, secret: false },
  TRANSCRIPTION_MODEL_NAME: { live: true, secret: false },
  TRANSCRIPTION_API_KEY: { live: true, secret: true },
  TRANSCRIPTION_TIMEOUT_SECONDS: { live: true, secret: false },
  // Read when each call is transcribed.
  TRANSCRIPTION_VOCABULARY: { live: true, secret: false },
  LLM_PROVIDER: { live: false, secret: false },
  LLM_URL: { live: false, secret: false },
  LLM_MODEL_NAME: { live: false, secret: false },
  LLM_API_KEY: { live: false, secret: true },
  LLM_TIMEOUT_SECONDS: { live: false, secret: false },
  // Webhooks: each event reads the endpoints and the transcript opt-in when it is recorded.
  WEBHOOK_URLS: { live: true, secret: false },
  WEBHOOK_INCLUDE_TRANSCRIPT: { live: true, secret: false },
} as const satisfies Partial<Record<keyof Config, EditableSetting>>;

export type EditableSettingKey = keyof typeof editableSettings;

export const editableSettingKeys = Object.keys(editableSettings) as EditableSettingKey[];

export function isEditableSetting(key: string): key is EditableSettingKey {
  return Object.hasOwn(editableSettings, key);
}
