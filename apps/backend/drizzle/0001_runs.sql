CREATE TABLE "run" (
	"id" text PRIMARY KEY NOT NULL,
	"chat_id" text NOT NULL,
	"workspace_id" text NOT NULL,
	"kind" text NOT NULL,
	"mode" text NOT NULL,
	"status" text DEFAULT 'running' NOT NULL,
	"message_id" text NOT NULL,
	"base_part_count" integer DEFAULT 0 NOT NULL,
	"owner" text NOT NULL,
	"started_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"heartbeat_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"ended_at" timestamp (3) with time zone,
	"stop_requested_at" timestamp (3) with time zone,
	"error" text,
	"input_tokens" integer DEFAULT 0 NOT NULL,
	"output_tokens" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "run" ADD CONSTRAINT "run_chat_id_chat_id_fk" FOREIGN KEY ("chat_id") REFERENCES "public"."chat"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "run_one_active_per_chat" ON "run" USING btree ("chat_id") WHERE "run"."status" = 'running';--> statement-breakpoint
CREATE INDEX "run_chat_started_idx" ON "run" USING btree ("chat_id","started_at");--> statement-breakpoint
CREATE INDEX "run_active_heartbeat_idx" ON "run" USING btree ("heartbeat_at") WHERE "run"."status" = 'running';--> statement-breakpoint
-- Data written before runs existed. Duplicate sub-chats of one call (a race of the old
-- version) stay reachable under their parent but no longer claim the call.
UPDATE "chat" SET "parent_tool_call_id" = NULL
WHERE "parent_tool_call_id" IS NOT NULL AND "id" NOT IN (
  SELECT DISTINCT ON ("parent_chat_id", "parent_tool_call_id") "id" FROM "chat"
  WHERE "parent_tool_call_id" IS NOT NULL
  ORDER BY "parent_chat_id", "parent_tool_call_id", "created_at", "id"
);--> statement-breakpoint
-- The old version ran turns in memory: a sub-chat still marked running has no process left.
UPDATE "chat" SET "status" = 'error', "delegate_result" = 'Interrupted: Baton was restarted while this sub-agent was working.'
WHERE "status" = 'running';--> statement-breakpoint
-- Sub-agent ids of agents deleted while an edit raced the delete.
UPDATE "agent" SET "sub_agent_ids" = COALESCE((
  SELECT jsonb_agg(x.id ORDER BY x.ord) FROM jsonb_array_elements_text("agent"."sub_agent_ids") WITH ORDINALITY AS x(id, ord)
  WHERE EXISTS (SELECT 1 FROM "agent" a2 WHERE a2."id" = x.id AND a2."workspace_id" = "agent"."workspace_id")
), '[]'::jsonb);--> statement-breakpoint
CREATE UNIQUE INDEX "chat_parent_tool_call_unique" ON "chat" USING btree ("parent_chat_id","parent_tool_call_id");