import { eq } from 'drizzle-orm';
import { organizations, workspaces } from '../../db/schema';
import type { Tx } from '../../db/client';
import { writeAudit } from '../audit/service';
import { insertUser, type NewUser } from '../auth/insert-user';
import { DEFAULT_WORKSPACE_NAME } from '../../../common/constants';
import type { BrandProfile } from '../../../common/schemas/organizations';
import { newToken } from '../../tokens';

export const DEFAULT_BRAND_PROFILE: BrandProfile = {
  tone: 'professional',
  languageRules: '',
  boilerplate: '',
  disclaimers: '',
  bannedTokens: [],
};

export function slugify(name: string): string {
  const base = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 48);
  return base || 'org';
}

/** A new organization with its "Default" workspace and its first user as admin, in the caller's transaction. */
export async function createOrganizationWithAdmin(tx: Tx, input: NewUser & { organizationName: string }) {
  let slug = slugify(input.organizationName);
  const [taken] = await tx.select({ id: organizations.id }).from(organizations).where(eq(organizations.slug, slug));
  if (taken)
    slug = `${slug}-${
      newToken(4)
        .toLowerCase()
        .replace(/[^a-z0-9]/g, '')
        .slice(0, 5) || 'x'
    }`;
  const [org] = await tx
    .insert(organizations)
    .values({ name: input.organizationName, slug, brandProfile: DEFAULT_BRAND_PROFILE })
    .returning();
  if (!org) throw new Error('insert returned no organization');
  const [workspace] = await tx
    .insert(workspaces)
    .values({ organizationId: org.id, name: DEFAULT_WORKSPACE_NAME, description: null })
    .returning();
  if (!workspace) throw new Error('insert returned no workspace');
  const user = await insertUser(tx, org.id, input, 'admin');
  const base = { organizationId: org.id, userId: user.id };
  await writeAudit(tx, {
    ...base,
    action: 'organization_created',
    entityType: 'organization',
    entityId: org.id,
    details: { name: org.name },
  });
  await writeAudit(tx, {
    ...base,
    action: 'workspace_created',
    entityType: 'workspace',
    entityId: workspace.id,
    details: { name: workspace.name },
  });
  await writeAudit(tx, {
    ...base,
    action: 'user_registered',
    entityType: 'user',
    entityId: user.id,
    details: { role: 'admin' },
  });
  return { org, workspace, user };
}
