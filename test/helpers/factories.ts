import { desc, eq } from 'drizzle-orm';

import type { Role } from '../../common/roles';
import { invitations, mailOutbox, organizations } from '../../server/db/schema';
import type { TestApp } from './app';
import { call, sessionCookieFrom, type Session } from './api';
import { waitUntil } from './wait';

let seq = 0;
/** Unique per process and per run, so tests sharing one PostgreSQL database never collide. */
export function unique(prefix: string): string {
  seq += 1;
  return `${prefix}${process.pid.toString(36)}${Date.now().toString(36).slice(-4)}${seq}`;
}

export type TestUser = Session & {
  id: string;
  username: string;
  email: string;
  password: string;
  role: Role;
  organizationId: string;
};

/** Signs up a new organization through the API; its first user is the admin. */
export async function createOrg(app: TestApp, overrides: { organizationName?: string } = {}) {
  const username = unique('admin');
  const password = 'correct-horse';
  const email = `${username}@example.com`;
  const organizationName = overrides.organizationName ?? unique('Org ');
  const res = await call(app, 'POST', '/api/auth/register', { body: { username, email, password, organizationName } });
  if (res.statusCode !== 201) throw new Error(`register failed: ${res.statusCode} ${res.body}`);
  const cookie = sessionCookieFrom(res);
  const ws = await call(app, 'GET', '/api/workspaces', { as: { cookie } });
  const workspaceId: string = ws.data[0].id;
  const admin: TestUser = {
    id: res.data.user.id,
    username,
    email,
    password,
    role: 'admin',
    organizationId: res.data.user.organizationId,
    cookie,
    workspaceId,
  };
  return { admin, organizationId: admin.organizationId, workspaceId, organizationName };
}

/** Invites a user of the given role and signs them up through the invitation link, as a real admin would. */
export async function createUser(app: TestApp, admin: TestUser, role: Role): Promise<TestUser> {
  const username = unique(role);
  const email = `${username}@example.com`;
  const password = 'correct-horse';
  const inv = await call(app, 'POST', '/api/organizations/invitations', { as: admin, body: { email, role } });
  if (inv.statusCode !== 201) throw new Error(`invite failed: ${inv.statusCode} ${inv.body}`);
  const res = await call(app, 'POST', '/api/auth/register', {
    body: { username, email, password, invitationToken: inv.data.token },
  });
  if (res.statusCode !== 201) throw new Error(`invited register failed: ${res.statusCode} ${res.body}`);
  return {
    id: res.data.user.id,
    username,
    email,
    password,
    role,
    organizationId: admin.organizationId,
    cookie: sessionCookieFrom(res),
    workspaceId: admin.workspaceId,
  };
}

/** A viewer's invitation for `email` whose link expired a second ago (its expiry moved into the past). */
export async function createExpiredInvitation(app: TestApp, admin: TestUser, email: string) {
  const inv = await call(app, 'POST', '/api/organizations/invitations', { as: admin, body: { email, role: 'viewer' } });
  await app.database.db
    .update(invitations)
    .set({ expiresAt: new Date(Date.now() - 1000) })
    .where(eq(invitations.id, inv.data.id));
  return inv;
}

export type Tenant = Awaited<ReturnType<typeof createTenant>>;

/** An organization with one user of every role. */
export async function createTenant(app: TestApp) {
  const org = await createOrg(app);
  const manager = await createUser(app, org.admin, 'manager');
  const contributor = await createUser(app, org.admin, 'contributor');
  const viewer = await createUser(app, org.admin, 'viewer');
  return { ...org, users: { admin: org.admin, manager, contributor, viewer } };
}

/** Two organizations with users of every role: the basis of every tenant-isolation test. */
export async function createTenantPair(app: TestApp) {
  const [a, b] = [await createTenant(app), await createTenant(app)];
  return { a, b };
}

/** The latest mail the dev outbox received for an address. */
export async function lastMailTo(app: TestApp, to: string) {
  const [mail] = await app.database.db
    .select()
    .from(mailOutbox)
    .where(eq(mailOutbox.to, to))
    .orderBy(desc(mailOutbox.createdAt))
    .limit(1);
  return mail;
}

/**
 * Runs `send` and waits for the mail it causes (mail is sent without holding up the API's answer).
 * Returns the link the mail carries.
 */
export async function linkFromNextMail(app: TestApp, to: string, send: () => Promise<unknown>): Promise<URL> {
  const known = new Set(
    (await app.database.db.select().from(mailOutbox).where(eq(mailOutbox.to, to))).map((m) => m.id),
  );
  await send();
  return waitUntil(async () => {
    const mails = await app.database.db.select().from(mailOutbox).where(eq(mailOutbox.to, to));
    const fresh = mails.find((m) => !known.has(m.id));
    const link = fresh && /https?:\/\/\S+/.exec(fresh.text)?.[0];
    if (!link) throw new Error(`no new mail to ${to} yet`);
    return new URL(link);
  });
}

/** A library entry made through the API (approved unless the overrides say otherwise). */
export async function createAnswer(
  app: TestApp,
  as: Session,
  overrides: { question?: string; answer?: string; tags?: string[]; status?: 'approved' | 'draft' | 'archived' } = {},
) {
  const body = {
    question: overrides.question ?? `${unique('Do you test question ')}?`,
    answer: overrides.answer ?? 'Yes. This is a sufficiently long approved answer.',
    tags: overrides.tags ?? [],
    status: overrides.status ?? 'approved',
  };
  const res = await call(app, 'POST', '/api/canonical-answers', { as, body });
  if (res.statusCode !== 201) throw new Error(`create answer failed: ${res.statusCode} ${res.body}`);
  return res.data as { id: string; question: string; answer: string; status: string; tags: string[] };
}

/** The organization's slug as stored (sign-up derives it from the name), for calls that name the organization. */
export async function organizationSlug(app: TestApp, organizationId: string): Promise<string> {
  const [row] = await app.database.db
    .select({ slug: organizations.slug })
    .from(organizations)
    .where(eq(organizations.id, organizationId));
  if (!row) throw new Error(`no organization ${organizationId}`);
  return row.slug;
}
