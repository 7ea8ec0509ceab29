CREATE TABLE "chat_file" (
	"chat_id" text NOT NULL,
	"file_id" text NOT NULL,
	CONSTRAINT "chat_file_chat_id_file_id_pk" PRIMARY KEY("chat_id","file_id")
);
--> statement-breakpoint
ALTER TABLE "chat_file" ADD CONSTRAINT "chat_file_chat_id_chat_id_fk" FOREIGN KEY ("chat_id") REFERENCES "public"."chat"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_file" ADD CONSTRAINT "chat_file_file_id_file_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."file"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "chat_file_file_idx" ON "chat_file" USING btree ("file_id");