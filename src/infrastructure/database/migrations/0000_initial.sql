CREATE TABLE `action_items` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`id` text NOT NULL,
	`call_id` text NOT NULL,
	`user_id` text NOT NULL,
	`title` text NOT NULL,
	`description` text,
	`due_date` text,
	`status` text NOT NULL,
	`source_text` text,
	`owner_speaker_id` text,
	`owner_speaker_label` text,
	`owner_display_name` text,
	`owner_role` text,
	`source_segment_ids` text DEFAULT '[]' NOT NULL,
	`intent` text,
	`intent_metadata` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`call_id`) REFERENCES `calls`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `action_items_id_unique` ON `action_items` (`id`);--> statement-breakpoint
CREATE INDEX `action_items_user_status_idx` ON `action_items` (`user_id`,`status`,`created_at`);--> statement-breakpoint
CREATE INDEX `action_items_call_idx` ON `action_items` (`call_id`);--> statement-breakpoint
CREATE TABLE `call_artifacts` (
	`call_id` text NOT NULL,
	`kind` text NOT NULL,
	`schema_version` integer NOT NULL,
	`object_key` text NOT NULL,
	`producer` text,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`call_id`, `kind`),
	FOREIGN KEY (`call_id`) REFERENCES `calls`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `calls` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`id` text NOT NULL,
	`user_id` text NOT NULL,
	`title` text NOT NULL,
	`file_name` text,
	`contact_name` text,
	`contact_id` text,
	`phone_number` text,
	`organization` text,
	`direction` text NOT NULL,
	`status` text NOT NULL,
	`duration_seconds` integer,
	`recorded_at` integer,
	`error_reason` text,
	`audio_format` text NOT NULL,
	`audio_size_bytes` integer NOT NULL,
	`audio_object_key` text,
	`deleting_since` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `calls_id_unique` ON `calls` (`id`);--> statement-breakpoint
CREATE INDEX `calls_user_seq_idx` ON `calls` (`user_id`,`seq`);--> statement-breakpoint
CREATE INDEX `calls_user_status_seq_idx` ON `calls` (`user_id`,`status`,`seq`);--> statement-breakpoint
CREATE INDEX `calls_status_seq_idx` ON `calls` (`status`,`seq`);--> statement-breakpoint
CREATE TABLE `idempotency_records` (
	`user_id` text NOT NULL,
	`key` text NOT NULL,
	`fingerprint` text NOT NULL,
	`state` text NOT NULL,
	`status_code` integer,
	`response_body` text,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`user_id`, `key`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `idempotency_records_created_idx` ON `idempotency_records` (`created_at`);--> statement-breakpoint
CREATE TABLE `processing_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`call_id` text NOT NULL,
	`stage` text NOT NULL,
	`outcome` text NOT NULL,
	`started_at` integer NOT NULL,
	`ended_at` integer,
	`duration_ms` integer,
	`detail` text,
	FOREIGN KEY (`call_id`) REFERENCES `calls`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `processing_events_call_idx` ON `processing_events` (`call_id`);--> statement-breakpoint
CREATE TABLE `settings` (
	`key` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL,
	`updated_at` integer DEFAULT (unixepoch() * 1000) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `users` (
	`id` text PRIMARY KEY NOT NULL,
	`external_user_id` text NOT NULL,
	`email` text,
	`display_name` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_external_user_id_unique` ON `users` (`external_user_id`);