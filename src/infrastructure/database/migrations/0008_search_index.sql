-- The search index (GET /api/search, src/domain/search/SearchIndex.ts). It lives in this migration only,
-- not in the drizzle schema (drizzle-kit knows no FTS5 tables or triggers): never regenerate it away.
-- search_calls: one row per indexed (COMPLETED) call, keyed by the call's seq, holding its searchable
-- pieces as JSON for the hits; it goes with the call (and so with the user) by the foreign key.
CREATE TABLE `search_calls` (
	`call_seq` integer PRIMARY KEY NOT NULL,
	`call_id` text NOT NULL,
	`user_id` text NOT NULL,
	`pieces` text NOT NULL,
	FOREIGN KEY (`call_id`) REFERENCES `calls`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `search_calls_call_id_unique` ON `search_calls` (`call_id`);
--> statement-breakpoint
-- The words, rowid = call_seq: contentless (the text is in search_calls), deletable by rowid. `owner`
-- holds the user's token, matched inside every MATCH; prefix indexes serve `word*` of 2 to 5 letters
-- (a longer prefix begins fewer words, which FTS5 merges quickly without one).
CREATE VIRTUAL TABLE `search_index` USING fts5(
	owner, title, summary, actions, transcript,
	content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2', prefix='2 3 4 5'
);
--> statement-breakpoint
-- FTS5 tables take no foreign keys: whenever a search_calls row goes (cascade from calls or users,
-- or a replacement), its words go too.
CREATE TRIGGER `search_calls_delete_words` AFTER DELETE ON `search_calls` BEGIN
	DELETE FROM `search_index` WHERE rowid = old.call_seq;
END;
