CREATE TABLE "assessment_batches" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"workspace_id" uuid NOT NULL,
	"created_by" uuid,
	"session_id" uuid,
	"name" text NOT NULL,
	"description" text,
	"status" text DEFAULT 'processing' NOT NULL,
	"error" text,
	"total_questions" integer NOT NULL,
	"metadata" jsonb NOT NULL,
	"source_format" text NOT NULL,
	"storage_key" text,
	"mapping" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "assessment_questions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"batch_id" uuid NOT NULL,
	"organization_id" uuid NOT NULL,
	"workspace_id" uuid NOT NULL,
	"order_index" integer NOT NULL,
	"question" text NOT NULL,
	"sheet" text,
	"row_number" integer,
	"control_id" text,
	"section" text,
	"allowed_values" text[],
	"answer" text,
	"answer_type" text,
	"confidence" integer,
	"sources" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"error_message" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"claimed_at" timestamp with time zone,
	"answered_at" timestamp with time zone,
	"answer_count" integer DEFAULT 0 NOT NULL,
	"edited_by" uuid,
	"reviewed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "assessment_batches" ADD CONSTRAINT "assessment_batches_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assessment_batches" ADD CONSTRAINT "assessment_batches_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assessment_batches" ADD CONSTRAINT "assessment_batches_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assessment_batches" ADD CONSTRAINT "assessment_batches_session_id_qa_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."qa_sessions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assessment_questions" ADD CONSTRAINT "assessment_questions_batch_id_assessment_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."assessment_batches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assessment_questions" ADD CONSTRAINT "assessment_questions_edited_by_users_id_fk" FOREIGN KEY ("edited_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "assessment_batches_ws_created_idx" ON "assessment_batches" USING btree ("workspace_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "assessment_questions_batch_order_uq" ON "assessment_questions" USING btree ("batch_id","order_index");--> statement-breakpoint
CREATE INDEX "assessment_questions_waiting_idx" ON "assessment_questions" USING btree ("created_at","order_index") WHERE "assessment_questions"."status" in ('pending', 'processing');--> statement-breakpoint
CREATE INDEX "assessment_questions_batch_waiting_idx" ON "assessment_questions" USING btree ("batch_id") WHERE "assessment_questions"."status" in ('pending', 'processing');