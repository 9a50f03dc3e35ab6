CREATE TABLE "email_changes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"new_email" text NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "email_changes_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "qa_inflight" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"organization_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "qa_usage" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"organization_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"questions" integer NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
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
ALTER TABLE "assessment_batches" ADD COLUMN "last_claimed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "sha256" text;--> statement-breakpoint
ALTER TABLE "invitations" ADD COLUMN "api_token_id" uuid;--> statement-breakpoint
ALTER TABLE "email_changes" ADD CONSTRAINT "email_changes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "upload_links" ADD CONSTRAINT "upload_links_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "email_changes_user_idx" ON "email_changes" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "qa_inflight_org_idx" ON "qa_inflight" USING btree ("organization_id");--> statement-breakpoint
CREATE INDEX "qa_inflight_user_idx" ON "qa_inflight" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "qa_usage_org_at_idx" ON "qa_usage" USING btree ("organization_id","at");--> statement-breakpoint
CREATE INDEX "qa_usage_user_at_idx" ON "qa_usage" USING btree ("user_id","at");--> statement-breakpoint
CREATE INDEX "upload_links_org_state_idx" ON "upload_links" USING btree ("organization_id","state");--> statement-breakpoint
CREATE INDEX "upload_links_expires_idx" ON "upload_links" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "assessment_batches_processing_idx" ON "assessment_batches" USING btree ("organization_id") WHERE "assessment_batches"."status" = 'processing';