-- A sub-chat's outcome is the one stored truth of its state; its status (running / success /
-- error / cancelled) is derived from it (subChatStatus in services/sub-chat-state.ts).
-- Every writer has set both together since 0003, which backfilled the older rows; the same
-- backfill runs again before the column goes, so no sub-chat that ended reads as running.
UPDATE "chat" SET "outcome" = "status" WHERE "outcome" IS NULL AND "parent_chat_id" IS NOT NULL AND "status" IN ('success', 'error', 'cancelled');--> statement-breakpoint
ALTER TABLE "chat" DROP COLUMN "status";
