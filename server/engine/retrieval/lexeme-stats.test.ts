import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../db/client';
import { documentChunks, documents, organizations, workspaces } from '../../db/schema';
import { DEFAULT_BRAND_PROFILE } from '../../modules/organizations/create';
import { lexemeFrequency } from './lexeme-stats';

// A real data directory, opened, closed and opened again as a server restart does.
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

async function withChunks(n: number): Promise<{ dir: string; add: (db: Database, n: number) => Promise<void> }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'verity-lexeme-stats-'));
  dirs.push(dir);
  const database = await openDatabase({ kind: 'pglite', dataDir: dir });
  const [org] = await database.db
    .insert(organizations)
    .values({ name: 'Stats', slug: 'stats', brandProfile: DEFAULT_BRAND_PROFILE })
    .returning({ id: organizations.id });
  if (!org) throw new Error('no organization');
  const [ws] = await database.db
    .insert(workspaces)
    .values({ organizationId: org.id, name: 'Default' })
    .returning({ id: workspaces.id });
  if (!ws) throw new Error('no workspace');
  let ordinal = 0;
  const add = async (db: Database, count: number) => {
    const [doc] = await db.db
      .insert(documents)
      .values({
        organizationId: org.id,
        workspaceId: ws.id,
        storageKey: `stats-${ordinal}`,
        originalName: 'policy.pdf',
        mimeType: 'application/pdf',
        kind: 'pdf',
        size: 1,
        status: 'ready',
      })
      .returning({ id: documents.id });
    if (!doc) throw new Error('no document');
    for (let start = 0; start < count; start += 500) {
      const rows = Array.from({ length: Math.min(500, count - start) }, () => {
        ordinal += 1;
        return {
          documentId: doc.id,
          organizationId: org.id,
          workspaceId: ws.id,
          ordinal,
          // "security" in every chunk; the numbered word in one each.
          text: `Our security policy covers access reviews and backups for system number${ordinal} of the platform.`,
        };
      });
      await db.db.insert(documentChunks).values(rows);
    }
  };
  await add(database, n);
  await database.close();
  return { dir, add };
}

async function analyzeCount(db: Database): Promise<number> {
  const res = (await db.db.execute(
    sql`select analyze_count::int as n from pg_stat_user_tables where relname = 'document_chunks'`,
  )) as { rows: { n: number }[] };
  return res.rows[0]?.n ?? 0;
}

describe('word frequencies of the chunks table', () => {
  it('analyzes a table without statistics once, and after a restart reuses the statistics instead of analyzing again', async () => {
    const { dir, add } = await withChunks(8_000);

    const first = await openDatabase({ kind: 'pglite', dataDir: dir });
    try {
      const frequency = await lexemeFrequency(first.db, 'document_chunks');
      expect(frequency('secur')).toBeGreaterThan(0.9);
      expect(frequency('number17')).toBe(0);
      expect(await analyzeCount(first)).toBe(1);
    } finally {
      await first.close();
    }

    const restarted = await openDatabase({ kind: 'pglite', dataDir: dir });
    try {
      const before = await analyzeCount(restarted);
      const frequency = await lexemeFrequency(restarted.db, 'document_chunks');
      expect(frequency('secur')).toBeGreaterThan(0.9);
      expect(await analyzeCount(restarted)).toBe(before);
      // Grown by more than a fifth since it was analyzed: the next start gathers them again.
      await add(restarted, 4_000);
    } finally {
      await restarted.close();
    }

    const grown = await openDatabase({ kind: 'pglite', dataDir: dir });
    try {
      const before = await analyzeCount(grown);
      await lexemeFrequency(grown.db, 'document_chunks');
      expect(await analyzeCount(grown)).toBe(before + 1);
    } finally {
      await grown.close();
    }
  });
});
