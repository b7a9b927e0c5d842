CREATE TABLE "action_items" (
	"seq" bigserial PRIMARY KEY NOT NULL,
	"id" text NOT NULL,
	"call_id" text NOT NULL,
	"user_id" text NOT NULL,
	"title" text NOT NULL,
	"description" text,
	"due_date" text,
	"status" text NOT NULL,
	"source_text" text,
	"owner_speaker_id" text,
	"owner_speaker_label" text,
	"owner_display_name" text,
	"owner_role" text,
	"source_segment_ids" text DEFAULT '[]' NOT NULL,
	"intent" text,
	"intent_metadata" text,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "admin_audit" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"at" bigint NOT NULL,
	"actor" text NOT NULL,
	"action" text NOT NULL,
	"target" text,
	"detail" text,
	"client_ip" text
);
--> statement-breakpoint
CREATE TABLE "admin_credentials" (
	"kind" text PRIMARY KEY NOT NULL,
	"secret_hash" text NOT NULL,
	"created_at" bigint NOT NULL,
	"expires_at" bigint
);
--> statement-breakpoint
CREATE TABLE "admin_sessions" (
	"id_hash" text PRIMARY KEY NOT NULL,
	"csrf_token" text NOT NULL,
	"created_at" bigint NOT NULL,
	"last_seen_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "admin_settings" (
	"key" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "call_artifacts" (
	"call_id" text NOT NULL,
	"kind" text NOT NULL,
	"schema_version" integer NOT NULL,
	"object_key" text NOT NULL,
	"producer" text,
	"created_at" bigint NOT NULL,
	CONSTRAINT "call_artifacts_call_id_kind_pk" PRIMARY KEY("call_id","kind")
);
--> statement-breakpoint
CREATE TABLE "calls" (
	"seq" bigserial PRIMARY KEY NOT NULL,
	"id" text NOT NULL,
	"user_id" text NOT NULL,
	"title" text NOT NULL,
	"file_name" text,
	"contact_name" text,
	"contact_id" text,
	"phone_number" text,
	"organization" text,
	"direction" text NOT NULL,
	"status" text NOT NULL,
	"duration_seconds" integer,
	"recorded_at" bigint,
	"error_reason" text,
	"audio_format" text NOT NULL,
	"audio_size_bytes" bigint NOT NULL,
	"audio_object_key" text,
	"deleting_since" bigint,
	"queued_at" bigint,
	"stage" text,
	"progress" double precision DEFAULT 0 NOT NULL,
	"last_progress_at" bigint,
	"worker_lease" text,
	"processing_attempts" integer DEFAULT 0 NOT NULL,
	"awaiting_callback_since" bigint,
	"heartbeat_at" bigint,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL,
	CONSTRAINT "calls_id_unique" UNIQUE("id")
);
--> statement-breakpoint
CREATE TABLE "idempotency_records" (
	"user_id" text NOT NULL,
	"key" text NOT NULL,
	"fingerprint" text NOT NULL,
	"state" text NOT NULL,
	"status_code" integer,
	"response_body" text,
	"created_at" bigint NOT NULL,
	CONSTRAINT "idempotency_records_user_id_key_pk" PRIMARY KEY("user_id","key")
);
--> statement-breakpoint
CREATE TABLE "nodes" (
	"id" text PRIMARY KEY NOT NULL,
	"host" text NOT NULL,
	"role" text NOT NULL,
	"version" text NOT NULL,
	"pid" integer NOT NULL,
	"started_at" bigint NOT NULL,
	"heartbeat_at" bigint NOT NULL,
	"stopped_at" bigint,
	"processes" integer NOT NULL,
	"calls_in_flight" integer DEFAULT 0 NOT NULL,
	"models" text
);
--> statement-breakpoint
CREATE TABLE "processing_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"call_id" text NOT NULL,
	"stage" text NOT NULL,
	"outcome" text NOT NULL,
	"started_at" bigint NOT NULL,
	"ended_at" bigint,
	"duration_ms" bigint,
	"detail" text
);
--> statement-breakpoint
CREATE TABLE "settings" (
	"key" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL,
	"updated_at" bigint DEFAULT (extract(epoch from now()) * 1000)::bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "transcription_jobs" (
	"job_id" text PRIMARY KEY NOT NULL,
	"call_id" text NOT NULL,
	"state" text NOT NULL,
	"submitted_at" bigint NOT NULL,
	"ended_at" bigint,
	"error_reason" text
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" text PRIMARY KEY NOT NULL,
	"external_user_id" text NOT NULL,
	"email" text,
	"display_name" text,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "voice_profiles" (
	"user_id" text PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"embedding_model" text NOT NULL,
	"embedding_dimension" integer NOT NULL,
	"encrypted_embedding" "bytea" NOT NULL,
	"consent_version" text NOT NULL,
	"sample_duration_seconds" integer NOT NULL,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_receipts" (
	"webhook_id" text PRIMARY KEY NOT NULL,
	"job_id" text NOT NULL,
	"received_at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "action_items" ADD CONSTRAINT "action_items_call_id_calls_id_fk" FOREIGN KEY ("call_id") REFERENCES "public"."calls"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "action_items" ADD CONSTRAINT "action_items_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "call_artifacts" ADD CONSTRAINT "call_artifacts_call_id_calls_id_fk" FOREIGN KEY ("call_id") REFERENCES "public"."calls"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "calls" ADD CONSTRAINT "calls_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "idempotency_records" ADD CONSTRAINT "idempotency_records_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "processing_events" ADD CONSTRAINT "processing_events_call_id_calls_id_fk" FOREIGN KEY ("call_id") REFERENCES "public"."calls"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transcription_jobs" ADD CONSTRAINT "transcription_jobs_call_id_calls_id_fk" FOREIGN KEY ("call_id") REFERENCES "public"."calls"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "voice_profiles" ADD CONSTRAINT "voice_profiles_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "action_items_id_unique" ON "action_items" USING btree ("id");--> statement-breakpoint
CREATE INDEX "action_items_user_status_idx" ON "action_items" USING btree ("user_id","status","created_at");--> statement-breakpoint
CREATE INDEX "action_items_call_idx" ON "action_items" USING btree ("call_id");--> statement-breakpoint
CREATE INDEX "admin_audit_at_idx" ON "admin_audit" USING btree ("at");--> statement-breakpoint
CREATE INDEX "calls_user_seq_idx" ON "calls" USING btree ("user_id","seq");--> statement-breakpoint
CREATE INDEX "calls_user_status_seq_idx" ON "calls" USING btree ("user_id","status","seq");--> statement-breakpoint
CREATE INDEX "calls_status_seq_idx" ON "calls" USING btree ("status","seq");--> statement-breakpoint
CREATE INDEX "calls_status_queued_idx" ON "calls" USING btree ("status","queued_at");--> statement-breakpoint
CREATE INDEX "idempotency_records_created_idx" ON "idempotency_records" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "nodes_heartbeat_idx" ON "nodes" USING btree ("heartbeat_at");--> statement-breakpoint
CREATE INDEX "processing_events_call_idx" ON "processing_events" USING btree ("call_id");--> statement-breakpoint
CREATE INDEX "transcription_jobs_call_idx" ON "transcription_jobs" USING btree ("call_id");--> statement-breakpoint
CREATE UNIQUE INDEX "users_external_user_id_unique" ON "users" USING btree ("external_user_id");