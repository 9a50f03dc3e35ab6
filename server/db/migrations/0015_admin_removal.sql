ALTER TABLE "users" ADD COLUMN "removed_by_admin_at" timestamp with time zone;--> statement-breakpoint
-- People an admin removed before this column existed, known from the audit log: the latest of their removal, SCIM
-- deactivation or reactivation tells who took them out. A removal also clears the password, as it now does.
UPDATE "users" u SET "removed_by_admin_at" = u."deleted_at", "password_hash" = NULL
WHERE u."deleted_at" IS NOT NULL
  AND (
    SELECT a."action" FROM "audit_logs" a
    WHERE a."entity_type" = 'user' AND a."entity_id" = u."id"::text
      AND a."action" IN ('user_removed', 'scim_user_deactivated', 'scim_user_reactivated')
    ORDER BY a."seq" DESC LIMIT 1
  ) = 'user_removed';
