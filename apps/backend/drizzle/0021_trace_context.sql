CREATE TABLE "tool_call_trace" (
	"chat_id" text NOT NULL,
	"tool_call_id" text NOT NULL,
	"trace_parent" text NOT NULL,
	CONSTRAINT "tool_call_trace_chat_id_tool_call_id_pk" PRIMARY KEY("chat_id","tool_call_id")
);
--> statement-breakpoint
ALTER TABLE "chat" ADD COLUMN "trace_parent" text;--> statement-breakpoint
ALTER TABLE "tool_call_trace" ADD CONSTRAINT "tool_call_trace_chat_id_chat_id_fk" FOREIGN KEY ("chat_id") REFERENCES "public"."chat"("id") ON DELETE cascade ON UPDATE no action;