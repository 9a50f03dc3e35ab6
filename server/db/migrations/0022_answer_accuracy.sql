CREATE TABLE "review_outcomes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"workspace_id" uuid NOT NULL,
	"batch_id" uuid NOT NULL,
	"question_id" uuid NOT NULL,
	"outcome" text NOT NULL,
	"edit_distance" real,
	"confidence" integer NOT NULL,
	"answer_type" text NOT NULL,
	"topic" text,
	"library_entry_id" uuid,
	"document_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"reviewed_by" uuid,
	"reviewed_at" timestamp with time zone NOT NULL,
	"review_week" date GENERATED ALWAYS AS ((date_trunc('week', "reviewed_at" at time zone 'UTC'))::date) STORED NOT NULL
);
--> statement-breakpoint
ALTER TABLE "assessment_questions" ADD COLUMN "machine_answer" text;--> statement-breakpoint
ALTER TABLE "assessment_questions" ADD COLUMN "machine_answer_type" text;--> statement-breakpoint
ALTER TABLE "assessment_questions" ADD COLUMN "machine_confidence" integer;--> statement-breakpoint
ALTER TABLE "assessment_questions" ADD COLUMN "machine_sources" jsonb;--> statement-breakpoint
ALTER TABLE "review_outcomes" ADD CONSTRAINT "review_outcomes_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_outcomes" ADD CONSTRAINT "review_outcomes_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_outcomes" ADD CONSTRAINT "review_outcomes_batch_id_assessment_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."assessment_batches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_outcomes" ADD CONSTRAINT "review_outcomes_question_id_assessment_questions_id_fk" FOREIGN KEY ("question_id") REFERENCES "public"."assessment_questions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_outcomes" ADD CONSTRAINT "review_outcomes_reviewed_by_users_id_fk" FOREIGN KEY ("reviewed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "review_outcomes_question_uq" ON "review_outcomes" USING btree ("question_id");--> statement-breakpoint
CREATE INDEX "review_outcomes_ws_reviewed_idx" ON "review_outcomes" USING btree ("organization_id","workspace_id","reviewed_at","confidence","outcome","answer_type","topic","review_week");--> statement-breakpoint
CREATE INDEX "review_outcomes_batch_idx" ON "review_outcomes" USING btree ("batch_id");--> statement-breakpoint
-- An answer whose origin is still 'machine' is the engine's own text: it is its own snapshot. A person's answer has
-- lost the engine's (answer-edit.ts cleared it before this migration), so it stays without one rather than guessed.
UPDATE "assessment_questions" SET
  "machine_answer" = "answer",
  "machine_answer_type" = "answer_type",
  "machine_confidence" = "confidence",
  "machine_sources" = "sources"
WHERE "answer_origin" = 'machine' AND "answer" IS NOT NULL;--> statement-breakpoint
-- Back-fill (issue 36): an approved answer still of the machine's origin was approved as the engine wrote it, so its
-- outcome is 'unchanged'. Every other reviewed question is left out: after a person's edit nothing tells what the
-- engine had said. The topic is not recorded for these (the taxonomy runs in the application, not in SQL).
INSERT INTO "review_outcomes" ("organization_id", "workspace_id", "batch_id", "question_id", "outcome",
  "edit_distance", "confidence", "answer_type", "topic", "library_entry_id", "document_ids", "reviewed_by",
  "reviewed_at")
SELECT q."organization_id", q."workspace_id", q."batch_id", q."id", 'unchanged', 0, q."confidence", q."answer_type",
  NULL,
  (SELECT (s->>'canonicalAnswerId')::uuid FROM jsonb_array_elements(q."sources") s
    WHERE s->>'canonicalAnswerId' ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' LIMIT 1),
  ARRAY(SELECT DISTINCT (s->>'documentId')::uuid FROM jsonb_array_elements(q."sources") s
    WHERE s->>'documentId' ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'),
  q."reviewed_by", COALESCE(q."reviewed_at", q."updated_at")
FROM "assessment_questions" q
WHERE q."review_state" = 'approved' AND q."answer_origin" = 'machine' AND q."answer" IS NOT NULL
  AND q."answer_type" IS NOT NULL AND q."confidence" IS NOT NULL AND jsonb_typeof(q."sources") = 'array';
