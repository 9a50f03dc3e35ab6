DROP INDEX "document_chunks_ws_idx";--> statement-breakpoint
CREATE INDEX "document_chunks_ws_id_idx" ON "document_chunks" USING btree ("workspace_id","id");