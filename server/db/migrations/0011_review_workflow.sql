CREATE TABLE "library_suggestions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"workspace_id" uuid NOT NULL,
	"question" text NOT NULL,
	"answer" text NOT NULL,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"suggested_by" uuid,
	"source_batch_id" uuid,
	"status" text DEFAULT 'pending' NOT NULL,
	"rejection_reason" text,
	"decided_by" uuid,
	"decided_at" timestamp with time zone,
	"canonical_answer_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "assessment_batches" ADD COLUMN "due_on" date;--> statement-breakpoint
ALTER TABLE "assessment_questions" ADD COLUMN "answer_origin" text;--> statement-breakpoint
ALTER TABLE "assessment_questions" ADD COLUMN "review_state" text DEFAULT 'needs_answer' NOT NULL;--> statement-breakpoint
ALTER TABLE "assessment_questions" ADD COLUMN "reviewed_by" uuid;--> statement-breakpoint
ALTER TABLE "assessment_questions" ADD COLUMN "assignee_id" uuid;--> statement-breakpoint
ALTER TABLE "assessment_questions" ADD COLUMN "due_on" date;--> statement-breakpoint
ALTER TABLE "assessment_questions" ADD COLUMN "assigned_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "assessment_questions" ADD COLUMN "overdue_notified_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "assessment_questions" ADD COLUMN "library_entry_id" uuid;--> statement-breakpoint
ALTER TABLE "assessment_questions" ADD COLUMN "library_suggestion_id" uuid;--> statement-breakpoint
ALTER TABLE "canonical_answers" ADD COLUMN "review_interval_days" integer DEFAULT 365 NOT NULL;--> statement-breakpoint
ALTER TABLE "library_suggestions" ADD CONSTRAINT "library_suggestions_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "library_suggestions" ADD CONSTRAINT "library_suggestions_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "library_suggestions" ADD CONSTRAINT "library_suggestions_suggested_by_users_id_fk" FOREIGN KEY ("suggested_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "library_suggestions" ADD CONSTRAINT "library_suggestions_source_batch_id_assessment_batches_id_fk" FOREIGN KEY ("source_batch_id") REFERENCES "public"."assessment_batches"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "library_suggestions" ADD CONSTRAINT "library_suggestions_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "library_suggestions" ADD CONSTRAINT "library_suggestions_canonical_answer_id_canonical_answers_id_fk" FOREIGN KEY ("canonical_answer_id") REFERENCES "public"."canonical_answers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "library_suggestions_ws_status_idx" ON "library_suggestions" USING btree ("workspace_id","status","created_at");--> statement-breakpoint
CREATE INDEX "library_suggestions_org_idx" ON "library_suggestions" USING btree ("organization_id");--> statement-breakpoint
ALTER TABLE "assessment_questions" ADD CONSTRAINT "assessment_questions_reviewed_by_users_id_fk" FOREIGN KEY ("reviewed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assessment_questions" ADD CONSTRAINT "assessment_questions_assignee_id_users_id_fk" FOREIGN KEY ("assignee_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assessment_questions" ADD CONSTRAINT "assessment_questions_library_entry_id_canonical_answers_id_fk" FOREIGN KEY ("library_entry_id") REFERENCES "public"."canonical_answers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assessment_questions" ADD CONSTRAINT "assessment_questions_library_suggestion_id_library_suggestions_id_fk" FOREIGN KEY ("library_suggestion_id") REFERENCES "public"."library_suggestions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "assessment_questions_assignee_idx" ON "assessment_questions" USING btree ("assignee_id","due_on") WHERE "assessment_questions"."assignee_id" is not null;--> statement-breakpoint
-- Review states replace the question status 'approved' (a question's status is now only the worker's progress).
-- Only a manager or admin could approve a person's answer, so those stay approved; a machine answer marked approved
-- may have been accepted by a contributor, so it goes to a reviewer (in review) rather than counting as approved.
-- A person's answer loses the engine's confidence and sources, which never described it.
UPDATE "assessment_questions" SET
  "review_state" = CASE
    WHEN "status" = 'approved' AND "edited_by" IS NOT NULL THEN 'approved'
    WHEN "status" = 'approved' THEN 'in_review'
    WHEN "answer" IS NULL OR "answer_type" IS NULL OR "answer_type" = 'unknown' THEN 'needs_answer'
    ELSE 'drafted' END,
  "answer_origin" = CASE
    WHEN "edited_by" IS NOT NULL THEN 'person'
    WHEN "answer" IS NOT NULL THEN 'machine' END,
  "confidence" = CASE WHEN "edited_by" IS NOT NULL THEN NULL ELSE "confidence" END,
  "sources" = CASE WHEN "edited_by" IS NOT NULL THEN '[]'::jsonb ELSE "sources" END,
  "status" = CASE WHEN "status" = 'approved' THEN 'completed' ELSE "status" END;
