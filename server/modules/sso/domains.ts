import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { Resolver } from 'node:dns/promises';
import { and, asc, eq, inArray, isNotNull, isNull, ne, sql } from 'drizzle-orm';
import { ssoDomains, users } from '../../db/schema';
import { inTransaction, type DbOrTx, type Tx } from '../../db/client';
import { AppError, notFound } from '../../errors';
import type { UserCtx } from '../../context';
import { audit, writeAudit } from '../audit/service';
import { isUniqueViolation } from '../auth/unique-user';
import { emailDomain } from '../../../common/schemas/sso';
import {
  DOMAIN_CHALLENGE_LABEL,
  DOMAIN_VERIFICATION_PREFIX,
  type SsoDomainView,
} from '../../../common/schemas/sso-domains';

/**
 * Domains of public and free mail services (gmail.com, outlook.com, yahoo.com… about 8,700), from the maintained
 * `email-providers` package: anyone can have an address there, so no organization may route them to its provider.
 */
// Read at run time rather than imported: the compiled server keeps packages outside its bundle, and Node then needs
// an import attribute for JSON that the build's target drops.
const PUBLIC_MAIL_DOMAINS: ReadonlySet<string> = new Set(
  (createRequire(import.meta.url)('email-providers/all.json') as unknown[]).filter((d) => typeof d === 'string'),
);

export function isPublicMailDomain(domain: string): boolean {
  return PUBLIC_MAIL_DOMAINS.has(domain);
}

type ClaimRow = typeof ssoDomains.$inferSelect;

const recordValue = (token: string) => `${DOMAIN_VERIFICATION_PREFIX}${token}`;

export function presentDomainClaim(row: ClaimRow): SsoDomainView {
  return {
    domain: row.domain,
    verified: row.verifiedAt !== null,
    verifiedAt: row.verifiedAt?.toISOString() ?? null,
    record: { name: `${DOMAIN_CHALLENGE_LABEL}.${row.domain}`, value: recordValue(row.verificationToken) },
  };
}

/** The organization's claims, verified or not, by domain. */
export async function domainClaimsOf(db: DbOrTx, organizationId: string): Promise<ClaimRow[]> {
  return db
    .select()
    .from(ssoDomains)
    .where(eq(ssoDomains.organizationId, organizationId))
    .orderBy(asc(ssoDomains.domain));
}

/** The organization that verified the domain, if one did: the only claim that routes sign-ins. */
export async function verifiedDomainOwner(db: DbOrTx, domain: string): Promise<string | null> {
  const [row] = await db
    .select({ organizationId: ssoDomains.organizationId })
    .from(ssoDomains)
    .where(and(eq(ssoDomains.domain, domain), isNotNull(ssoDomains.verifiedAt)))
    .limit(1);
  return row?.organizationId ?? null;
}

/**
 * Refuses an account for `email` in `organizationId` (null: an organization being created) when another
 * organization verified the address's domain: its people are that organization's to create. The SSO sign-in passes
 * its own refusal; the other paths get a 409 (SCIM turns it into `uniqueness`).
 */
export async function assertAddressOpenTo(
  db: DbOrTx,
  organizationId: string | null,
  email: string,
  refuse: (domain: string) => Error = domainClaimedElsewhere,
): Promise<void> {
  const domain = emailDomain(email);
  const owner = await verifiedDomainOwner(db, domain);
  if (owner !== null && owner !== organizationId) throw refuse(domain);
}

const domainClaimedElsewhere = (domain: string) =>
  new AppError(
    409,
    'domain_claimed',
    `${domain} is an SSO domain another organization has verified, so its addresses have accounts only there. Use another address, or ask that organization's admin to invite this person.`,
  );

const domainIssue = (domain: string, message: string) => ({
  in: 'body',
  issues: [{ field: 'domains', message: `${domain}: ${message}` }],
});

const domainPublic = (domain: string) =>
  new AppError(
    400,
    'domain_public',
    `${domain} is the domain of a public e-mail service: anyone can have an address there, so it cannot sign in to one organization. Remove it from the list and add your organization's own domain.`,
    domainIssue(domain, 'Public e-mail domain'),
  );

export const domainTaken = (domains: string[]) =>
  new AppError(
    409,
    'domain_taken',
    `${domains.join(', ')} already signs in to another organization. Remove it from the list.`,
    { in: 'body', issues: [{ field: 'domains', message: 'Taken by another organization' }] },
  );

const domainInUse = (domain: string) =>
  new AppError(
    409,
    'domain_in_use',
    `People of another organization use addresses at ${domain} in Verity, so it cannot sign in here. Remove it from the list; if your organization owns the domain, contact Verity's operators.`,
    domainIssue(domain, 'Used by another organization'),
  );

/** Whether live accounts of another organization have addresses at the domain. */
async function usedElsewhere(tx: DbOrTx, organizationId: string, domain: string): Promise<boolean> {
  // The domain passed the schema's pattern (letters, digits, dots, hyphens): nothing in it is a LIKE wildcard.
  const [row] = await tx
    .select({ id: users.id })
    .from(users)
    .where(
      and(
        ne(users.organizationId, organizationId),
        isNull(users.deletedAt),
        sql`lower(${users.email}) like ${`%@${domain}`}`,
      ),
    )
    .limit(1);
  return !!row;
}

/**
 * Makes the organization's claims the given list. Kept domains keep their token and verification; a new one starts
 * unverified with a fresh token. Refused: a public mail domain (400), one another organization verified (409
 * `domain_taken`), a new one that live accounts of another organization use (409 `domain_in_use`). An unverified
 * claim of another organization does not block: the first to verify wins.
 */
export async function replaceDomainClaims(tx: Tx, ctx: UserCtx, domains: string[]): Promise<ClaimRow[]> {
  const publicOne = domains.find(isPublicMailDomain);
  if (publicOne) throw domainPublic(publicOne);
  const current = await domainClaimsOf(tx, ctx.organizationId);
  const held = new Set(current.map((c) => c.domain));
  const added = domains.filter((d) => !held.has(d));
  if (added.length > 0) {
    const taken = await tx
      .select({ domain: ssoDomains.domain })
      .from(ssoDomains)
      .where(
        and(
          inArray(ssoDomains.domain, added),
          ne(ssoDomains.organizationId, ctx.organizationId),
          isNotNull(ssoDomains.verifiedAt),
        ),
      );
    if (taken.length > 0) throw domainTaken(taken.map((t) => t.domain));
    for (const domain of added) {
      if (await usedElsewhere(tx, ctx.organizationId, domain)) throw domainInUse(domain);
    }
  }
  const removed = current.filter((c) => !domains.includes(c.domain)).map((c) => c.domain);
  if (removed.length > 0) {
    await tx
      .delete(ssoDomains)
      .where(and(eq(ssoDomains.organizationId, ctx.organizationId), inArray(ssoDomains.domain, removed)));
  }
  if (added.length > 0) {
    await tx.insert(ssoDomains).values(
      added.map((domain) => ({
        domain,
        organizationId: ctx.organizationId,
        verificationToken: randomBytes(16).toString('hex'),
      })),
    );
  }
  const auditCtx = { ...ctx, db: tx };
  for (const domain of added) await audit(auditCtx, 'sso_domain_claimed', 'sso_domain', null, { domain });
  for (const domain of removed) await audit(auditCtx, 'sso_domain_released', 'sso_domain', null, { domain });
  return domainClaimsOf(tx, ctx.organizationId);
}

type Lookup = { found: string[] } | { unreachable: string };

/** The TXT strings at `name` (each record's chunks joined, RFC 7208 §3.3); none when the name or record is absent. */
async function txtAt(resolver: Resolver, name: string): Promise<Lookup> {
  try {
    const records = await resolver.resolveTxt(name);
    return { found: records.map((chunks) => chunks.join('')) };
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'ENOTFOUND' || code === 'ENODATA') return { found: [] };
    return { unreachable: code ?? 'error' };
  }
}

const verificationFailed = (code: string, message: string) => new AppError(400, code, message);

/**
 * Looks for the claim's TXT record at `_verity-challenge.<domain>` and at the domain itself, through the resolver
 * DNS_SERVERS names (the system's by default). Throws a sentence the admin can act on when it is not there.
 */
async function assertRecordPublished(dnsServers: string[] | null, claim: ClaimRow): Promise<void> {
  const resolver = new Resolver({ timeout: 3000, tries: 2 });
  if (dnsServers) resolver.setServers(dnsServers);
  const view = presentDomainClaim(claim);
  const lookups = await Promise.all([txtAt(resolver, view.record.name), txtAt(resolver, claim.domain)]);
  const found = lookups.flatMap((l) => ('found' in l ? l.found : []));
  if (found.includes(view.record.value)) return;
  if (lookups.every((l) => 'unreachable' in l)) {
    throw new AppError(
      503,
      'dns_unavailable',
      `Verity could not ask DNS about ${claim.domain} just now. Try Verify again in a few minutes.`,
    );
  }
  if (found.some((v) => v.startsWith(DOMAIN_VERIFICATION_PREFIX))) {
    throw verificationFailed(
      'domain_record_mismatch',
      `The TXT record found for ${claim.domain} holds another token. Publish exactly ${view.record.value} at ${view.record.name}, then press Verify again.`,
    );
  }
  throw verificationFailed(
    'domain_record_missing',
    `No TXT record ${view.record.value} was found at ${view.record.name} or ${claim.domain}. Publish it at your DNS host, wait for it to appear (often a few minutes), then press Verify again.`,
  );
}

/**
 * Verifies the organization's claim of `domain` by its DNS TXT record. The first organization to verify a domain
 * holds it: the unique index refuses a second (409), and the other organizations' unverified claims of it are
 * dropped (audited in their logs), so their admins see it gone rather than waiting on a record they cannot publish.
 */
export async function verifyDomainClaim(ctx: UserCtx, dnsServers: string[] | null, domain: string): Promise<void> {
  const [claim] = await ctx.db
    .select()
    .from(ssoDomains)
    .where(and(eq(ssoDomains.organizationId, ctx.organizationId), eq(ssoDomains.domain, domain)));
  if (!claim) throw notFound('SSO domain');
  if (claim.verifiedAt) return;
  // Claims made before these rules (migrated unverified) are held to them too.
  if (isPublicMailDomain(domain)) throw domainPublic(domain);
  if (await verifiedDomainOwner(ctx.db, domain)) throw domainTaken([domain]);
  await assertRecordPublished(dnsServers, claim);
  try {
    await inTransaction(ctx.db, async (tx) => {
      const [verified] = await tx
        .update(ssoDomains)
        .set({ verifiedAt: new Date() })
        .where(
          and(
            eq(ssoDomains.organizationId, ctx.organizationId),
            eq(ssoDomains.domain, domain),
            // The token checked is still the claim's: removed and claimed again meanwhile means a new token.
            eq(ssoDomains.verificationToken, claim.verificationToken),
          ),
        )
        .returning();
      if (!verified) throw notFound('SSO domain');
      const dropped = await tx
        .delete(ssoDomains)
        .where(
          and(
            eq(ssoDomains.domain, domain),
            ne(ssoDomains.organizationId, ctx.organizationId),
            isNull(ssoDomains.verifiedAt),
          ),
        )
        .returning({ organizationId: ssoDomains.organizationId });
      await audit({ ...ctx, db: tx }, 'sso_domain_verified', 'sso_domain', null, {
        domain,
        ...(dropped.length > 0 && { droppedClaims: dropped.length }),
      });
      for (const other of dropped) {
        await writeAudit(tx, {
          organizationId: other.organizationId,
          userId: null,
          action: 'sso_domain_claim_dropped',
          entityType: 'sso_domain',
          details: { domain, reason: 'verified by another organization' },
        });
      }
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw domainTaken([domain]);
    throw err;
  }
}
