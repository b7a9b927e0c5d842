import { sql } from 'drizzle-orm';
import { blob, index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';

/*
 * The relational model. Timestamps are integers in milliseconds since the Unix epoch (UTC);
 * the HTTP layer renders them as ISO-8601. Every user-owned row reaches its user through a
 * foreign key with ON DELETE CASCADE, so deleting a user or a call cannot leave rows behind.
 * Changes go through new migrations (`npm run db:generate`); committed ones are never edited.
 * The search index (`search_calls`, the FTS5 table `search_index` and its trigger) is not here:
 * it lives in the custom migrations `0008_search_index` (and `postgres/0003_search_index`).
 */

export const users = sqliteTable('users', {
  id: text('id').primaryKey(),
  externalUserId: text('external_user_id').notNull(),
  email: text('email'),
  displayName: text('display_name'),
  createdAt: integer('created_at').notNull(),
  updatedAt: integer('updated_at').notNull(),
}, (table) => [uniqueIndex('users_external_user_id_unique').on(table.externalUserId)]);

export const calls = sqliteTable('calls', {
  /** Insertion order; the keyset for stable, newest-first paging. */
  seq: integer('seq').primaryKey({ autoIncrement: true }),
  id: text('id').notNull(),
  userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  title: text('title').notNull(),
  fileName: text('file_name'),
  contactName: text('contact_name'),
  contactId: text('contact_id'),
  phoneNumber: text('phone_number'),
  organization: text('organization'),
  direction: text('direction', { enum: ['INCOMING', 'OUTGOING', 'UNKNOWN'] }).notNull(),
  status: text('status', { enum: ['QUEUED', 'TRANSCRIBING', 'ANALYZING', 'COMPLETED', 'FAILED'] }).notNull(),
  /** Client-supplied, replaced by the decoded duration once measured; whole seconds. */
  durationSeconds: integer('duration_seconds'),
  recordedAt: integer('recorded_at'),
  errorReason: text('error_reason'),
  /** Detected container format of the stored original: wav, mp3, m4a, aac or ogg. */
  audioFormat: text('audio_format').notNull(),
  audioSizeBytes: integer('audio_size_bytes').notNull(),
  /** Object key of the original upload; null once retention has removed it. */
  audioObjectKey: text('audio_object_key'),
  /** Set while a deletion is removing files, so no worker or reader picks the call up again. */
  deletingSince: integer('deleting_since'),
  /** When the call (last) entered QUEUED: queue order, also after a reprocess. */
  queuedAt: integer('queued_at'),
  /** The pipeline stage running now (null when not in flight). */
  stage: text('stage'),
  /** Progress of the whole run, 0..1. */
  progress: real('progress').notNull().default(0),
  /** Last time a stage reported progress; the stale-job sweep reads it. */
  lastProgressAt: integer('last_progress_at'),
  /** Which engine instance holds the call while in flight; every write of a run checks it. */
  workerLease: text('worker_lease'),
  /** Runs started for this call (a crash mid-run counts; reprocess starts again from 0). */
  processingAttempts: integer('processing_attempts').notNull().default(0),
  /**
   * Set while the call waits for the transcription provider's callback (TRANSCRIPTION_PROVIDER
   * =callback), to when the job was submitted: no engine holds the call meanwhile (no lease, no slot).
   */
  awaitingCallbackSince: integer('awaiting_callback_since'),
  /**
   * The holder's last sign of life while the call is in flight (the node's heartbeat, every few
   * seconds); another node takes the call over once it is older than LEASE_TIMEOUT_SECONDS.
   */
  heartbeatAt: integer('heartbeat_at'),
  createdAt: integer('created_at').notNull(),
  updatedAt: integer('updated_at').notNull(),
}, (table) => [
  uniqueIndex('calls_id_unique').on(table.id),
  index('calls_user_seq_idx').on(table.userId, table.seq),
  index('calls_user_status_seq_idx').on(table.userId, table.status, table.seq),
  index('calls_status_seq_idx').on(table.status, table.seq),
  index('calls_status_queued_idx').on(table.status, table.queuedAt),
  // The live-status feed's look for changes (GET /api/calls/events): `updated_at > ?` over all users.
  index('calls_updated_at_idx').on(table.updatedAt),
]);

/** Transcript and analysis documents: the JSON lives in the object store, this row indexes it. */
export const callArtifacts = sqliteTable('call_artifacts', {
  callId: text('call_id').notNull().references(() => calls.id, { onDelete: 'cascade' }),
  kind: text('kind', { enum: ['transcript', 'analysis'] }).notNull(),
  schemaVersion: integer('schema_version').notNull(),
  objectKey: text('object_key').notNull(),
  /** JSON provenance: which analyser/models produced the document. */
  producer: text('producer'),
  createdAt: integer('created_at').notNull(),
}, (table) => [primaryKey({ columns: [table.callId, table.kind] })]);

export const actionItems = sqliteTable('action_items', {
  seq: integer('seq').primaryKey({ autoIncrement: true }),
  id: text('id').notNull(),
  callId: text('call_id').notNull().references(() => calls.id, { onDelete: 'cascade' }),
  /** Denormalised owner of the parent call, so user-scoped listing needs no join. */
  userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  title: text('title').notNull(),
  description: text('description'),
  dueDate: text('due_date'),
  status: text('status', { enum: ['PENDING', 'COMPLETED'] }).notNull(),
  sourceText: text('source_text'),
  ownerSpeakerId: text('owner_speaker_id'),
  ownerSpeakerLabel: text('owner_speaker_label'),
  ownerDisplayName: text('owner_display_name'),
  ownerRole: text('owner_role'),
  /** JSON array of `seg_NNNN` ids. */
  sourceSegmentIds: text('source_segment_ids').notNull().default('[]'),
  intent: text('intent'),
  /** JSON object, or null. */
  intentMetadata: text('intent_metadata'),
  createdAt: integer('created_at').notNull(),
  updatedAt: integer('updated_at').notNull(),
}, (table) => [
  uniqueIndex('action_items_id_unique').on(table.id),
  index('action_items_user_status_idx').on(table.userId, table.status, table.createdAt),
  index('action_items_call_idx').on(table.callId),
]);

export const processingEvents = sqliteTable('processing_events', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  callId: text('call_id').notNull().references(() => calls.id, { onDelete: 'cascade' }),
  stage: text('stage').notNull(),
  outcome: text('outcome').notNull(),
  startedAt: integer('started_at').notNull(),
  endedAt: integer('ended_at'),
  durationMs: integer('duration_ms'),
  /** Counts and figures only (JSON); never transcript text or personal data. */
  detail: text('detail'),
}, (table) => [index('processing_events_call_idx').on(table.callId)]);

export const idempotencyRecords = sqliteTable('idempotency_records', {
  userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  key: text('key').notNull(),
  /** sha256 over method, route, parameters and body: "the same request". */
  fingerprint: text('fingerprint').notNull(),
  state: text('state', { enum: ['PENDING', 'COMPLETE'] }).notNull(),
  statusCode: integer('status_code'),
  responseBody: text('response_body'),
  createdAt: integer('created_at').notNull(),
}, (table) => [
  primaryKey({ columns: [table.userId, table.key] }),
  index('idempotency_records_created_idx').on(table.createdAt),
]);

/** Server-wide settings and secrets generated at first start (e.g. the cursor signing key). */
export const settings = sqliteTable('settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
  updatedAt: integer('updated_at').notNull().default(sql`(unixepoch() * 1000)`),
});

/**
 * A user's voice profile (at most one): the speaker embedding of their voice sample, encrypted
 * (AES-256-GCM, bound to the user id) and never returned by the API. The sample itself is not
 * kept. `embeddingModel` and `embeddingDimension` tell whether the profile can be compared with
 * speakers embedded by the model installed now.
 */
export const voiceProfiles = sqliteTable('voice_profiles', {
  userId: text('user_id').primaryKey().references(() => users.id, { onDelete: 'cascade' }),
  provider: text('provider').notNull(),
  /** File name of the speaker-embedding model that produced the embedding (no path). */
  embeddingModel: text('embedding_model').notNull(),
  embeddingDimension: integer('embedding_dimension').notNull(),
  /** key version (1 byte) ‖ IV (12) ‖ GCM tag (16) ‖ ciphertext of the float32 vector. */
  encryptedEmbedding: blob('encrypted_embedding', { mode: 'buffer' }).notNull(),
  consentVersion: text('consent_version').notNull(),
  /** Decoded length of the sample, seconds (rounded). */
  sampleDurationSeconds: integer('sample_duration_seconds').notNull(),
  createdAt: integer('created_at').notNull(),
  updatedAt: integer('updated_at').notNull(),
});

/**
 * Hashed secrets of the admin area, one row per kind: the admin password (scrypt string), the
 * one-time setup token and the API key set from the admin page (sha256, hex). Never the secret.
 */
export const adminCredentials = sqliteTable('admin_credentials', {
  kind: text('kind', { enum: ['password', 'setup_token', 'api_key'] }).primaryKey(),
  secretHash: text('secret_hash').notNull(),
  createdAt: integer('created_at').notNull(),
  /** When the credential stops being accepted (the setup token); null: never. */
  expiresAt: integer('expires_at'),
});

/** Signed-in admin sessions; the cookie holds the id, this table only its sha256. */
export const adminSessions = sqliteTable('admin_sessions', {
  idHash: text('id_hash').primaryKey(),
  /** Sent back in `X-CSRF-Token` with every state-changing admin request. */
  csrfToken: text('csrf_token').notNull(),
  createdAt: integer('created_at').notNull(),
  lastSeenAt: integer('last_seen_at').notNull(),
});

/** Settings changed on the admin page (JSON values), applied at start-up where no env variable is set. */
export const adminSettings = sqliteTable('admin_settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
  updatedAt: integer('updated_at').notNull(),
});

/** What was done in the admin area, by whom and from where; `detail` (JSON) never holds secrets. */
export const adminAudit = sqliteTable('admin_audit', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  at: integer('at').notNull(),
  actor: text('actor', { enum: ['admin', 'setup'] }).notNull(),
  action: text('action').notNull(),
  target: text('target'),
  detail: text('detail'),
  clientIp: text('client_ip'),
}, (table) => [index('admin_audit_at_idx').on(table.at)]);

/**
 * Transcription jobs submitted to a provider that answers later (`TRANSCRIPTION_PROVIDER=callback`).
 * The id is what the provider sends back: random and unguessable, one per submission. Only the
 * call's current job is `waiting`; one that was answered, failed, or given up is not.
 */
export const transcriptionJobs = sqliteTable('transcription_jobs', {
  jobId: text('job_id').primaryKey(),
  callId: text('call_id').notNull().references(() => calls.id, { onDelete: 'cascade' }),
  state: text('state', { enum: ['waiting', 'received', 'failed', 'abandoned'] }).notNull(),
  submittedAt: integer('submitted_at').notNull(),
  endedAt: integer('ended_at'),
  /** The call's errorReason when the provider reported a failure (kept for a run that ends after the callback came). */
  errorReason: text('error_reason'),
}, (table) => [index('transcription_jobs_call_idx').on(table.callId)]);

/** `webhook-id`s of accepted provider callbacks, so that a replay changes nothing. */
export const webhookReceipts = sqliteTable('webhook_receipts', {
  webhookId: text('webhook_id').primaryKey(),
  jobId: text('job_id').notNull(),
  receivedAt: integer('received_at').notNull(),
});

/**
 * Every node that runs against this database (`callscope serve`, `callscope worker`), as it last
 * reported itself: one row per process start. A node beats every few seconds; one silent for
 * longer than LEASE_TIMEOUT_SECONDS is lost, and the calls it held are taken over.
 */
export const nodes = sqliteTable('nodes', {
  /** Random per process start; also the lease its engine puts on the calls it holds. */
  id: text('id').primaryKey(),
  host: text('host').notNull(),
  /** `serve` (API, admin page, and a worker unless EMBEDDED_WORKER=false) or `worker`. */
  role: text('role', { enum: ['serve', 'worker'] }).notNull(),
  version: text('version').notNull(),
  pid: integer('pid').notNull(),
  /**
   * Which processes `pid` can be checked against: the machine's boot id and the node's pid
   * namespace (Linux). A node with the same scope can ask the kernel whether this pid still
   * runs, and so knows a crashed neighbour (or predecessor) dead without waiting for its lease.
   */
  processScope: text('process_scope'),
  startedAt: integer('started_at').notNull(),
  heartbeatAt: integer('heartbeat_at').notNull(),
  /** Set by a node that stopped cleanly. */
  stoppedAt: integer('stopped_at'),
  /** Whether this node processes calls (a `serve` node with EMBEDDED_WORKER=false does not). */
  processes: integer('processes').notNull(),
  callsInFlight: integer('calls_in_flight').notNull().default(0),
  /** JSON: the model slots this node holds and whether each verifies (`[{ slot, label, state }]`). */
  models: text('models'),
}, (table) => [index('nodes_heartbeat_idx').on(table.heartbeatAt)]);

/**
 * Speaker corrections made by the call's owner (`PATCH /api/calls/{id}/speakers/{speakerId}`,
 * `POST /api/calls/{id}/speakers/merge`), in the order made: applied to the stored documents at
 * once, and again, in order, to the documents a later reprocess writes (a correction whose
 * speaker the new run no longer has is skipped).
 */
export const speakerCorrections = sqliteTable('speaker_corrections', {
  seq: integer('seq').primaryKey({ autoIncrement: true }),
  callId: text('call_id').notNull().references(() => calls.id, { onDelete: 'cascade' }),
  kind: text('kind', { enum: ['label', 'merge'] }).notNull(),
  /** `spk_N`: the speaker relabelled, or the one merged away. */
  speakerId: text('speaker_id').notNull(),
  /** `merge`: the speaker that receives the segments. */
  intoSpeakerId: text('into_speaker_id'),
  /** `label`: the new display name, when given. */
  displayName: text('display_name'),
  /** `label`: the new role (USER, CONTACT, UNKNOWN), when given. */
  role: text('role'),
  createdAt: integer('created_at').notNull(),
}, (table) => [index('speaker_corrections_call_idx').on(table.callId, table.seq)]);

/**
 * Outbound signed webhooks (Standard Webhooks) to the site's own systems: one row per event and
 * endpoint, delivered from here with retries and backoff by whichever node claims it. The
 * payload holds ids and statuses (transcript text only when the admin opted in); rows are kept
 * for the admin page's recent deliveries and pruned after WEBHOOK_RETENTION_DAYS.
 */
export const webhookDeliveries = sqliteTable('webhook_deliveries', {
  seq: integer('seq').primaryKey({ autoIncrement: true }),
  /** `msg_…`: the `webhook-id` header; the same for every attempt and for a resend. */
  messageId: text('message_id').notNull(),
  eventType: text('event_type').notNull(),
  url: text('url').notNull(),
  /** The JSON body, exactly as signed and sent. */
  payload: text('payload').notNull(),
  state: text('state', { enum: ['pending', 'delivered', 'failed'] }).notNull(),
  attempts: integer('attempts').notNull().default(0),
  /** When the next attempt is due (pending rows). */
  nextAttemptAt: integer('next_attempt_at').notNull(),
  /** The node sending it now, until `leaseUntil`; another node may take it over after. */
  leaseOwner: text('lease_owner'),
  leaseUntil: integer('lease_until'),
  lastStatusCode: integer('last_status_code'),
  /** Short reason of the last failed attempt (never the payload). */
  lastError: text('last_error'),
  createdAt: integer('created_at').notNull(),
  updatedAt: integer('updated_at').notNull(),
  deliveredAt: integer('delivered_at'),
}, (table) => [
  uniqueIndex('webhook_deliveries_message_url_unique').on(table.messageId, table.url),
  index('webhook_deliveries_due_idx').on(table.state, table.nextAttemptAt),
  index('webhook_deliveries_created_idx').on(table.createdAt),
]);

/**
 * The access audit trail: every read of a call's transcript, analysis or audio, every export,
 * deletion, reprocess, speaker correction, retention run and admin action. Append-only; each
 * record carries the sha256 of the previous record's hash and its own content (`hash`), so a
 * gap or an edit breaks the chain (`callscope audit verify`). No transcript text, ever.
 * `callId` has no foreign key: the record outlives the call.
 */
export const accessAudit = sqliteTable('access_audit', {
  seq: integer('seq').primaryKey({ autoIncrement: true }),
  at: integer('at').notNull(),
  /** `user` (the API), `admin` (the admin area), `system` (retention, the command line). */
  actorKind: text('actor_kind', { enum: ['user', 'admin', 'system'] }).notNull(),
  /** The user's id, `admin`, or the system job's name. */
  actorId: text('actor_id').notNull(),
  action: text('action').notNull(),
  callId: text('call_id'),
  /** What else was touched (an action item, a user, a setting), when not the call. */
  target: text('target'),
  clientIp: text('client_ip'),
  /** JSON of counts, formats, statuses: never transcript text, secrets or full phone numbers. */
  detail: text('detail'),
  /** Hex sha256 of the previous record (64 zeros for the first). */
  previousHash: text('previous_hash').notNull(),
  /** Hex sha256 over `previousHash` and this record's fields (see AccessAuditTrail). */
  hash: text('hash').notNull(),
}, (table) => [
  index('access_audit_at_idx').on(table.at),
  index('access_audit_call_idx').on(table.callId, table.seq),
  index('access_audit_actor_idx').on(table.actorId, table.seq),
]);

/**
 * Legal holds placed by an admin on a user (all their calls) or on one call: while a hold is
 * active (`liftedAt` null), nothing it covers can be deleted (409 `legal_hold`), neither by its
 * owner, a user's hard delete, nor retention. Lifted holds are kept for the record.
 */
export const legalHolds = sqliteTable('legal_holds', {
  id: text('id').primaryKey(),
  scope: text('scope', { enum: ['user', 'call'] }).notNull(),
  userId: text('user_id').notNull(),
  /** The held call (`call` scope); null for a user hold. */
  callId: text('call_id'),
  reason: text('reason').notNull(),
  placedAt: integer('placed_at').notNull(),
  liftedAt: integer('lifted_at'),
  liftReason: text('lift_reason'),
}, (table) => [
  index('legal_holds_user_idx').on(table.userId, table.liftedAt),
  index('legal_holds_call_idx').on(table.callId, table.liftedAt),
]);
