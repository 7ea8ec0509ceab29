ALTER TABLE "chat" ADD COLUMN "pinned_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "chat" ADD COLUMN "archived_at" timestamp with time zone;