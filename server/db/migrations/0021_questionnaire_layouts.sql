CREATE TABLE "questionnaire_layouts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"fingerprint" text NOT NULL,
	"sheet_names_key" text NOT NULL,
	"mapping" jsonb NOT NULL,
	"saved_by" uuid,
	"saved_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "questionnaire_layouts" ADD CONSTRAINT "questionnaire_layouts_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "questionnaire_layouts" ADD CONSTRAINT "questionnaire_layouts_saved_by_users_id_fk" FOREIGN KEY ("saved_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "questionnaire_layouts_org_fingerprint_uq" ON "questionnaire_layouts" USING btree ("organization_id","fingerprint");--> statement-breakpoint
CREATE INDEX "questionnaire_layouts_org_names_idx" ON "questionnaire_layouts" USING btree ("organization_id","sheet_names_key");