import { Value } from 'typebox/value';
import { ConfigSchema, type Config } from './configSchema.js';
import { vocabularyProblems } from '../pipeline/transcription/transcriptionPrompt.js';
import { redactProblems } from '../pipeline/redaction/redactionKinds.js';
import { webhookUrlProblems } from '../domain/webhooks/webhookEndpoints.js';
import { isWebhookSecret } from '../infrastructure/inference/standardWebhooks.js';

/** Raised at start-up when the environment does not satisfy {@link ConfigSchema}. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

const settingNames = Object.keys(ConfigSchema.properties) as (keyof Config)[];

/**
 * Reads the settings named in {@link ConfigSchema} from `env`, converts strings to the
 * declared types, fills defaults and validates. Empty strings count as unset, so a blank
 * line in an env file never overrides a default. Unknown variables are ignored.
 */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const raw: Record<string, unknown> = {};
  for (const name of settingNames) {
    const value = env[name];
    if (value !== undefined && value.trim() !== '') raw[name] = value.trim();
  }
  // Taken first: Convert and Default change `raw` itself (defaults included).
  const fromEnvironment = new Set(Object.keys(raw) as (keyof Config)[]);
  const converted = Value.Default(ConfigSchema, Value.Convert(ConfigSchema, raw));
  const problems = configProblems(converted);
  if (problems.length > 0) throw new ConfigError(problems);
  const config = converted as Config;
  environmentKeys.set(config, fromEnvironment);
  return config;
}

/** The settings each loaded configuration took from its environment (see {@link environmentKeysOf}). */
const environmentKeys = new WeakMap<Config, ReadonlySet<keyof Config>>();

/**
 * The names whose value `loadConfig` read from the environment when it made `config` (so a
 * setting stored on the admin page must not override them). Empty for a configuration not made
 * by `loadConfig` (or a copy of one).
 */
export function environmentKeysOf(config: Config): ReadonlySet<keyof Config> {
  return environmentKeys.get(config) ?? new Set();
}

/**
 * Every way `candidate` fails {@link ConfigSchema} and the cross-field rules, as
 * `NAME: problem` lines; empty when it is a valid configuration.
 */
export function configProblems(candidate: unknown): string[] {
  const problems = [...Value.Errors(ConfigSchema, candidate)].map(
    (error) => `${error.instancePath.replace(/^\//, '') || '(root)'}: ${error.message}`,
  );
  problems.push(...crossFieldProblems(candidate as Config));
  return problems;
}

/** Rules that span several settings, which a per-field schema cannot say. */
function crossFieldProblems(config: Config): string[] {
  const problems: string[] = [];
  const usesTokens = Boolean(config.OIDC_ISSUER || config.OIDC_JWKS_URL || config.OIDC_JWKS_FILE);
  if (usesTokens && !config.OIDC_AUDIENCE) problems.push('OIDC_AUDIENCE: required when identity-provider tokens are configured');
  if (usesTokens && !config.OIDC_ISSUER) problems.push('OIDC_ISSUER: required when identity-provider tokens are configured (the `iss` claim is always checked)');
  if (config.TRANSCRIPTION_PROVIDER !== 'local' && !config.TRANSCRIPTION_URL) problems.push(`TRANSCRIPTION_URL: required with TRANSCRIPTION_PROVIDER=${config.TRANSCRIPTION_PROVIDER} (the full URL of the endpoint that takes the audio)`);
  if (config.TLS_CERT_FILE !== undefined && config.TLS_KEY_FILE === undefined) problems.push('TLS_KEY_FILE: required with TLS_CERT_FILE (the certificate\'s private key)');
  if (config.TLS_KEY_FILE !== undefined && config.TLS_CERT_FILE === undefined) problems.push('TLS_CERT_FILE: required with TLS_KEY_FILE (the certificate of that key)');
  if (config.TLS === 'off' && config.TLS_CERT_FILE !== undefined) problems.push('TLS_CERT_FILE: set with TLS=off, which serves no HTTPS (unset it, or set TLS=auto)');
  if (config.TLS === 'auto' && config.PORT !== 0 && config.PORT === config.HTTPS_PORT) problems.push(`HTTPS_PORT: the same port as PORT (${config.PORT}); plain HTTP and HTTPS each need their own`);
  if (config.TRANSCRIPTION_PROVIDER === 'callback' && !config.PUBLIC_URL) problems.push('PUBLIC_URL: required with TRANSCRIPTION_PROVIDER=callback (where the provider sends its callback)');
  if (config.LLM_PROVIDER === 'openai' && !config.LLM_URL) problems.push('LLM_URL: required with LLM_PROVIDER=openai (the full chat-completions URL)');
  if (config.LLM_PROVIDER === 'openai' && !config.LLM_MODEL_NAME) problems.push('LLM_MODEL_NAME: required with LLM_PROVIDER=openai (the `model` the server is asked for)');
  if (config.OIDC_JWKS_URL && config.OIDC_JWKS_FILE) problems.push('OIDC_JWKS_URL and OIDC_JWKS_FILE: set one, not both');
  if (config.IDP_USER_DELETE_URL && !config.IDP_USER_DELETE_URL.includes('{sub}')) problems.push('IDP_USER_DELETE_URL: must contain the placeholder {sub}');
  if (config.SERVICE_VOICE_SAMPLE_MIN_SECONDS >= config.SERVICE_VOICE_SAMPLE_MAX_SECONDS) problems.push('SERVICE_VOICE_SAMPLE_MIN_SECONDS: must be below SERVICE_VOICE_SAMPLE_MAX_SECONDS');
  if (config.SERVICE_VOICE_EMBEDDING_MEDIUM_THRESHOLD > config.SERVICE_VOICE_EMBEDDING_HIGH_THRESHOLD) problems.push('SERVICE_VOICE_EMBEDDING_MEDIUM_THRESHOLD: must not be above SERVICE_VOICE_EMBEDDING_HIGH_THRESHOLD');
  if (config.ANALYSIS_TIME_ZONE !== 'local' && !isTimeZone(config.ANALYSIS_TIME_ZONE)) problems.push('ANALYSIS_TIME_ZONE: not an IANA time zone (e.g. Europe/Berlin), nor `local`');
  problems.push(...vocabularyProblems(config.TRANSCRIPTION_VOCABULARY).map((problem) => `TRANSCRIPTION_VOCABULARY: ${problem}`));
  problems.push(...webhookUrlProblems(config.WEBHOOK_URLS));
  problems.push(...redactProblems(config.REDACT).map((problem) => `REDACT: ${problem}`));
  if (config.WEBHOOK_SECRET && !isWebhookSecret(config.WEBHOOK_SECRET)) problems.push('WEBHOOK_SECRET: must be `whsec_` followed by the base64 of at least 24 random bytes');
  return problems;
}

/** Whether any way of identifying users is configured; without one every `/api` call is refused. */
export function hasIdentitySource(config: Config): boolean {
  return Boolean(config.OIDC_ISSUER) || config.LOCAL_AUTH;
}

function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** The IANA zone dates in calls are meant in: `ANALYSIS_TIME_ZONE`, or the box's own for `local`. */
export function analysisTimeZoneOf(config: Pick<Config, 'ANALYSIS_TIME_ZONE'>): string {
  return config.ANALYSIS_TIME_ZONE === 'local' ? Intl.DateTimeFormat().resolvedOptions().timeZone : config.ANALYSIS_TIME_ZONE;
}
