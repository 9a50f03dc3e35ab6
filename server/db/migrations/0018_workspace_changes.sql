CREATE TABLE "workspace_changes" (
	"workspace_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"n" integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "workspace_changes" ADD CONSTRAINT "workspace_changes_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "workspace_changes_ws_kind_idx" ON "workspace_changes" USING btree ("workspace_id","kind");--> statement-breakpoint
-- One row per statement and workspace whose entries changed what the engine's indexes hold ('library': the text
-- index; 'vectors': the embedded rows; 'chunks' below). Only rows of workspaces that still exist: a workspace being deleted takes its
-- entries with it, and its counter rows too.
CREATE FUNCTION verity_entries_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO workspace_changes (workspace_id, kind)
      SELECT DISTINCT c.ws, c.kind FROM (
        SELECT workspace_id AS ws, 'library' AS kind FROM new_rows
        UNION SELECT workspace_id, 'vectors' FROM new_rows WHERE embedding IS NOT NULL
      ) c WHERE EXISTS (SELECT 1 FROM workspaces w WHERE w.id = c.ws);
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO workspace_changes (workspace_id, kind)
      SELECT DISTINCT c.ws, c.kind FROM (
        SELECT workspace_id AS ws, 'library' AS kind FROM old_rows
        UNION SELECT workspace_id, 'vectors' FROM old_rows WHERE embedding IS NOT NULL
      ) c WHERE EXISTS (SELECT 1 FROM workspaces w WHERE w.id = c.ws);
  ELSE
    INSERT INTO workspace_changes (workspace_id, kind)
      SELECT DISTINCT c.ws, c.kind FROM (
        SELECT ws, 'library' AS kind FROM old_rows o JOIN new_rows n ON n.id = o.id,
          LATERAL (VALUES (o.workspace_id), (n.workspace_id)) AS v(ws)
        WHERE (o.workspace_id, o.question, o.answer, o.status, o.tags, o.version, o.updated_at, o.last_verified_at)
          IS DISTINCT FROM (n.workspace_id, n.question, n.answer, n.status, n.tags, n.version, n.updated_at, n.last_verified_at)
        UNION
        SELECT ws, 'vectors' FROM old_rows o JOIN new_rows n ON n.id = o.id,
          LATERAL (VALUES (o.workspace_id), (n.workspace_id)) AS v(ws)
        WHERE (o.workspace_id, o.status, o.version, o.embedding_model, o.embedding IS NULL)
          IS DISTINCT FROM (n.workspace_id, n.status, n.version, n.embedding_model, n.embedding IS NULL)
      ) c WHERE EXISTS (SELECT 1 FROM workspaces w WHERE w.id = c.ws);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER canonical_answers_changed_ins AFTER INSERT ON canonical_answers
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION verity_entries_changed();
--> statement-breakpoint
CREATE TRIGGER canonical_answers_changed_upd AFTER UPDATE ON canonical_answers
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION verity_entries_changed();
--> statement-breakpoint
CREATE TRIGGER canonical_answers_changed_del AFTER DELETE ON canonical_answers
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION verity_entries_changed();
--> statement-breakpoint
-- Chunks matter to the vector index once embedded; their text never changes (reprocessing makes new chunks).
CREATE FUNCTION verity_chunks_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO workspace_changes (workspace_id, kind)
      SELECT DISTINCT c.ws, c.kind FROM (
        SELECT workspace_id AS ws, 'chunks' AS kind FROM new_rows
        UNION SELECT workspace_id, 'vectors' FROM new_rows WHERE embedding IS NOT NULL
      ) c WHERE EXISTS (SELECT 1 FROM workspaces w WHERE w.id = c.ws);
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO workspace_changes (workspace_id, kind)
      SELECT DISTINCT c.ws, c.kind FROM (
        SELECT workspace_id AS ws, 'chunks' AS kind FROM old_rows
        UNION SELECT workspace_id, 'vectors' FROM old_rows WHERE embedding IS NOT NULL
      ) c WHERE EXISTS (SELECT 1 FROM workspaces w WHERE w.id = c.ws);
  ELSE
    INSERT INTO workspace_changes (workspace_id, kind)
      SELECT DISTINCT v.ws, 'vectors' FROM old_rows o JOIN new_rows n ON n.id = o.id,
        LATERAL (VALUES (o.workspace_id), (n.workspace_id)) AS v(ws)
      WHERE (o.workspace_id, o.embedding_model, o.embedding IS NULL)
          IS DISTINCT FROM (n.workspace_id, n.embedding_model, n.embedding IS NULL)
        AND EXISTS (SELECT 1 FROM workspaces w WHERE w.id = v.ws);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER document_chunks_changed_ins AFTER INSERT ON document_chunks
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION verity_chunks_changed();
--> statement-breakpoint
CREATE TRIGGER document_chunks_changed_upd AFTER UPDATE ON document_chunks
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION verity_chunks_changed();
--> statement-breakpoint
CREATE TRIGGER document_chunks_changed_del AFTER DELETE ON document_chunks
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION verity_chunks_changed();
