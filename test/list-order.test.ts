import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { apiTokens, assessmentBatches, invitations } from '../server/db/schema';
import { createTestApp, type TestApp } from './helpers/app';
import { call } from './helpers/api';
import { createOrg, unique, type TestUser } from './helpers/factories';
import { importCsv } from './helpers/assessments';

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app.close());

type Stamped = PgTable & { id: PgColumn; createdAt: PgColumn };

/**
 * Three rows created one after the other whose ids are neither ascending nor descending in that order, then given one
 * creation time. PostgreSQL meets rows of equal time in the order they were stored (reading the table or an index
 * forward) or its reverse (an index read backward), so a list ordered by time alone shows them in one of those two
 * orders; neither is descending id, which is what a list that breaks ties by id shows. Returns that order.
 */
async function tripletCreatedTogether(table: Stamped, create: () => Promise<string>): Promise<string[]> {
  for (let attempt = 0; attempt < 10; attempt++) {
    const created = [await create(), await create(), await create()];
    const descending = [...created].sort().reverse();
    const same = (order: string[]) => order.every((id, i) => id === descending[i]);
    if (same(created) || same([...created].reverse())) continue; // ids are random: try again
    const at = new Date('2026-01-01T00:00:00Z');
    for (const id of created) await app.database.db.update(table).set({ createdAt: at }).where(eq(table.id, id));
    return descending;
  }
  throw new Error('ten triplets of random ids all came out sorted');
}

const idsOf = (rows: Array<{ id: string }>, wanted: string[]) =>
  rows.map((r) => r.id).filter((id) => wanted.includes(id));

describe('lists created at the same instant', () => {
  let admin: TestUser;
  beforeAll(async () => {
    admin = (await createOrg(app)).admin;
  });

  it('keep one order, newest id first, for invitations', async () => {
    const expected = await tripletCreatedTogether(invitations, async () => {
      const res = await call(app, 'POST', '/api/organizations/invitations', {
        as: admin,
        body: { email: `${unique('tie')}@example.com`, role: 'viewer' },
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.data.id as string;
    });
    const listed = await call(app, 'GET', '/api/organizations/invitations', { as: admin });
    expect(idsOf(listed.data, expected)).toEqual(expected);
  });

  it('keep one order, newest id first, for API tokens', async () => {
    const expected = await tripletCreatedTogether(apiTokens, async () => {
      const res = await call(app, 'POST', '/api/admin/api-tokens', {
        as: admin,
        body: { name: unique('tie'), role: 'viewer' },
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.data.id as string;
    });
    const listed = await call(app, 'GET', '/api/admin/api-tokens', { as: admin });
    expect(idsOf(listed.data, expected)).toEqual(expected);
  });

  it('keep one order, newest id first, for assessments', async () => {
    const expected = await tripletCreatedTogether(
      assessmentBatches,
      async () => (await importCsv(app, admin, 'Question\nDo you encrypt backups?\n')).id,
    );
    const listed = await call(app, 'GET', '/api/assessments', { as: admin });
    expect(idsOf(listed.data, expected)).toEqual(expected);
  });
});
