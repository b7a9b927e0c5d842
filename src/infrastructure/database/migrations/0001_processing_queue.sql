ALTER TABLE `calls` ADD `queued_at` integer;--> statement-breakpoint
ALTER TABLE `calls` ADD `stage` text;--> statement-breakpoint
ALTER TABLE `calls` ADD `progress` real DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `calls` ADD `last_progress_at` integer;--> statement-breakpoint
ALTER TABLE `calls` ADD `worker_lease` text;--> statement-breakpoint
ALTER TABLE `calls` ADD `processing_attempts` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `calls_status_queued_idx` ON `calls` (`status`,`queued_at`);--> statement-breakpoint
-- Calls accepted before this migration queue in upload order.
UPDATE `calls` SET `queued_at` = `created_at` WHERE `queued_at` IS NULL;