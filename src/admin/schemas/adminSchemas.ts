import { Type } from 'typebox';
import { Timestamp } from '../../http/schemas/commonSchemas.js';
import { minPasswordLength } from '../credentials/AdminAccount.js';

/** Longer passwords are refused before hashing (scrypt time grows with the input). */
const maxPasswordLength = 1024;

const Password = Type.String({ minLength: 1, maxLength: maxPasswordLength });
const NewPassword = Type.String({ minLength: minPasswordLength, maxLength: maxPasswordLength, description: `At least ${minPasswordLength} characters` });

export const SetupStatusSchema = Type.Object({ setupRequired: Type.Boolean({ description: 'No admin password is set yet' }) });

export const SetupBodySchema = Type.Object({
  token: Type.String({ minLength: 1, maxLength: 256, description: 'The `token` of the setup link' }),
  password: NewPassword,
}, { additionalProperties: false });

export const SignInBodySchema = Type.Object({ password: Password }, { additionalProperties: false });

export const PasswordChangeBodySchema = Type.Object({ currentPassword: Password, newPassword: NewPassword }, { additionalProperties: false });

export const SessionSchema = Type.Object({
  csrfToken: Type.String({ description: 'Send it in `X-CSRF-Token` with every POST, PATCH, PUT and DELETE' }),
  expiresAt: Timestamp,
});

const CheckSchema = Type.Object({
  status: Type.Enum(['UP', 'DOWN']),
  detail: Type.Optional(Type.Object({}, { additionalProperties: true })),
});

export const StatusSchema = Type.Object({
  health: Type.Object({ status: Type.Literal('UP') }),
  readiness: Type.Object({ status: Type.Enum(['UP', 'DOWN']), checks: Type.Record(Type.String(), CheckSchema) }),
  queue: Type.Object({
    QUEUED: Type.Integer(), TRANSCRIBING: Type.Integer(), ANALYZING: Type.Integer(), COMPLETED: Type.Integer(), FAILED: Type.Integer(),
  }),
  processedLast24h: Type.Object({ completed: Type.Integer(), failed: Type.Integer() }),
  stageTimings: Type.Array(Type.Object({
    stage: Type.String(),
    runs: Type.Integer(),
    failures: Type.Integer(),
    p50Ms: Type.Union([Type.Integer(), Type.Null()]),
    p95Ms: Type.Union([Type.Integer(), Type.Null()]),
  })),
  recentFailures: Type.Array(Type.Object({ callId: Type.String(), failedAt: Timestamp, errorReason: Type.Union([Type.String(), Type.Null()]) })),
  nodes: Type.Array(Type.Object({
    id: Type.String({ description: 'Random per process start; the lease on the calls it holds' }),
    host: Type.String(),
    role: Type.Enum(['serve', 'worker']),
    version: Type.String(),
    processes: Type.Boolean({ description: 'Whether the node processes calls (a `serve` node with EMBEDDED_WORKER=false does not)' }),
    state: Type.Enum(['running', 'lost', 'stopped'], { description: '`lost`: no heartbeat for longer than LEASE_TIMEOUT_SECONDS; its calls are taken over by other nodes' }),
    startedAt: Timestamp,
    lastHeartbeatAt: Timestamp,
    callsInFlight: Type.Integer(),
    models: Type.Union([Type.Array(Type.Object({
      slot: Type.String(),
      fileName: Type.String(),
      check: Type.String({ description: '`ok`, `missing`, `checksum_mismatch`, `not_in_manifest` or `not_pinned` (as on the Models page)' }),
    })), Type.Null()], { description: 'The model files the node holds and whether each verifies; null for a node that does not process calls' }),
  }), { description: 'Every node seen in the last day, from the shared database: running ones first' }),
});

export const SettingsSchema = Type.Object({
  settings: Type.Array(Type.Object({
    key: Type.String(),
    value: Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()]),
    source: Type.Enum(['env', 'stored', 'default']),
    editable: Type.Boolean(),
    live: Type.Boolean({ description: 'Applies at once; otherwise at the next start' }),
    restartRequired: Type.Boolean({ description: 'A saved change waits for the next start' }),
    secret: Type.Boolean(),
    description: Type.String(),
  })),
  apiKey: Type.Object({
    configured: Type.Boolean(),
    source: Type.Enum(['env', 'stored', 'none']),
    createdAt: Type.Optional(Timestamp),
  }),
  transcriptionWebhookSecret: Type.Object({
    configured: Type.Boolean(),
    source: Type.Enum(['env', 'stored', 'none'], { description: 'Where the secret the provider\'s callbacks are signed with comes from' }),
  }),
});

export const SettingsPatchSchema = Type.Object({
  values: Type.Record(Type.String(), Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()]), {
    description: 'Setting name → new value; `null` returns it to its default',
  }),
}, { additionalProperties: false });

export const ApiKeySchema = Type.Object({ apiKey: Type.String({ description: 'Shown this once; only its hash is kept' }) });

export const WebhookSecretSchema = Type.Object({ secret: Type.String({ description: 'The new `whsec_` secret, shown this once: give it to the transcription provider' }) });

export const AuditQuerySchema = Type.Object({
  limit: Type.Integer({ minimum: 1, maximum: 500, default: 50 }),
}, { additionalProperties: false });

export const AuditSchema = Type.Object({
  entries: Type.Array(Type.Object({
    at: Timestamp,
    actor: Type.Enum(['admin', 'setup']),
    action: Type.String(),
    target: Type.Union([Type.String(), Type.Null()]),
    detail: Type.Union([Type.Object({}, { additionalProperties: true }), Type.Null()]),
    clientIp: Type.Union([Type.String(), Type.Null()]),
  })),
});

export const ModelImportBodySchema = Type.Object({
  directory: Type.String({ minLength: 2, maxLength: 4096, pattern: '^/', description: 'Absolute path of a folder on the box holding the model files (a USB stick, a share)' }),
}, { additionalProperties: false });

/** Each slot as the model inventory reports it (see `ModelSlotStatus`). */
export const ModelSlotsSchema = Type.Object({ slots: Type.Array(Type.Object({}, { additionalProperties: true })) });

export const ModelImportResultsSchema = Type.Object({ results: Type.Array(Type.Object({}, { additionalProperties: true })) });

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

/** The latest model download (see `ModelDownloadSnapshot`): what the Models page's progress shows. */
export const ModelDownloadSchema = Type.Object({
  state: Type.Enum(['idle', 'running', 'finished', 'offline'], { description: '`offline`: the download host did not answer, nothing was downloaded' }),
  trigger: Nullable(Type.Enum(['start', 'admin'], { description: 'Started by the service at start (MODELS_AUTO_FETCH) or on this page' })),
  startedAt: Nullable(Type.String()),
  finishedAt: Nullable(Type.String()),
  unreachable: Nullable(Type.String({ description: 'The host that could not be reached' })),
  items: Type.Array(Type.Object({
    slot: Type.String(),
    entry: Type.String({ description: 'The manifest entry' }),
    state: Type.Enum(['waiting', 'downloading', 'downloaded', 'unchanged', 'kept', 'failed']),
    receivedBytes: Type.Integer({ minimum: 0 }),
    totalBytes: Nullable(Type.Integer({ minimum: 0 })),
    message: Nullable(Type.String()),
    warning: Nullable(Type.String()),
    target: Nullable(Type.String({ description: 'Where it was installed, relative to the install folder' })),
  })),
});

/** What a "Test" button of the Settings page shows (see `InferenceTestResult`). */
export const InferenceTestResultSchema = Type.Object({
  provider: Type.String(),
  host: Nullable(Type.String({ description: 'The server\'s host, for a provider that is one' })),
  seconds: Type.Number({ description: 'Time taken' }),
  ok: Type.Boolean(),
  answer: Type.Optional(Type.String({ description: 'What came back (when ok)' })),
  problem: Type.Optional(Type.String({ description: 'Why it failed (when not ok)' })),
});
