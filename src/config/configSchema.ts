import { Type, type Static } from 'typebox';
import { holdPointNamePattern } from '../infrastructure/faults/holdPoints.js';

/**
 * Every setting of the service, read from environment variables of the same name.
 * This schema is the single source of truth: `loadConfig` validates against it, the
 * `Config` type is derived from it, and docs/configuration.md's table is generated from it (`npm run docs:config`).
 * Each `description` ends with the default.
 */
export const ConfigSchema = Type.Object({
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 8080, description: 'TCP port to listen on. Defaults to `8080`.' }),
  HOST: Type.String({ default: '0.0.0.0', description: 'Interface to bind. Defaults to `0.0.0.0` (all interfaces, for LAN/VPN clients).' }),
  DATA_DIR: Type.String({ minLength: 1, default: './data', description: 'Folder holding the SQLite database and stored objects (audio, artifacts). Defaults to `./data`.' }),
  LOG_LEVEL: Type.Enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], { default: 'info', description: 'pino log level. Defaults to `info`.' }),
  LOG_FORMAT: Type.Enum(['auto', 'pretty', 'json'], { default: 'auto', description: 'How log lines are written: `pretty` (one coloured, human-readable line per entry), `json` (one JSON object per line, for log shippers), or `auto`: `pretty` when stdout is a terminal, else `json`. The fields and the masking are the same either way. Defaults to `auto`.' }),

  LOCAL_AUTH: Type.Boolean({ default: false, description: 'Accept `X-Local-User-Id` in place of an identity-provider token (local-user mode). Defaults to `false`.' }),
  API_KEY: Type.Optional(Type.String({ minLength: 16, description: 'Shared secret every `/api` request must carry in `X-API-Key`. Unset: no key is required.' })),
  OIDC_ISSUER: Type.Optional(Type.String({ minLength: 1, description: 'Expected `iss` of ID tokens; also used for OIDC discovery when no JWKS URL or file is set.' })),
  OIDC_AUDIENCE: Type.Optional(Type.String({ minLength: 1, description: 'Expected `aud` of ID tokens (the mobile app\'s client id). Required with `OIDC_ISSUER`.' })),
  OIDC_JWKS_URL: Type.Optional(Type.String({ minLength: 1, description: 'Explicit JWKS URL; skips discovery.' })),
  OIDC_JWKS_FILE: Type.Optional(Type.String({ minLength: 1, description: 'Local JWKS file for air-gapped sites; re-read when a token names an unknown `kid`, and within a minute of any change.' })),
  OIDC_ALGORITHMS: Type.String({
    default: 'RS256,RS384,RS512,PS256,PS384,PS512,ES256,ES384,ES512,EdDSA',
    pattern: '^((RS|PS|ES)(256|384|512)|EdDSA)(,((RS|PS|ES)(256|384|512)|EdDSA))*$',
    description: 'Comma-separated allow-list of asymmetric JWS algorithms. Defaults to all RSA, RSA-PSS, ECDSA and EdDSA variants.',
  }),
  OIDC_CLOCK_TOLERANCE_SECONDS: Type.Integer({ minimum: 0, maximum: 300, default: 30, description: 'Allowed clock skew for `exp`/`nbf`, seconds. Defaults to `30`.' }),
  OIDC_JWKS_COOLDOWN_MS: Type.Integer({ minimum: 0, default: 30000, description: 'Minimum time between JWKS re-fetches triggered by an unknown `kid`, milliseconds. Defaults to `30000`.' }),
  IDP_USER_DELETE_URL: Type.Optional(Type.String({ minLength: 1, description: 'Identity-provider account deletion hook called (HTTP DELETE, best effort) after `DELETE /api/users/me`; `{sub}` is replaced by the URL-encoded subject.' })),
  IDP_USER_DELETE_TOKEN: Type.Optional(Type.String({ minLength: 1, description: 'Bearer token sent to `IDP_USER_DELETE_URL`.' })),

  MAX_FILE_SIZE: Type.Integer({ minimum: 1024, default: 52_428_800, description: 'Largest accepted call upload, bytes. Defaults to `52428800` (50 MiB).' }),
  STATUS_MAX_IDS: Type.Integer({ minimum: 1, maximum: 1000, default: 100, description: 'Most ids in one `GET /api/calls/status` or `DELETE /api/calls` request. Defaults to `100`.' }),
  RATE_LIMIT_PER_MINUTE: Type.Integer({ minimum: 0, default: 600, description: 'Sustained requests per minute allowed per user on `/api` (0 turns the limit off). Defaults to `600`.' }),
  RATE_LIMIT_BURST: Type.Integer({ minimum: 1, default: 120, description: 'Requests a user may make at once above the sustained rate. Defaults to `120`.' }),
  METRICS_TOKEN: Type.Optional(Type.String({ minLength: 16, description: 'Bearer token that lets non-loopback clients scrape `/actuator/prometheus`. Unset: loopback only.' })),
  ADMIN_SESSION_IDLE_MINUTES: Type.Integer({ minimum: 1, maximum: 1440, default: 30, description: 'An admin-page session unused for this long ends, minutes. Defaults to `30`.' }),
  ADMIN_SESSION_MAX_HOURS: Type.Integer({ minimum: 1, maximum: 168, default: 8, description: 'An admin-page session ends this long after sign-in, however active, hours. Defaults to `8`.' }),
  MIN_FREE_DISK_MB: Type.Integer({ minimum: 0, default: 1024, description: 'Readiness fails when `DATA_DIR` has less free space than this, MiB. Defaults to `1024`.' }),
  TRUST_PROXY: Type.Boolean({ default: false, description: 'Trust `X-Forwarded-*` headers from a reverse proxy. Defaults to `false`.' }),
  REQUEST_TIMEOUT_MS: Type.Integer({ minimum: 1000, default: 300_000, description: 'Longest a single request (including an upload) may take before it is answered 408 `request_timeout`, milliseconds. Defaults to `300000`.' }),
  IDEMPOTENCY_WAIT_MS: Type.Integer({ minimum: 0, maximum: 60_000, default: 10_000, description: 'How long a repeat waits for the first request with its Idempotency-Key to finish before answering 409 `idempotency_key_in_progress`, milliseconds. Defaults to `10000`.' }),
  SEGMENTATION_MODEL: Type.String({ minLength: 1, default: 'models/segmentation.onnx', description: 'pyannote segmentation ONNX model (required for processing). Relative paths are from the install folder. Defaults to `models/segmentation.onnx`.' }),
  EMBEDDING_MODEL: Type.String({ minLength: 1, default: 'models/embedding.onnx', description: 'Speaker-embedding ONNX model (optional: clustering and voice profiles). Defaults to `models/embedding.onnx`.' }),
  MODELS_AUTO_FETCH: Type.Boolean({ default: true, description: 'At start, when a required model (segmentation, whisper) is missing, download the recommended models of `callscope models fetch` in the background (resumable, SHA-256-checked; progress on the terminal and the admin page\'s Models section); offline, print what is missing and how to import it. `false`: never download at start. Read from the environment only. Defaults to `true`.' }),
  MODELS_MIRROR_URL: Type.Optional(Type.String({ pattern: '^https?://[^/?#]+/?$', description: 'Base URL of the site\'s own mirror of the model files (e.g. `http://models.internal:8000`): it replaces the scheme, host and port of each download URL in `models/manifest.json` and keeps the path (like `HF_ENDPOINT`). Unset: the manifest\'s URLs.' })),
  WHISPER_MODEL: Type.String({ minLength: 1, default: 'models/whisper.bin', description: 'whisper.cpp ggml model (required for processing). Defaults to `models/whisper.bin`.' }),
  WHISPER_CLI: Type.Optional(Type.String({ minLength: 1, description: 'The whisper.cpp `whisper-cli` binary to run, e.g. one built with CUDA elsewhere. Relative paths are from the install folder. Unset: `native/bin/whisper-cli`, built by `npm ci`.' })),
  TRANSCRIPTION_PROVIDER: Type.Enum(['local', 'openai'], { default: 'local', description: 'Who turns speech into words: `local` (whisper.cpp on this box, `WHISPER_MODEL`) or `openai`: the site\'s own transcription server at `TRANSCRIPTION_URL`, either an OpenAI-compatible `/v1/audio/transcriptions` (faster-whisper-server/speaches, vLLM…) or whisper.cpp\'s `whisper-server` `/inference`. The audio goes only to that server. Defaults to `local`.' }),
  TRANSCRIPTION_URL: Type.Optional(Type.String({ pattern: '^https?://[^\\s]+$', description: 'Full URL of the transcription endpoint that takes the audio (required with `TRANSCRIPTION_PROVIDER=openai`): a path ending in `/inference` is spoken to as whisper.cpp\'s server, any other as OpenAI\'s `/v1/audio/transcriptions`. Unset: none.' })),
  TRANSCRIPTION_API_KEY: Type.Optional(Type.String({ minLength: 1, description: 'Sent as `Authorization: Bearer` to `TRANSCRIPTION_URL`. Never logged. Unset: no header.' })),
  TRANSCRIPTION_MODEL_NAME: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Sent as `model` to `TRANSCRIPTION_URL` and recorded as the transcript\'s `transcriptionModel`. Unset: `whisper-1` to an OpenAI-compatible server, nothing to whisper.cpp\'s (which serves the model it loaded).' })),
  TRANSCRIPTION_TIMEOUT_SECONDS: Type.Integer({ minimum: 10, maximum: 86_400, default: 3600, description: 'Longest wait for the transcription server\'s answer to one call, seconds (Node\'s own HTTP client would give up after 300 s, too short for a long call on a busy server). Defaults to `3600`.' }),
  WHISPER_SERVER: Type.Enum(['on', 'off'], { default: 'on', description: 'With `TRANSCRIPTION_PROVIDER=local`: `on` runs whisper.cpp\'s `whisper-server` (`native/bin/whisper-server`, built by `npm ci`) as a persistent child process on a loopback port, the model loaded once for all calls, one call at a time, started again when it dies or the model file changes, stopped with the service; `off` runs `whisper-cli` once per call (the model loaded every time). Setting `WHISPER_CLI` implies `off`. Read from the environment only. Defaults to `on`.' }),
  VAD_MODEL: Type.String({ minLength: 1, default: 'models/vad.bin', description: 'Silero VAD ggml model for whisper.cpp (optional). Defaults to `models/vad.bin`.' }),
  WHISPER_THREADS: Type.Integer({ minimum: 0, maximum: 256, default: 0, description: 'CPU threads whisper.cpp uses to transcribe one call; 0 = one per CPU core. Defaults to `0`.' }),
  WHISPER_LANGUAGE: Type.String({ pattern: '^(auto|[a-z]{2,3})$', default: 'auto', description: 'Language of the calls as a whisper language code (`en`, `de`, …), or `auto` to detect it per call; English-only models (`*.en`) always transcribe English. Defaults to `auto`.' }),
  LLM_MODEL: Type.String({ minLength: 1, default: 'models/llm.gguf', description: 'GGUF language model (optional: without it the built-in analyser runs). Defaults to `models/llm.gguf`.' }),
  ANALYSER: Type.Enum(['auto', 'builtin', 'llm'], { default: 'auto', description: 'Which analyser writes call analyses: `llm` (the GGUF model in `LLM_MODEL`), `builtin` (rules and lexicons, no model), or `auto`: `llm` when the model file exists, else `builtin`. Defaults to `auto`.' }),
  LLM_PROVIDER: Type.Enum(['local', 'openai'], { default: 'local', description: 'Who runs the language model of the LLM analyser: `local` (node-llama-cpp with `LLM_MODEL` on this box) or `openai`: the site\'s own OpenAI-compatible chat server at `LLM_URL` (llama.cpp\'s `llama-server`, vLLM, Ollama\'s OpenAI API), asked for JSON under the analysis schema. The transcript goes only to that server. Defaults to `local`.' }),
  LLM_URL: Type.Optional(Type.String({ pattern: '^https?://[^\\s]+$', description: 'Full URL of the chat-completions endpoint (required with `LLM_PROVIDER=openai`), e.g. `http://gpu-box:8080/v1/chat/completions`. Unset: none.' })),
  LLM_MODEL_NAME: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Sent as `model` to `LLM_URL` (required with `LLM_PROVIDER=openai`) and recorded as the analysis\'s producer model. Unset: none.' })),
  LLM_API_KEY: Type.Optional(Type.String({ minLength: 1, description: 'Sent as `Authorization: Bearer` to `LLM_URL`. Never logged. Unset: no header.' })),
  LLM_TIMEOUT_SECONDS: Type.Integer({ minimum: 10, maximum: 86_400, default: 600, description: 'Longest wait for the chat server\'s answer to one chunk of a call, seconds. Defaults to `600`.' }),
  LLM_CONTEXT_SIZE: Type.Integer({ minimum: 512, maximum: 131072, default: 4096, description: 'Context window the language model is run with, tokens; longer transcripts are analysed in chunks. Defaults to `4096`.' }),
  GPU: Type.Enum(['auto', 'off'], { default: 'auto', description: 'Use a GPU where one is usable: whisper.cpp built with CUDA, onnxruntime\'s CUDA provider when installed, node-llama-cpp\'s CUDA binaries; each falls back to the CPU (`auto`). `off` keeps everything on the CPU. Read from the environment only. Defaults to `auto`.' }),
  ANALYSIS_TIME_ZONE: Type.String({ minLength: 1, default: 'local', description: 'IANA time zone in which dates said in calls are meant ("next Tuesday at 3"), e.g. `Europe/Berlin`; `local` is the box\'s own. Defaults to `local`.' }),
  WORKER_CONCURRENCY: Type.Integer({ minimum: 0, maximum: 64, default: 0, description: 'Calls processed at once; 0 = one per two CPU cores, at least 1. Defaults to `0`.' }),
  WORKER_THREADS: Type.Integer({ minimum: 0, maximum: 64, default: 0, description: 'Worker threads for CPU-heavy stage work (each loads its own models); 0 = one per CPU core. Defaults to `0`.' }),
  STALE_JOB_MINUTES: Type.Integer({ minimum: 1, default: 15, description: 'A call in flight whose stages report no progress for this long is failed by the stale-job sweep, minutes. Defaults to `15`.' }),
  MAX_PROCESSING_ATTEMPTS: Type.Integer({ minimum: 1, maximum: 10, default: 3, description: 'How often a call interrupted by a crash or restart is started again before it fails. Defaults to `3`.' }),
  MAX_AUDIO_DURATION_SECONDS: Type.Integer({ minimum: 60, default: 7200, description: 'Longest recording processed, seconds; longer ones fail with a clear reason. Defaults to `7200` (2 h).' }),
  AUDIO_RETENTION_DAYS: Type.Integer({ minimum: 0, default: 30, description: 'Days the original and cleaned audio of a finished call are kept (for reprocessing); 0 keeps them until the call is deleted. Defaults to `30`.' }),
  SHUTDOWN_GRACE_SECONDS: Type.Integer({ minimum: 0, maximum: 600, default: 20, description: 'On SIGTERM, how long calls in flight may finish before they are handed back to the queue, seconds. Defaults to `20`.' }),

  SERVICE_VOICE_EMBEDDING_ENABLED: Type.Boolean({ default: false, description: 'Offer voice profiles (`/api/users/me/voice-profile`) and match them against call speakers; needs `EMBEDDING_MODEL`. Off: those endpoints answer 404 `feature_not_available` and transcripts say `voiceMatchStatus: DISABLED`. Defaults to `false`.' }),
  SERVICE_VOICE_SAMPLE_MIN_SECONDS: Type.Number({ minimum: 3, maximum: 600, default: 10, description: 'Shortest voice sample accepted, seconds of decoded audio (the app records 15–45 s). Defaults to `10`.' }),
  SERVICE_VOICE_SAMPLE_MAX_SECONDS: Type.Number({ minimum: 5, maximum: 600, default: 60, description: 'Longest voice sample accepted, seconds of decoded audio. Defaults to `60`.' }),
  SERVICE_VOICE_SAMPLE_MAX_SIZE_MB: Type.Number({ exclusiveMinimum: 0, maximum: 100, default: 15, description: 'Largest voice sample upload, MiB (60 s of 48 kHz stereo WAV is 11 MiB). Defaults to `15`.' }),
  SERVICE_VOICE_EMBEDDING_HIGH_THRESHOLD: Type.Number({ minimum: 0, maximum: 1, default: 0.85, description: 'Voice-match score at or above which a speaker is the user with HIGH confidence. Defaults to `0.85`.' }),
  SERVICE_VOICE_EMBEDDING_MEDIUM_THRESHOLD: Type.Number({ minimum: 0, maximum: 1, default: 0.75, description: 'Voice-match score at or above which a speaker is the user with MEDIUM confidence. Defaults to `0.75`.' }),
  SERVICE_VOICE_CONSENT_VERSION: Type.String({ minLength: 1, maxLength: 64, default: '1', description: 'Version of the consent text the app shows, stamped on each voice profile. Defaults to `1`.' }),
  SERVICE_VOICE_KEY_FILE: Type.Optional(Type.String({ minLength: 1, description: 'File holding the 32-byte key that encrypts voice embeddings at rest (created, mode 0600, when missing). Unset: `<DATA_DIR>/keys/voice-embeddings.key`.' })),
  FAULT_HOLD_AT: Type.Optional(Type.String({ pattern: `^\\s*(${holdPointNamePattern})\\s*(,\\s*(${holdPointNamePattern})\\s*)*$`, description: 'Fault testing only, never in production: comma-separated points where the service stops and waits so a test can kill it there (`upload.accept`, `stage.<name>` such as `stage.analysis`, `results.store`; see src/infrastructure/faults/holdPoints.ts). Unset: none.' })),
});

export type Config = Static<typeof ConfigSchema>;
