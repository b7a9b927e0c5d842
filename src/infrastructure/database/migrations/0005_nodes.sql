CREATE TABLE `nodes` (
	`id` text PRIMARY KEY NOT NULL,
	`host` text NOT NULL,
	`role` text NOT NULL,
	`version` text NOT NULL,
	`pid` integer NOT NULL,
	`started_at` integer NOT NULL,
	`heartbeat_at` integer NOT NULL,
	`stopped_at` integer,
	`processes` integer NOT NULL,
	`calls_in_flight` integer DEFAULT 0 NOT NULL,
	`models` text
);
--> statement-breakpoint
CREATE INDEX `nodes_heartbeat_idx` ON `nodes` (`heartbeat_at`);--> statement-breakpoint
ALTER TABLE `calls` ADD `heartbeat_at` integer;