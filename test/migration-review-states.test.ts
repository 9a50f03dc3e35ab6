import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const MIGRATIONS = path.resolve(__dirname, '../server/db/migrations');
const REVIEW_MIGRATION = '0011_review_workflow';

/** The migrations folder as it was before the review workflow: every migration up to the one before it. */
function migrationsBefore(tag: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'verity-migrations-'));
  fs.cpSync(MIGRATIONS, dir, { recursive: true });
  const journalFile = path.join(dir, 'meta/_journal.json');
  const journal = JSON.parse(fs.readFileSync(journalFile, 'utf8')) as { entries: { tag: string }[] };
  const at = journal.entries.findIndex((e) => e.tag === tag);
  expect(at).toBeGreaterThan(0);
  journal.entries = journal.entries.slice(0, at);
  fs.writeFileSync(journalFile, JSON.stringify(journal));
  return dir;
}

let client: PGlite;
let oldFolder: string;
beforeAll(async () => {
  client = new PGlite({ extensions: { pg_trgm } });
  oldFolder = migrationsBefore(REVIEW_MIGRATION);
  await migrate(drizzle(client), { migrationsFolder: oldFolder });
});
afterAll(async () => {
  await client.close();
  fs.rmSync(oldFolder, { recursive: true, force: true });
});

type Row = {
  question: string;
  status: string;
  review_state: string;
  answer_origin: string | null;
  confidence: number | null;
  sources: unknown[];
};

describe('the review-workflow migration', () => {
  it('gives existing questions a review state and an honest origin', async () => {
    const org = await client.query<{ id: string }>(
      `insert into organizations (name, slug, brand_profile) values ('Old Corp', 'old-corp', '{}'::jsonb) returning id`,
    );
    const orgId = org.rows[0]!.id;
    const ws = await client.query<{ id: string }>(
      `insert into workspaces (organization_id, name) values ($1, 'Default') returning id`,
      [orgId],
    );
    const wsId = ws.rows[0]!.id;
    const user = await client.query<{ id: string }>(
      `insert into users (organization_id, username, email, password_hash, role)
       values ($1, 'olduser', 'old@example.com', 'x', 'manager') returning id`,
      [orgId],
    );
    const userId = user.rows[0]!.id;
    const batch = await client.query<{ id: string }>(
      `insert into assessment_batches (organization_id, workspace_id, name, status, total_questions, metadata,
         source_format, mapping)
       values ($1, $2, 'Old review', 'completed', 5, '{}'::jsonb, 'csv', '[]'::jsonb) returning id`,
      [orgId, wsId],
    );
    const sources = JSON.stringify([{ type: 'library', canonicalAnswerId: 'x', score: 0.9 }]);
    const rows: Array<[string, string, string | null, string | null, number | null, string | null]> = [
      // question, status, answer, answer type, confidence, edited by
      ['machine accepted', 'approved', 'Yes, always.', 'canonical', 95, null],
      ['person approved', 'approved', 'No, never.', 'draft', 91, userId],
      ['person draft', 'completed', 'Sometimes.', 'draft', 80, userId],
      ['machine draft', 'completed', 'Yes, we do.', 'generated', 70, null],
      ['unanswered', 'completed', 'No approved answer covers this.', 'unknown', 0, null],
    ];
    for (const [i, [question, status, answer, type, confidence, editedBy]] of rows.entries()) {
      await client.query(
        `insert into assessment_questions (batch_id, organization_id, workspace_id, order_index, question, status,
           answer, answer_type, confidence, sources, edited_by)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::jsonb, $11)`,
        [batch.rows[0]!.id, orgId, wsId, i + 1, question, status, answer, type, confidence, sources, editedBy],
      );
    }

    await migrate(drizzle(client), { migrationsFolder: MIGRATIONS });

    const after = await client.query<Row>(
      `select question, status, review_state, answer_origin, confidence, sources
       from assessment_questions order by order_index`,
    );
    expect(after.rows.map((r) => [r.question, r.status, r.review_state, r.answer_origin])).toEqual([
      // A contributor could accept the engine's answer before: a reviewer looks at it again.
      ['machine accepted', 'completed', 'in_review', 'machine'],
      // Only a manager or admin could approve a person's answer.
      ['person approved', 'completed', 'approved', 'person'],
      ['person draft', 'completed', 'drafted', 'person'],
      ['machine draft', 'completed', 'drafted', 'machine'],
      ['unanswered', 'completed', 'needs_answer', 'machine'],
    ]);
    // The engine's confidence and sources never described a person's answer.
    expect(after.rows.map((r) => [r.confidence, r.sources.length])).toEqual([
      [95, 1],
      [null, 0],
      [null, 0],
      [70, 1],
      [0, 1],
    ]);
  });
});
