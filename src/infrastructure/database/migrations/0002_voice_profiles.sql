CREATE TABLE `voice_profiles` (
	`user_id` text PRIMARY KEY NOT NULL,
	`provider` text NOT NULL,
	`embedding_model` text NOT NULL,
	`embedding_dimension` integer NOT NULL,
	`encrypted_embedding` blob NOT NULL,
	`consent_version` text NOT NULL,
	`sample_duration_seconds` integer NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
