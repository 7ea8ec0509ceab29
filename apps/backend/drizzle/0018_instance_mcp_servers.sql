CREATE TABLE "workspace_instance_mcp_server" (
	"workspace_id" text NOT NULL,
	"server_id" text NOT NULL,
	"enabled_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "workspace_instance_mcp_server_workspace_id_server_id_pk" PRIMARY KEY("workspace_id","server_id")
);
--> statement-breakpoint
ALTER TABLE "workspace_instance_mcp_server" ADD CONSTRAINT "workspace_instance_mcp_server_workspace_id_workspace_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspace"("id") ON DELETE cascade ON UPDATE no action;