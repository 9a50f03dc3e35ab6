-- The foreign key's check locked the workspace row from every chunk and entry write (through 0018's triggers), so
-- deleting a workspace could deadlock with the embedding sweep; deleting a workspace now deletes its rows itself.
ALTER TABLE "workspace_changes" DROP CONSTRAINT "workspace_changes_workspace_id_workspaces_id_fk";
