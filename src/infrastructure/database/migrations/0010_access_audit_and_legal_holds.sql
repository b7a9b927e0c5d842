CREATE TABLE `access_audit` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`at` integer NOT NULL,
	`actor_kind` text NOT NULL,
	`actor_id` text NOT NULL,
	`action` text NOT NULL,
	`call_id` text,
	`target` text,
	`client_ip` text,
	`detail` text,
	`previous_hash` text NOT NULL,
	`hash` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `access_audit_at_idx` ON `access_audit` (`at`);--> statement-breakpoint
CREATE INDEX `access_audit_call_idx` ON `access_audit` (`call_id`,`seq`);--> statement-breakpoint
CREATE INDEX `access_audit_actor_idx` ON `access_audit` (`actor_id`,`seq`);--> statement-breakpoint
CREATE TABLE `legal_holds` (
	`id` text PRIMARY KEY NOT NULL,
	`scope` text NOT NULL,
	`user_id` text NOT NULL,
	`call_id` text,
	`reason` text NOT NULL,
	`placed_at` integer NOT NULL,
	`lifted_at` integer,
	`lift_reason` text
);
--> statement-breakpoint
CREATE INDEX `legal_holds_user_idx` ON `legal_holds` (`user_id`,`lifted_at`);--> statement-breakpoint
CREATE INDEX `legal_holds_call_idx` ON `legal_holds` (`call_id`,`lifted_at`);