CREATE TABLE "speaker_corrections" (
	"seq" bigserial PRIMARY KEY NOT NULL,
	"call_id" text NOT NULL,
	"kind" text NOT NULL,
	"speaker_id" text NOT NULL,
	"into_speaker_id" text,
	"display_name" text,
	"role" text,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_deliveries" (
	"seq" bigserial PRIMARY KEY NOT NULL,
	"message_id" text NOT NULL,
	"event_type" text NOT NULL,
	"url" text NOT NULL,
	"payload" text NOT NULL,
	"state" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" bigint NOT NULL,
	"lease_owner" text,
	"lease_until" bigint,
	"last_status_code" integer,
	"last_error" text,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL,
	"delivered_at" bigint
);
--> statement-breakpoint
ALTER TABLE "speaker_corrections" ADD CONSTRAINT "speaker_corrections_call_id_calls_id_fk" FOREIGN KEY ("call_id") REFERENCES "public"."calls"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "speaker_corrections_call_idx" ON "speaker_corrections" USING btree ("call_id","seq");--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_deliveries_message_url_unique" ON "webhook_deliveries" USING btree ("message_id","url");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries" USING btree ("state","next_attempt_at");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_created_idx" ON "webhook_deliveries" USING btree ("created_at");