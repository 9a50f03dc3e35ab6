import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../server/db/client';
import { createScratchDatabase } from './helpers/scratch-database';

declare module 'vitest' {
  export interface ProvidedContext {
    testDb: { kind: 'pglite'; templateFile: string } | { kind: 'postgres'; url: string };
    /** One object store for every test app of the run: on a shared PostgreSQL any app's worker may take any file. */
    objectsDir: string;
  }
}

/**
 * Prepares the database every test file starts from, once per run: a migrated PGlite dumped to a file that
 * each file loads (a new PGlite costs seconds of initdb; loading a dump does not), or — for `npm run test:pg` —
 * a fresh database on the PostgreSQL server of TEST_DATABASE_URL, dropped at the end.
 */
export default async function setup(project: TestProject) {
  const objectsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'verity-test-objects-'));
  project.provide('objectsDir', objectsDir);
  const removeObjects = () => fs.rmSync(objectsDir, { recursive: true, force: true });
  if (process.env.VERITY_TEST_DB === 'postgres') {
    const serverUrl = process.env.TEST_DATABASE_URL;
    if (!serverUrl)
      throw new Error('npm run test:pg needs TEST_DATABASE_URL (a PostgreSQL server URL; .ci/run starts one).');
    const scratch = await createScratchDatabase(serverUrl, 'verity_test');
    const database = await openDatabase({ kind: 'postgres', url: scratch.url, poolSize: 2 });
    await database.close();
    project.provide('testDb', { kind: 'postgres', url: scratch.url });
    return async () => {
      removeObjects();
      await scratch.drop();
    };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'verity-test-'));
  const database = await openDatabase({ kind: 'pglite' });
  // The drizzle handle hides the client; the dump goes through the PGlite instance behind it.
  const client = (database.db as unknown as { $client: PGlite }).$client;
  const dump = await client.dumpDataDir('none');
  const templateFile = path.join(dir, 'template.tar');
  fs.writeFileSync(templateFile, Buffer.from(await dump.arrayBuffer()));
  await database.close();
  project.provide('testDb', { kind: 'pglite', templateFile });
  return () => {
    removeObjects();
    fs.rmSync(dir, { recursive: true, force: true });
  };
}
