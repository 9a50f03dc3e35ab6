import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canonicalAnswers } from '../server/db/schema';
import { staleEntryIds } from '../server/modules/knowledge/freshness';
import type { TenantCtx } from '../server/context';
import { createTestApp, type TestApp } from './helpers/app';
import { call } from './helpers/api';
import { createAnswer, createTenant, createTenantPair, type Tenant, type TestUser } from './helpers/factories';

let app: TestApp;
let t: Tenant;
beforeAll(async () => {
  app = await createTestApp({ worker: false });
  t = await createTenant(app);
});
afterAll(() => app.close());

const DAY_MS = 24 * 3600_000;
const answer = 'Yes. Backups are encrypted with AES-256 and tested monthly.';

/** Moves an entry's last verification (and creation) `days` into the past, as if time had passed. */
async function ageEntry(id: string, days: number, opts: { neverVerified?: boolean } = {}) {
  const then = new Date(Date.now() - days * DAY_MS);
  await app.database.db
    .update(canonicalAnswers)
    .set({ createdAt: then, lastVerifiedAt: opts.neverVerified ? null : then })
    .where(eq(canonicalAnswers.id, id));
}

async function entry(as: TestUser, id: string) {
  const res = await call(app, 'GET', `/api/canonical-answers/${id}`, { as });
  expect(res.statusCode, res.body).toBe(200);
  return res.data;
}

const ids = (res: { data: Array<{ id: string }> }) => res.data.map((x) => x.id).sort();

describe('an approved entry past its review interval needs re-verification', () => {
  it('is fresh for 365 days by default, flagged after, and fresh again once verified', async () => {
    const org = await createTenant(app);
    const a = await createAnswer(app, org.admin, { answer });
    const fresh = await entry(org.admin, a.id);
    expect(fresh).toMatchObject({ reviewIntervalDays: 365, needsReverification: false });
    expect(Date.parse(fresh.verifyBy) - Date.parse(fresh.lastVerifiedAt)).toBe(365 * DAY_MS);

    await ageEntry(a.id, 366);
    const stale = await entry(org.admin, a.id);
    expect(stale.needsReverification).toBe(true);
    expect(Date.parse(stale.verifyBy)).toBeLessThan(Date.now());

    const verified = await call(app, 'POST', `/api/canonical-answers/${a.id}/verify`, { as: org.users.manager });
    expect(verified.data).toMatchObject({ needsReverification: false, lastVerifiedBy: { id: org.users.manager.id } });
  });

  it('counts from the creation date when nobody ever verified it; drafts and archived entries are never flagged', async () => {
    const org = await createTenant(app);
    const approved = await createAnswer(app, org.admin);
    const draft = await createAnswer(app, org.admin, { status: 'draft' });
    const archived = await createAnswer(app, org.admin, { status: 'archived' });
    await ageEntry(approved.id, 400, { neverVerified: true });
    await ageEntry(draft.id, 400, { neverVerified: true });
    await ageEntry(archived.id, 400);
    expect(await entry(org.admin, approved.id)).toMatchObject({ needsReverification: true, lastVerifiedAt: null });
    expect(await entry(org.admin, draft.id)).toMatchObject({ needsReverification: false, verifyBy: null });
    expect(await entry(org.admin, archived.id)).toMatchObject({ needsReverification: false, verifyBy: null });
  });
});

describe('listing entries that need re-verification, and my own', () => {
  it('filters with reverify=1 and mine=1, and counts them for the tab', async () => {
    const org = await createTenant(app);
    const { manager, admin } = org.users;
    const staleMine = await createAnswer(app, manager);
    const freshMine = await createAnswer(app, manager);
    const staleOther = await createAnswer(app, admin);
    const staleDraft = await createAnswer(app, manager, { status: 'draft' });
    for (const id of [staleMine.id, staleOther.id, staleDraft.id]) await ageEntry(id, 400);

    const reverify = await call(app, 'GET', '/api/canonical-answers?reverify=1', { as: manager });
    expect(reverify.headers['x-total-count']).toBe('2');
    expect(ids(reverify)).toEqual([staleMine.id, staleOther.id].sort());
    const mine = await call(app, 'GET', '/api/canonical-answers?mine=1', { as: manager });
    expect(ids(mine)).toEqual([staleMine.id, freshMine.id, staleDraft.id].sort());
    const mineStale = await call(app, 'GET', '/api/canonical-answers?mine=true&reverify=true', { as: manager });
    expect(ids(mineStale)).toEqual([staleMine.id]);
    const selectAll = await call(app, 'GET', '/api/canonical-answers/ids?mine=1&reverify=1', { as: manager });
    expect(selectAll.data.ids).toEqual([staleMine.id]);

    const counts = await call(app, 'GET', '/api/canonical-answers/counts', { as: manager });
    expect(counts.data).toEqual({ all: 4, approved: 3, draft: 1, archived: 0, reverify: 2 });
    const myCounts = await call(app, 'GET', '/api/canonical-answers/counts?mine=1', { as: manager });
    expect(myCounts.data).toEqual({ all: 3, approved: 2, draft: 1, archived: 0, reverify: 1 });
    // Someone who owns nothing has nothing of their own to re-verify.
    const viewerMine = await call(app, 'GET', '/api/canonical-answers?mine=1', { as: org.users.viewer });
    expect(viewerMine.data).toEqual([]);
  });

  it('refuses filter values other than 1, 0, true and false', async () => {
    for (const url of ['/api/canonical-answers?reverify=yes', '/api/canonical-answers/counts?mine=2']) {
      const res = await call(app, 'GET', url, { as: t.users.viewer });
      expect(res.statusCode, url).toBe(400);
      expect(res.data.error).toMatch(/(reverify|mine) must be 1 or 0/);
    }
  });
});

describe('the review interval', () => {
  it('is set by approvers on create and update; a shorter one can make an entry due at once', async () => {
    const org = await createTenant(app);
    const created = await call(app, 'POST', '/api/canonical-answers', {
      as: org.users.manager,
      body: { question: 'Do you review firewall rules?', answer, reviewIntervalDays: 90 },
    });
    expect(created.statusCode).toBe(201);
    expect(created.data).toMatchObject({ reviewIntervalDays: 90, needsReverification: false });
    await ageEntry(created.data.id, 60);
    expect((await entry(org.admin, created.data.id)).needsReverification).toBe(false);

    const shorter = await call(app, 'PUT', `/api/canonical-answers/${created.data.id}`, {
      as: org.admin,
      body: { reviewIntervalDays: 30 },
    });
    expect(shorter.statusCode).toBe(200);
    expect(shorter.data).toMatchObject({ reviewIntervalDays: 30, needsReverification: true });
    const versions = await call(app, 'GET', `/api/canonical-answers/${created.data.id}/versions`, { as: org.admin });
    expect(versions.data).toHaveLength(1);
  });

  it('is refused to contributors, even on their own drafts', async () => {
    const org = await createTenant(app);
    const create = await call(app, 'POST', '/api/canonical-answers', {
      as: org.users.contributor,
      body: { question: 'Do contributors set intervals?', answer, status: 'draft', reviewIntervalDays: 60 },
    });
    expect(create.statusCode).toBe(403);
    const draft = await createAnswer(app, org.users.contributor, { status: 'draft' });
    const update = await call(app, 'PUT', `/api/canonical-answers/${draft.id}`, {
      as: org.users.contributor,
      body: { reviewIntervalDays: 60 },
    });
    expect(update.statusCode).toBe(403);
    expect((await entry(org.admin, draft.id)).reviewIntervalDays).toBe(365);
  });

  it('must be a whole number of days from 30 to 1,095', async () => {
    const a = await createAnswer(app, t.admin);
    for (const value of [29, 1096, 90.5, '90', null, 0, -30]) {
      const res = await call(app, 'PUT', `/api/canonical-answers/${a.id}`, {
        as: t.admin,
        body: { reviewIntervalDays: value },
      });
      expect(res.statusCode, String(value)).toBe(400);
      expect(res.data.error).toContain('The review interval must be a whole number of days from 30 to 1,095');
    }
    for (const value of [30, 1095]) {
      const res = await call(app, 'PUT', `/api/canonical-answers/${a.id}`, {
        as: t.admin,
        body: { reviewIntervalDays: value },
      });
      expect(res.data.reviewIntervalDays).toBe(value);
    }
  });
});

describe('staleEntryIds (for assessment review)', () => {
  it('returns only the given entries of the workspace that need re-verification', async () => {
    const { a, b } = await createTenantPair(app);
    const stale = await createAnswer(app, a.admin);
    const fresh = await createAnswer(app, a.admin);
    const otherTenant = await createAnswer(app, b.admin);
    await ageEntry(stale.id, 400);
    await ageEntry(otherTenant.id, 400);
    const ctx: TenantCtx = {
      db: app.database.db,
      userId: a.admin.id,
      organizationId: a.organizationId,
      workspaceId: a.workspaceId,
      role: 'admin',
      username: a.admin.username,
      sessionHash: 'test',
    };
    const found = await staleEntryIds(ctx, [stale.id, fresh.id, otherTenant.id, stale.id]);
    expect([...found]).toEqual([stale.id]);
    expect((await staleEntryIds(ctx, [])).size).toBe(0);
  });
});

describe('freshness on the analytics tab', () => {
  it('is the share of approved entries within their interval, over every workspace of the organization', async () => {
    const org = await createTenant(app);
    const empty = await call(app, 'GET', '/api/admin/analytics', { as: org.admin });
    expect(empty.data.libraryFreshness).toEqual({ approvedEntries: 0, needsReverification: 0, freshRate: null });

    const ws = await call(app, 'POST', '/api/workspaces', { as: org.admin, body: { name: 'Second' } });
    const inSecond = { ...org.admin, workspaceId: ws.data.id as string };
    const entries = [
      await createAnswer(app, org.admin),
      await createAnswer(app, org.admin),
      await createAnswer(app, org.admin),
      await createAnswer(app, inSecond),
    ];
    await createAnswer(app, org.admin, { status: 'draft' });
    await ageEntry(entries[0]!.id, 400);
    await ageEntry(entries[3]!.id, 400);
    const res = await call(app, 'GET', '/api/admin/analytics', { as: org.admin });
    expect(res.data.libraryFreshness).toEqual({ approvedEntries: 4, needsReverification: 2, freshRate: 50 });

    const other = await createTenant(app);
    const theirs = await call(app, 'GET', '/api/admin/analytics', { as: other.admin });
    expect(theirs.data.libraryFreshness.approvedEntries).toBe(0);
    expect((await call(app, 'GET', '/api/admin/analytics', { as: org.users.manager })).statusCode).toBe(403);
  });
});
