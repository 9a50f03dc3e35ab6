-- A domain claim now routes sign-ins only once its organization proves it holds the domain (a DNS TXT record):
-- several organizations may claim one domain until one of them verifies it. Claims made before this migration get a
-- random token of their own and start unverified, so a claim nobody proved (gmail.com, another company's domain)
-- stops sending people to the claimer's identity provider.
ALTER TABLE "sso_domains" DROP CONSTRAINT "sso_domains_pkey";--> statement-breakpoint
DROP INDEX "sso_domains_org_idx";--> statement-breakpoint
ALTER TABLE "sso_domains" ADD CONSTRAINT "sso_domains_organization_id_domain_pk" PRIMARY KEY("organization_id","domain");--> statement-breakpoint
ALTER TABLE "sso_domains" ADD COLUMN "verification_token" text DEFAULT replace(gen_random_uuid()::text, '-', '') NOT NULL;--> statement-breakpoint
ALTER TABLE "sso_domains" ADD COLUMN "verified_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "sso_domains_domain_idx" ON "sso_domains" USING btree ("domain");--> statement-breakpoint
CREATE UNIQUE INDEX "sso_domains_verified_uq" ON "sso_domains" USING btree ("domain") WHERE "sso_domains"."verified_at" is not null;
