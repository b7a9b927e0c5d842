CREATE TABLE "access_audit" (
	"seq" bigserial PRIMARY KEY NOT NULL,
	"at" bigint NOT NULL,
	"actor_kind" text NOT NULL,
	"actor_id" text NOT NULL,
	"action" text NOT NULL,
	"call_id" text,
	"target" text,
	"client_ip" text,
	"detail" text,
	"previous_hash" text NOT NULL,
	"hash" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "legal_holds" (
	"id" text PRIMARY KEY NOT NULL,
	"scope" text NOT NULL,
	"user_id" text NOT NULL,
	"call_id" text,
	"reason" text NOT NULL,
	"placed_at" bigint NOT NULL,
	"lifted_at" bigint,
	"lift_reason" text
);
--> statement-breakpoint
CREATE INDEX "access_audit_at_idx" ON "access_audit" USING btree ("at");--> statement-breakpoint
CREATE INDEX "access_audit_call_idx" ON "access_audit" USING btree ("call_id","seq");--> statement-breakpoint
CREATE INDEX "access_audit_actor_idx" ON "access_audit" USING btree ("actor_id","seq");--> statement-breakpoint
CREATE INDEX "legal_holds_user_idx" ON "legal_holds" USING btree ("user_id","lifted_at");--> statement-breakpoint
CREATE INDEX "legal_holds_call_idx" ON "legal_holds" USING btree ("call_id","lifted_at");