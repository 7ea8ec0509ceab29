ALTER TABLE "agent" ADD COLUMN "delegation" jsonb DEFAULT '{"maxDepth":1,"generalPurpose":false,"contextMode":"task_only","toolPolicy":"intersect","maxConcurrent":10,"maxResultChars":8000,"maxTokensPerDelegation":null,"maxTokensPerTree":null}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "chat" ADD COLUMN "outcome" text;--> statement-breakpoint
ALTER TABLE "chat" ADD COLUMN "depth" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "chat" ADD COLUMN "context_mode" text;--> statement-breakpoint
ALTER TABLE "chat" ADD COLUMN "delegate_context" text;--> statement-breakpoint
ALTER TABLE "chat" ADD COLUMN "effective_tool_ids" jsonb;--> statement-breakpoint
ALTER TABLE "chat" ADD COLUMN "notes" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "run" ADD COLUMN "steps" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Sub-chats of the first round were all one level deep and ended with a status only.
UPDATE "chat" SET "depth" = 1 WHERE "parent_chat_id" IS NOT NULL;--> statement-breakpoint
UPDATE "chat" SET "outcome" = "status" WHERE "status" IN ('success', 'error', 'cancelled');
