DROP INDEX "message_chat_seq_idx";--> statement-breakpoint
ALTER TABLE "message" ADD COLUMN "parent_id" text;--> statement-breakpoint
ALTER TABLE "message" ADD COLUMN "selected" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "message" ADD COLUMN "active" boolean DEFAULT true NOT NULL;--> statement-breakpoint
-- Every existing chat becomes a single branch: each message follows the one before it.
UPDATE "message" AS m SET "parent_id" = prev."prev_id" FROM (
  SELECT "id", lag("id") OVER (PARTITION BY "chat_id" ORDER BY "seq", "created_at", "id") AS "prev_id" FROM "message"
) AS prev WHERE prev."id" = m."id" AND prev."prev_id" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "message" ADD CONSTRAINT "message_parent_id_message_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."message"("id") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
CREATE INDEX "message_chat_parent_idx" ON "message" USING btree ("chat_id","parent_id");--> statement-breakpoint
CREATE INDEX "message_chat_seq_idx" ON "message" USING btree ("chat_id","seq") WHERE "message"."active";