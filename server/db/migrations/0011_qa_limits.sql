CREATE TABLE "qa_inflight" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "qa_usage" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"questions" integer NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "qa_inflight_org_idx" ON "qa_inflight" USING btree ("organization_id");--> statement-breakpoint
CREATE INDEX "qa_inflight_user_idx" ON "qa_inflight" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "qa_usage_org_at_idx" ON "qa_usage" USING btree ("organization_id","at");--> statement-breakpoint
CREATE INDEX "qa_usage_user_at_idx" ON "qa_usage" USING btree ("user_id","at");