CREATE TABLE "canonical_answer_versions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"answer_id" uuid NOT NULL,
	"organization_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"question" text NOT NULL,
	"answer" text NOT NULL,
	"tags" text[] NOT NULL,
	"status" text NOT NULL,
	"confidence" integer,
	"source" text,
	"owner_id" uuid,
	"replaced_by" uuid,
	"replaced_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "canonical_answers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"workspace_id" uuid NOT NULL,
	"question" text NOT NULL,
	"question_norm" text NOT NULL,
	"answer" text NOT NULL,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"status" text NOT NULL,
	"confidence" integer,
	"source" text,
	"owner_id" uuid,
	"created_by" uuid,
	"last_verified_at" timestamp with time zone,
	"last_verified_by" uuid,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"search_vector" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('english', question), 'A') || setweight(to_tsvector('english', verity_tags_text(tags)), 'B') || setweight(to_tsvector('english', answer), 'C')) STORED NOT NULL
);
--> statement-breakpoint
ALTER TABLE "canonical_answer_versions" ADD CONSTRAINT "canonical_answer_versions_answer_id_canonical_answers_id_fk" FOREIGN KEY ("answer_id") REFERENCES "public"."canonical_answers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "canonical_answer_versions" ADD CONSTRAINT "canonical_answer_versions_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "canonical_answers" ADD CONSTRAINT "canonical_answers_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "canonical_answers" ADD CONSTRAINT "canonical_answers_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "canonical_answers" ADD CONSTRAINT "canonical_answers_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "canonical_answers" ADD CONSTRAINT "canonical_answers_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "canonical_answers" ADD CONSTRAINT "canonical_answers_last_verified_by_users_id_fk" FOREIGN KEY ("last_verified_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "canonical_answer_versions_answer_version_uq" ON "canonical_answer_versions" USING btree ("answer_id","version");--> statement-breakpoint
CREATE UNIQUE INDEX "canonical_answers_ws_question_uq" ON "canonical_answers" USING btree ("workspace_id","question_norm");--> statement-breakpoint
CREATE INDEX "canonical_answers_ws_status_idx" ON "canonical_answers" USING btree ("workspace_id","status","updated_at");--> statement-breakpoint
CREATE INDEX "canonical_answers_org_idx" ON "canonical_answers" USING btree ("organization_id");--> statement-breakpoint
CREATE INDEX "canonical_answers_search_idx" ON "canonical_answers" USING gin ("search_vector");--> statement-breakpoint
CREATE INDEX "canonical_answers_tags_idx" ON "canonical_answers" USING gin ("tags");--> statement-breakpoint
CREATE INDEX "canonical_answers_question_trgm_idx" ON "canonical_answers" USING gin ("question" gin_trgm_ops);