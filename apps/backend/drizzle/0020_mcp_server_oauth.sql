CREATE TABLE "mcp_server_oauth" (
	"server_id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"resource_metadata_url" text,
	"scope" text,
	"discovery" jsonb,
	"client" text,
	"tokens" text,
	"tokens_expire_at" timestamp (3) with time zone,
	"connected_at" timestamp (3) with time zone,
	"pending_state" text,
	"pending_verifier" text,
	"pending_user_id" text,
	"pending_started_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "mcp_server_oauth" ADD CONSTRAINT "mcp_server_oauth_server_id_mcp_server_id_fk" FOREIGN KEY ("server_id") REFERENCES "public"."mcp_server"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mcp_server_oauth" ADD CONSTRAINT "mcp_server_oauth_workspace_id_workspace_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspace"("id") ON DELETE cascade ON UPDATE no action;