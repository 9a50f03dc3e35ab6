import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/app';
import { call } from './helpers/api';
import { createOrg, createTenant, type Tenant } from './helpers/factories';
import { settledDocument, uploadDocument } from './helpers/documents';

// Its own file: word statistics are cached for half a minute per database handle, so the flood below must come
// before this app's first question.
let app: TestApp;
let t: Tenant;
beforeAll(async () => {
  app = await createTestApp();
  t = await createTenant(app);
});
afterAll(() => app.close());

const ask = (question: string) =>
  call(app, 'POST', '/api/qa/ask', { as: t.users.contributor, body: { question } }).then((r) => r.data);

describe("another tenant's documents", () => {
  it('do not stop a question from finding this tenant’s document, even when they make its words common', async () => {
    // Word frequencies come from table-wide statistics: flood the table with another organization's chunks that
    // use the question's words (all but "long"), so that they count as common and only "long" looks selective.
    const other = await createOrg(app);
    const seed = await uploadDocument(app, other.admin, Buffer.from('Security logs policy.'), 'seed.txt');
    await settledDocument(app, other.admin, seed.data.id);
    const filler = 'Security logs are retained, and security logs are reviewed by the security team. ';
    await app.database.db.execute(sql`
      insert into document_chunks (document_id, organization_id, workspace_id, ordinal, text)
      select ${seed.data.id}::uuid, ${other.organizationId}::uuid, ${other.workspaceId}::uuid, 1000 + g,
        repeat(${filler}, 6)
      from generate_series(1, 4000) g`);

    const mine = await uploadDocument(
      app,
      t.admin,
      Buffer.from('# Logging\n\nSecurity logs are retained for 400 days in write-once storage.\n'),
      'logging-policy.md',
    );
    await settledDocument(app, t.admin, mine.data.id);
    const res = await ask('How long are security logs retained?');
    expect(res.answerType).toBe('generated');
    expect(res.answer).toContain('400 days');
  });
});
