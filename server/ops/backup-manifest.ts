import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { z } from 'zod';
import type { PGlite } from '@electric-sql/pglite';
// Imported rather than read beside this file: the compiled server (dist/server) carries it in its bundle.
import packageJson from '../../package.json' with { type: 'json' };
import { MIGRATIONS } from '../db/client';

/** Bumped when an older restore could no longer read what backup writes. */
export const FORMAT_VERSION = 1;
export const MANIFEST_NAME = 'manifest.json';

const Member = z.discriminatedUnion('type', [
  z.object({ name: z.string(), type: z.literal('dir') }),
  z.object({
    name: z.string(),
    type: z.literal('file'),
    size: z.number().int().min(0),
    sha256: z.string().regex(/^[0-9a-f]{64}$/),
  }),
]);
export type ManifestMember = z.infer<typeof Member>;

const Counts = z.object({
  organizations: z.number().int(),
  users: z.number().int(),
  workspaces: z.number().int(),
  libraryEntries: z.number().int(),
  documents: z.number().int(),
  documentChunks: z.number().int(),
  chatAnswers: z.number().int(),
  assessments: z.number().int(),
  assessmentQuestions: z.number().int(),
});
export type Counts = z.infer<typeof Counts>;

/** What `manifest.json`, the archive's last member, says about the backup and every other member. */
export const Manifest = z.object({
  format: z.literal('verity-backup'),
  formatVersion: z.number().int().min(1),
  verityVersion: z.string(),
  createdAt: z.string(),
  database: z.object({
    engine: z.literal('pglite'),
    pgliteVersion: z.string(),
    postgresVersion: z.string(),
    /** The last migration applied (drizzle's journal tag), null for a database never migrated. */
    migration: z.object({ applied: z.number().int(), latest: z.string().nullable() }),
  }),
  counts: Counts,
  objects: z.number().int(),
  /** false when the server's secret came from SESSION_SECRET rather than DATA_DIR/secret. */
  secretIncluded: z.boolean(),
  members: z.array(Member),
});
export type Manifest = z.infer<typeof Manifest>;

const COUNTED: Record<keyof Counts, string> = {
  organizations: 'organizations',
  users: 'users',
  workspaces: 'workspaces',
  libraryEntries: 'canonical_answers',
  documents: 'documents',
  documentChunks: 'document_chunks',
  chatAnswers: 'qa_entries',
  assessments: 'assessment_batches',
  assessmentQuestions: 'assessment_questions',
};

/** Rows per kind of thing a person would look for after a restore. A table an old schema lacks counts 0. */
export async function countRows(client: PGlite): Promise<Counts> {
  const counts = {} as Counts;
  for (const [key, table] of Object.entries(COUNTED) as Array<[keyof Counts, string]>) {
    const exists = await client.query<{ t: string | null }>(`SELECT to_regclass('public.${table}')::text AS t`);
    counts[key] = exists.rows[0]?.t
      ? Number((await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`)).rows[0]?.n ?? 0)
      : 0;
  }
  return counts;
}

/** The engine and schema versions the manifest records, read from an open database. */
export async function databaseVersions(client: PGlite): Promise<Manifest['database']> {
  const version = await client.query<{ v: string }>("SELECT current_setting('server_version') AS v");
  const table = await client.query<{ t: string | null }>(
    `SELECT to_regclass('drizzle.__drizzle_migrations')::text AS t`,
  );
  const applied = table.rows[0]?.t
    ? (await client.query<{ at: string }>('SELECT created_at::text AS at FROM drizzle.__drizzle_migrations')).rows
    : [];
  const last = applied.map((r) => Number(r.at)).reduce((a, b) => Math.max(a, b), 0);
  const tag = readJournal().find((e) => e.when === last)?.tag ?? (last ? `unknown migration of ${last}` : null);
  return {
    engine: 'pglite',
    pgliteVersion: pgliteVersion(),
    postgresVersion: version.rows[0]?.v ?? 'unknown',
    migration: { applied: applied.length, latest: tag },
  };
}

/** drizzle-kit's list of this checkout's migrations, oldest first. */
export function readJournal(): Array<{ tag: string; when: number }> {
  const file = path.join(MIGRATIONS, 'meta/_journal.json');
  const journal = JSON.parse(fs.readFileSync(file, 'utf8')) as { entries: Array<{ tag: string; when: number }> };
  return journal.entries;
}

export function verityVersion(): string {
  return packageJson.version;
}

export function pgliteVersion(): string {
  try {
    // The package's exports map hides package.json; it sits one folder above the resolved entry point (dist/).
    const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
    const pkg = JSON.parse(fs.readFileSync(path.join(path.dirname(entry), '../package.json'), 'utf8')) as {
      version?: string;
    };
    return pkg.version ?? 'unknown';
  } catch {
    return 'unknown';
  }
}
