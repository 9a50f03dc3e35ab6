ALTER TABLE "canonical_answers" ADD COLUMN "embedding" real[];--> statement-breakpoint
ALTER TABLE "canonical_answers" ADD COLUMN "embedding_model" text;--> statement-breakpoint
ALTER TABLE "document_chunks" ADD COLUMN "embedding_model" text;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "sso_config" jsonb;