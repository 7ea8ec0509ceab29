ALTER TABLE "agent" ADD COLUMN "allow_model_override" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "chat" ADD COLUMN "model_override" text;