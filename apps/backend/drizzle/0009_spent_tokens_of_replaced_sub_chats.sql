ALTER TABLE "chat" ADD COLUMN "replaced_input_tokens" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "chat" ADD COLUMN "replaced_output_tokens" integer DEFAULT 0 NOT NULL;