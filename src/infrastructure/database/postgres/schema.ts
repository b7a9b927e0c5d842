import { sql } from 'drizzle-orm';
import { bigint, bigserial, customType, doublePrecision, index, integer, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';

/*
 * The relational model on PostgreSQL: the same tables, columns and indexes as the SQLite schema
 * (`../sqlite/schema.ts`, where each column is described), in PostgreSQL's types. Milliseconds
 * since the epoch are bigint, read back as numbers. test/infrastructure/database/schemaParity.test.ts
 * holds the two together; a change is made to both, then `npm run db:generate` writes a
 * migration for each.
 */

const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });
const milliseconds = (name: string) => bigint(name, { mode: 'number' });

export const users = pgTable('users', {
  id: text('id').primaryKey(),
  externalUserId: text('external_user_id').notNull(),
  email: text('email'),
  displayName: text('display_name'),
  createdAt: milliseconds('created_at').notNull(),
  updatedAt: milliseconds('updated_at').notNull(),
}, (table) => [uniqueIndex('users_external_user_id_unique').on(table.externalUserId)]);

export const calls = pgTable('calls', {
  seq: bigserial('seq', { mode: 'number' }).primaryKey(),
  // A unique constraint (not only an index, as on SQLite): PostgreSQL's foreign keys to calls.id need one.
  id: text('id').notNull().unique('calls_id_unique'),
  userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  title: text('title').notNull(),
  fileName: text('file_name'),
  contactName: text('contact_name'),
  contactId: text('contact_id'),
  phoneNumber: text('phone_number'),
  organization: text('organization'),
  direction: text('direction', { enum: ['INCOMING', 'OUTGOING', 'UNKNOWN'] }).notNull(),
  status: text('status', { enum: ['QUEUED', 'TRANSCRIBING', 'ANALYZING', 'COMPLETED', 'FAILED'] }).notNull(),
  durationSeconds: integer('duration_seconds'),
  recordedAt: milliseconds('recorded_at'),
  errorReason: text('error_reason'),
  audioFormat: text('audio_format').notNull(),
  audioSizeBytes: bigint('audio_size_bytes', { mode: 'number' }).notNull(),
  audioObjectKey: text('audio_object_key'),
  deletingSince: milliseconds('deleting_since'),
  queuedAt: milliseconds('queued_at'),
  stage: text('stage'),
  progress: doublePrecision('progress').notNull().default(0),
  lastProgressAt: milliseconds('last_progress_at'),
  workerLease: text('worker_lease'),
  processingAttempts: integer('processing_attempts').notNull().default(0),
  awaitingCallbackSince: milliseconds('awaiting_callback_since'),
  heartbeatAt: milliseconds('heartbeat_at'),
  createdAt: milliseconds('created_at').notNull(),
  updatedAt: milliseconds('updated_at').notNull(),
}, (table) => [
  index('calls_user_seq_idx').on(table.userId, table.seq),
  index('calls_user_status_seq_idx').on(table.userId, table.status, table.seq),
  index('calls_status_seq_idx').on(table.status, table.seq),
  index('calls_status_queued_idx').on(table.status, table.queuedAt),
  // The live-status feed's look for changes (GET /api/calls/events): `updated_at > ?` over all users.
  index('calls_updated_at_idx').on(table.updatedAt),
]);

export const callArtifacts = pgTable('call_artifacts', {
  callId: text('call_id').notNull().references(() => calls.id, { onDelete: 'cascade' }),
  kind: text('kind', { enum: ['transcript', 'analysis'] }).notNull(),
  schemaVersion: integer('schema_version').notNull(),
  objectKey: text('object_key').notNull(),
  producer: text('producer'),
  createdAt: milliseconds('created_at').notNull(),
}, (table) => [primaryKey({ columns: [table.callId, table.kind] })]);

export const actionItems = pgTable('action_items', {
  seq: bigserial('seq', { mode: 'number' }).primaryKey(),
  id: text('id').notNull(),
  callId: text('call_id').notNull().references(() => calls.id, { onDelete: 'cascade' }),
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
  sourceSegmentIds: text('source_segment_ids').notNull().default('[]'),
  intent: text('intent'),
  intentMetadata: text('intent_metadata'),
  createdAt: milliseconds('created_at').notNull(),
  updatedAt: milliseconds('updated_at').notNull(),
}, (table) => [
  uniqueIndex('action_items_id_unique').on(table.id),
  index('action_items_user_status_idx').on(table.userId, table.status, table.createdAt),
  index('action_items_call_idx').on(table.callId),
]);

export const processingEvents = pgTable('processing_events', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  callId: text('call_id').notNull().references(() => calls.id, { onDelete: 'cascade' }),
  stage: text('stage').notNull(),
  outcome: text('outcome').notNull(),
  startedAt: milliseconds('started_at').notNull(),
  endedAt: milliseconds('ended_at'),
  durationMs: milliseconds('duration_ms'),
  detail: text('detail'),
}, (table) => [index('processing_events_call_idx').on(table.callId)]);

export const idempotencyRecords = pgTable('idempotency_records', {
  userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  key: text('key').notNull(),
  fingerprint: text('fingerprint').notNull(),
  state: text('state', { enum: ['PENDING', 'COMPLETE'] }).notNull(),
  statusCode: integer('status_code'),
  responseBody: text('response_body'),
  createdAt: milliseconds('created_at').notNull(),
}, (table) => [
  primaryKey({ columns: [table.userId, table.key] }),
  index('idempotency_records_created_idx').on(table.createdAt),
]);

export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
  updatedAt: milliseconds('updated_at').notNull().default(sql`(extract(epoch from now()) * 1000)::bigint`),
});

export const voiceProfiles = pgTable('voice_profiles', {
  userId: text('user_id').primaryKey().references(() => users.id, { onDelete: 'cascade' }),
  provider: text('provider').notNull(),
  embeddingModel: text('embedding_model').notNull(),
  embeddingDimension: integer('embedding_dimension').notNull(),
  encryptedEmbedding: bytea('encrypted_embedding').notNull(),
  consentVersion: text('consent_version').notNull(),
  sampleDurationSeconds: integer('sample_duration_seconds').notNull(),
  createdAt: milliseconds('created_at').notNull(),
  updatedAt: milliseconds('updated_at').notNull(),
});

export const adminCredentials = pgTable('admin_credentials', {
  kind: text('kind', { enum: ['password', 'setup_token', 'api_key'] }).primaryKey(),
  secretHash: text('secret_hash').notNull(),
  createdAt: milliseconds('created_at').notNull(),
  expiresAt: milliseconds('expires_at'),
});

export const adminSessions = pgTable('admin_sessions', {
  idHash: text('id_hash').primaryKey(),
  csrfToken: text('csrf_token').notNull(),
  createdAt: milliseconds('created_at').notNull(),
  lastSeenAt: milliseconds('last_seen_at').notNull(),
});

export const adminSettings = pgTable('admin_settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
  updatedAt: milliseconds('updated_at').notNull(),
});

export const adminAudit = pgTable('admin_audit', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  at: milliseconds('at').notNull(),
  actor: text('actor', { enum: ['admin', 'setup'] }).notNull(),
  action: text('action').notNull(),
  target: text('target'),
  detail: text('detail'),
  clientIp: text('client_ip'),
}, (table) => [index('admin_audit_at_idx').on(table.at)]);

export const transcriptionJobs = pgTable('transcription_jobs', {
  jobId: text('job_id').primaryKey(),
  callId: text('call_id').notNull().references(() => calls.id, { onDelete: 'cascade' }),
  state: text('state', { enum: ['waiting', 'received', 'failed', 'abandoned'] }).notNull(),
  submittedAt: milliseconds('submitted_at').notNull(),
  endedAt: milliseconds('ended_at'),
  errorReason: text('error_reason'),
}, (table) => [index('transcription_jobs_call_idx').on(table.callId)]);

export const webhookReceipts = pgTable('webhook_receipts', {
  webhookId: text('webhook_id').primaryKey(),
  jobId: text('job_id').notNull(),
  receivedAt: milliseconds('received_at').notNull(),
});

export const nodes = pgTable('nodes', {
  id: text('id').primaryKey(),
  host: text('host').notNull(),
  role: text('role', { enum: ['serve', 'worker'] }).notNull(),
  version: text('version').notNull(),
  pid: integer('pid').notNull(),
  processScope: text('process_scope'),
  startedAt: milliseconds('started_at').notNull(),
  heartbeatAt: milliseconds('heartbeat_at').notNull(),
  stoppedAt: milliseconds('stopped_at'),
  processes: integer('processes').notNull(),
  callsInFlight: integer('calls_in_flight').notNull().default(0),
  models: text('models'),
}, (table) => [index('nodes_heartbeat_idx').on(table.heartbeatAt)]);

export const speakerCorrections = pgTable('speaker_corrections', {
  seq: bigserial('seq', { mode: 'number' }).primaryKey(),
  callId: text('call_id').notNull().references(() => calls.id, { onDelete: 'cascade' }),
  kind: text('kind', { enum: ['label', 'merge'] }).notNull(),
  speakerId: text('speaker_id').notNull(),
  intoSpeakerId: text('into_speaker_id'),
  displayName: text('display_name'),
  role: text('role'),
  createdAt: milliseconds('created_at').notNull(),
}, (table) => [index('speaker_corrections_call_idx').on(table.callId, table.seq)]);

export const webhookDeliveries = pgTable('webhook_deliveries', {
  seq: bigserial('seq', { mode: 'number' }).primaryKey(),
  messageId: text('message_id').notNull(),
  eventType: text('event_type').notNull(),
  url: text('url').notNull(),
  payload: text('payload').notNull(),
  state: text('state', { enum: ['pending', 'delivered', 'failed'] }).notNull(),
  attempts: integer('attempts').notNull().default(0),
  nextAttemptAt: milliseconds('next_attempt_at').notNull(),
  leaseOwner: text('lease_owner'),
  leaseUntil: milliseconds('lease_until'),
  lastStatusCode: integer('last_status_code'),
  lastError: text('last_error'),
  createdAt: milliseconds('created_at').notNull(),
  updatedAt: milliseconds('updated_at').notNull(),
  deliveredAt: milliseconds('delivered_at'),
}, (table) => [
  uniqueIndex('webhook_deliveries_message_url_unique').on(table.messageId, table.url),
  index('webhook_deliveries_due_idx').on(table.state, table.nextAttemptAt),
  index('webhook_deliveries_created_idx').on(table.createdAt),
]);

export const accessAudit = pgTable('access_audit', {
  seq: bigserial('seq', { mode: 'number' }).primaryKey(),
  at: milliseconds('at').notNull(),
  actorKind: text('actor_kind', { enum: ['user', 'admin', 'system'] }).notNull(),
  actorId: text('actor_id').notNull(),
  action: text('action').notNull(),
  callId: text('call_id'),
  target: text('target'),
  clientIp: text('client_ip'),
  detail: text('detail'),
  previousHash: text('previous_hash').notNull(),
  hash: text('hash').notNull(),
}, (table) => [
  index('access_audit_at_idx').on(table.at),
  index('access_audit_call_idx').on(table.callId, table.seq),
  index('access_audit_actor_idx').on(table.actorId, table.seq),
]);

export const legalHolds = pgTable('legal_holds', {
  id: text('id').primaryKey(),
  scope: text('scope', { enum: ['user', 'call'] }).notNull(),
  userId: text('user_id').notNull(),
  callId: text('call_id'),
  reason: text('reason').notNull(),
  placedAt: milliseconds('placed_at').notNull(),
  liftedAt: milliseconds('lifted_at'),
  liftReason: text('lift_reason'),
}, (table) => [
  index('legal_holds_user_idx').on(table.userId, table.liftedAt),
  index('legal_holds_call_idx').on(table.callId, table.liftedAt),
]);
