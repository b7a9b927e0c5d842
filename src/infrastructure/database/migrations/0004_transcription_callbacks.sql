CREATE TABLE `transcription_jobs` (
	`job_id` text PRIMARY KEY NOT NULL,
	`call_id` text NOT NULL,
	`state` text NOT NULL,
	`submitted_at` integer NOT NULL,
	`ended_at` integer,
	`error_reason` text,
	FOREIGN KEY (`call_id`) REFERENCES `calls`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `transcription_jobs_call_idx` ON `transcription_jobs` (`call_id`);--> statement-breakpoint
CREATE TABLE `webhook_receipts` (
	`webhook_id` text PRIMARY KEY NOT NULL,
	`job_id` text NOT NULL,
	`received_at` integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE `calls` ADD `awaiting_callback_since` integer;