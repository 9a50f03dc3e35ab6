ALTER TABLE "assessment_batches" ADD COLUMN "prefilled_answers" text DEFAULT 'keep' NOT NULL;--> statement-breakpoint
ALTER TABLE "assessment_questions" ADD COLUMN "existing_answer" text;--> statement-breakpoint
ALTER TABLE "assessment_questions" ADD COLUMN "answer_hint" text;--> statement-breakpoint
ALTER TABLE "assessment_questions" ADD COLUMN "existing_comment" text;