import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/app';
import { call } from './helpers/api';
import { createAnswer, createOrg } from './helpers/factories';
import { plantDocument } from './helpers/documents';
import { changeCount, workspaceChanges, type ChangeKind } from '../server/engine/retrieval/change-count';

/**
 * The change counts the engine's in-memory indexes use to know they are current (migration 0018's triggers): they move
 * on every change to what an index holds and on nothing else, per workspace.
 */
let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app.close());

const db = () => app.database.db;
const count = (workspaceId: string, kind: ChangeKind) => changeCount({ db: db(), workspaceId }, kind);
const counts = (workspaceId: string) => workspaceChanges({ db: db(), workspaceId });
const vector = `array[${Array.from({ length: 8 }, (_, i) => (i + 1) / 10).join(',')}]::real[]`;

/** Change rows held for a workspace (of one kind, or of all). */
async function changeRows(workspaceId: string, kind?: ChangeKind): Promise<number | undefined> {
  const res = (await db().execute(
    sql`select count(*)::int as n from workspace_changes
      where workspace_id = ${workspaceId} and (${kind ?? null}::text is null or kind = ${kind ?? null})`,
  )) as { rows: Array<{ n: number }> };
  return res.rows[0]?.n;
}

describe('the library change count', () => {
  it('moves when an entry is added, edited, verified, archived or deleted, not when only its owner changes', async () => {
    const org = await createOrg(app);
    const before = await counts(org.workspaceId);
    const entry = await createAnswer(app, org.admin, {
      question: 'Do you encrypt backups?',
      answer: 'Yes, every backup is encrypted with AES-256.',
    });
    const added = await counts(org.workspaceId);
    expect(Number(added.library)).toBeGreaterThan(Number(before.library));
    // Not embedded yet: nothing for the vector index.
    expect(added.vectors).toBe(before.vectors);

    const steps: Array<[string, () => Promise<unknown>]> = [
      [
        'edit',
        () =>
          call(app, 'PUT', `/api/canonical-answers/${entry.id}`, {
            as: org.admin,
            body: { answer: 'Yes, with keys held in our KMS.' },
          }),
      ],
      ['verify', () => db().execute(sql`update canonical_answers set last_verified_at = now() where id = ${entry.id}`)],
      ['archive', () => db().execute(sql`update canonical_answers set status = 'archived' where id = ${entry.id}`)],
      ['delete', () => db().execute(sql`delete from canonical_answers where id = ${entry.id}`)],
    ];
    let last = added.library;
    for (const [step, run] of steps) {
      await run();
      const now = await count(org.workspaceId, 'library');
      expect(Number(now), step).toBeGreaterThan(Number(last));
      last = now;
    }

    const kept = await createAnswer(app, org.admin, {
      question: 'Do you run a SOC?',
      answer: 'Yes, staffed around the clock every day.',
    });
    const settled = await count(org.workspaceId, 'library');
    await db().execute(sql`update canonical_answers set owner_id = ${org.admin.id} where id = ${kept.id}`);
    expect(await count(org.workspaceId, 'library')).toBe(settled);
  });

  it('counts one workspace apart from another', async () => {
    const [a, b] = [await createOrg(app), await createOrg(app)];
    const bBefore = await counts(b.workspaceId);
    await createAnswer(app, a.admin, {
      question: 'Do you scan for vulnerabilities?',
      answer: 'Yes, every week with an authenticated scanner.',
    });
    expect(await counts(b.workspaceId)).toEqual(bBefore);
  });
});

describe('the vectors change count', () => {
  it('moves when an entry or chunk is embedded, re-embedded by another model or removed, not when its text is read', async () => {
    const org = await createOrg(app);
    const entry = await createAnswer(app, org.admin, {
      question: 'Is MFA enforced?',
      answer: 'Yes, for every employee and contractor.',
    });
    const start = await counts(org.workspaceId);

    await db().execute(
      sql.raw(`update canonical_answers set embedding = ${vector}, embedding_model = 'm1'
      where id = '${entry.id}'`),
    );
    const embedded = await counts(org.workspaceId);
    expect(Number(embedded.vectors)).toBeGreaterThan(Number(start.vectors));
    // Embedding an entry changes nothing the text index holds.
    expect(embedded.library).toBe(start.library);

    await db().execute(sql`update canonical_answers set embedding_model = 'm2' where id = ${entry.id}`);
    const remodelled = await count(org.workspaceId, 'vectors');
    expect(Number(remodelled)).toBeGreaterThan(Number(embedded.vectors));

    const doc = (await plantDocument(app, org)).id;
    await db().execute(sql`insert into document_chunks (document_id, organization_id, workspace_id, ordinal, text)
      values (${doc}, ${org.organizationId}, ${org.workspaceId}, 0, 'Backups are encrypted.')`);
    // A chunk without a vector is not in the vector index, but the workspace now has chunks to search.
    expect(await count(org.workspaceId, 'vectors')).toBe(remodelled);
    expect(Number(await count(org.workspaceId, 'chunks'))).toBeGreaterThan(Number(start.chunks));
    await db().execute(
      sql.raw(`update document_chunks set embedding = ${vector}, embedding_model = 'm1'
      where document_id = '${doc}'`),
    );
    const chunkEmbedded = await count(org.workspaceId, 'vectors');
    expect(Number(chunkEmbedded)).toBeGreaterThan(Number(remodelled));
    await db().execute(sql`update document_chunks set page = 2 where document_id = ${doc}`);
    expect(await count(org.workspaceId, 'vectors')).toBe(chunkEmbedded);
    await db().execute(sql`delete from documents where id = ${doc}`);
    expect(Number(await count(org.workspaceId, 'vectors'))).toBeGreaterThan(Number(chunkEmbedded));
  });
});

describe('many changes', () => {
  it('are folded into one row without changing the count', async () => {
    const org = await createOrg(app);
    const entry = await createAnswer(app, org.admin, {
      question: 'Do you log admin actions?',
      answer: 'Yes, every administrator action is logged.',
    });
    for (let i = 0; i < 70; i += 1) {
      await db().execute(sql`update canonical_answers set version = version + 1 where id = ${entry.id}`);
    }
    expect(await changeRows(org.workspaceId, 'library')).toBeGreaterThan(64);
    const total = await count(org.workspaceId, 'library');
    expect(await changeRows(org.workspaceId, 'library')).toBe(1);
    expect(await count(org.workspaceId, 'library')).toBe(total);
  });
});

describe('deleting a workspace', () => {
  it('takes its entries, chunks and change rows with it', async () => {
    const org = await createOrg(app);
    const created = await call(app, 'POST', '/api/workspaces', { as: org.admin, body: { name: 'Short-lived' } });
    expect(created.statusCode).toBe(201);
    const ws = created.data.id as string;
    const scoped = { ...org.admin, workspaceId: ws };
    await createAnswer(app, scoped, {
      question: 'Do you have a DPO?',
      answer: 'Yes, a named data protection officer.',
    });
    expect(Number(await count(ws, 'library'))).toBeGreaterThan(0);

    const removed = await call(app, 'DELETE', `/api/workspaces/${ws}`, { as: org.admin });
    expect(removed.statusCode).toBe(200);
    expect(await changeRows(ws)).toBe(0);
  });
});
