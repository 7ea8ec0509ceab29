ALTER TABLE "chat" ADD COLUMN "source" text DEFAULT 'app' NOT NULL;--> statement-breakpoint
ALTER TABLE "chat" ADD COLUMN "api_key_name" text;