CREATE TABLE "steering_message" (
	"id" text PRIMARY KEY NOT NULL,
	"chat_id" text NOT NULL,
	"run_id" text NOT NULL,
	"text" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"delivered_at" timestamp (3) with time zone,
	"step_number" integer
);
--> statement-breakpoint
DROP INDEX "chat_parent_tool_call_unique";--> statement-breakpoint
ALTER TABLE "chat" ADD COLUMN "attempt" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "steering_message" ADD CONSTRAINT "steering_message_chat_id_chat_id_fk" FOREIGN KEY ("chat_id") REFERENCES "public"."chat"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "steering_message" ADD CONSTRAINT "steering_message_run_id_run_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."run"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "steering_message_chat_created_idx" ON "steering_message" USING btree ("chat_id","created_at");--> statement-breakpoint
CREATE INDEX "steering_message_run_idx" ON "steering_message" USING btree ("run_id");--> statement-breakpoint
CREATE UNIQUE INDEX "chat_parent_tool_call_attempt_unique" ON "chat" USING btree ("parent_chat_id","parent_tool_call_id","attempt");