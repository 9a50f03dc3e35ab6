CREATE TABLE "upload_links" (
	"storage_key" text PRIMARY KEY NOT NULL,
	"organization_id" uuid NOT NULL,
	"url_hash" text NOT NULL,
	"state" text DEFAULT 'issued' NOT NULL,
	"declared_size" integer,
	"size" integer,
	"sha256" text,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "assessment_batches" ADD COLUMN "file_size" integer;--> statement-breakpoint
ALTER TABLE "assessment_batches" ADD COLUMN "file_sha256" text;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "sha256" text;--> statement-breakpoint
ALTER TABLE "upload_links" ADD CONSTRAINT "upload_links_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "upload_links_org_state_idx" ON "upload_links" USING btree ("organization_id","state");--> statement-breakpoint
CREATE INDEX "upload_links_expires_idx" ON "upload_links" USING btree ("expires_at");