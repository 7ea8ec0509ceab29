-- Agent names become unique per workspace, case-insensitively. Duplicates stored before
-- keep their oldest agent's name; each later one gets the first free " (2)", " (3)", …
-- suffix (kept within the 200-character name limit), so the index below can be built.
DO $$
DECLARE
  dup record;
  n integer;
  candidate text;
BEGIN
  FOR dup IN
    SELECT id, workspace_id, name FROM (
      SELECT id, workspace_id, name,
        row_number() OVER (PARTITION BY workspace_id, lower(name) ORDER BY created_at, id) AS rn
      FROM "agent"
    ) ranked
    WHERE rn > 1
    ORDER BY workspace_id, lower(name), rn
  LOOP
    n := 2;
    LOOP
      candidate := left(dup.name, 200 - length(' (' || n || ')')) || ' (' || n || ')';
      EXIT WHEN NOT EXISTS (
        SELECT 1 FROM "agent" WHERE workspace_id = dup.workspace_id AND lower(name) = lower(candidate)
      );
      n := n + 1;
    END LOOP;
    UPDATE "agent" SET name = candidate, updated_at = now() WHERE id = dup.id;
  END LOOP;
END $$;--> statement-breakpoint
CREATE UNIQUE INDEX "agent_workspace_name_unique" ON "agent" USING btree ("workspace_id",lower("name"));
