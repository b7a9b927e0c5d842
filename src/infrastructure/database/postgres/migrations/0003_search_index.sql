-- The search index (GET /api/search, src/domain/search/SearchIndex.ts). It lives in this migration only,
-- not in the drizzle schema: never regenerate it away. One row per indexed (COMPLETED) call: its
-- searchable pieces as JSON (for the hits) and its words as a tsvector built by the service (folded
-- words, weights A title, B summary and action items, D transcript), GIN-indexed.
CREATE TABLE "search_calls" (
	"call_id" text PRIMARY KEY NOT NULL,
	"call_seq" bigint NOT NULL,
	"user_id" text NOT NULL,
	"pieces" text NOT NULL,
	"document" tsvector NOT NULL
);
--> statement-breakpoint
-- The words stay in the row (compressed) rather than in TOAST: every match test reads them, and the
-- planner, which does not count TOAST reads, then sees what a scan of the table really costs.
ALTER TABLE "search_calls" ALTER COLUMN "document" SET STORAGE MAIN;
--> statement-breakpoint
ALTER TABLE "search_calls" ADD CONSTRAINT "search_calls_call_id_calls_id_fk" FOREIGN KEY ("call_id") REFERENCES "public"."calls"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
-- Newest first per user: a search ranks only its user's newest matches (SearchIndex.rankedMatchesCap).
CREATE INDEX "search_calls_user_seq_idx" ON "search_calls" USING btree ("user_id","call_seq");
--> statement-breakpoint
CREATE INDEX "search_calls_document_idx" ON "search_calls" USING gin ("document");
