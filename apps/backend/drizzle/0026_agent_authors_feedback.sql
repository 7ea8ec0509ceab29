CREATE TABLE "message_feedback" (
	"id" text PRIMARY KEY NOT NULL,
	"message_id" text NOT NULL,
	"user_id" text NOT NULL,
	"chat_id" text NOT NULL,
	"workspace_id" text NOT NULL,
	"agent_id" text,
	"rating" text NOT NULL,
	"comment" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "agent" ADD COLUMN "author_id" text;--> statement-breakpoint
ALTER TABLE "agent" ADD COLUMN "editable_by" text DEFAULT 'author' NOT NULL;--> statement-breakpoint
ALTER TABLE "message_feedback" ADD CONSTRAINT "message_feedback_message_id_message_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."message"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_feedback" ADD CONSTRAINT "message_feedback_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_feedback" ADD CONSTRAINT "message_feedback_chat_id_chat_id_fk" FOREIGN KEY ("chat_id") REFERENCES "public"."chat"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_feedback" ADD CONSTRAINT "message_feedback_workspace_id_workspace_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspace"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_feedback" ADD CONSTRAINT "message_feedback_agent_id_agent_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."agent"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "message_feedback_message_user_unique" ON "message_feedback" USING btree ("message_id","user_id");--> statement-breakpoint
CREATE INDEX "message_feedback_chat_idx" ON "message_feedback" USING btree ("chat_id");--> statement-breakpoint
CREATE INDEX "message_feedback_agent_updated_idx" ON "message_feedback" USING btree ("workspace_id","agent_id","updated_at");--> statement-breakpoint
ALTER TABLE "agent" ADD CONSTRAINT "agent_author_id_user_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
-- Agents made before authors were kept: nobody recorded who made them, so each is given to its
-- workspace's owner (the one person sure to have been able to make it), editable by the author
-- (and admins) only. A workspace without an owner yet (the default one before the first
-- sign-up) keeps them author-less; the owner adopts them when signing up (sign-up.ts).
UPDATE "agent" SET "author_id" = "workspace_member"."user_id" FROM "workspace_member"
WHERE "workspace_member"."workspace_id" = "agent"."workspace_id" AND "workspace_member"."role" = 'owner';
