-- A file row whose bytes are in S3 leaves its object behind when it goes, also by a cascade
-- (a chat, a workspace or an account deleted) that no application code sees: the object's key
-- is queued here, and the file sweep (services/file-sweep.ts) deletes the object, then the key.
CREATE FUNCTION "file_object_removal_queue"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "file_object_removal" ("storage_key") VALUES (OLD."storage_key") ON CONFLICT DO NOTHING;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "file_object_removal_after_delete" AFTER DELETE ON "file" FOR EACH ROW WHEN (OLD."storage" = 's3') EXECUTE FUNCTION "file_object_removal_queue"();
