ALTER TABLE "agent" ADD COLUMN "remote" jsonb;--> statement-breakpoint
ALTER TABLE "agent" ADD COLUMN "remote_headers" text;