import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { freePort, startServer } from './helpers/processes';
import { openDatabase } from '../server/db/client';
import { assessmentQuestions as aq } from '../server/db/schema';
import { LocalStorage } from '../server/storage/local';
import { checkIntegrity, formatIntegrityReport } from '../server/ops/integrity';
import { waitUntil } from './helpers/wait';

const embedded = inject('testDb').kind === 'pglite';
const TOTAL = 1000;

describe.runIf(embedded)('`npm start` killed with SIGKILL in the middle of an assessment (embedded database)', () => {
  it('resumes on restart at once; every one of 1,000 questions is answered exactly once and integrity holds', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'verity-crash-'));
    const port = await freePort();
    const secret = 'crash-secret-crash-secret-crash';
    const env = { DATA_DIR: dataDir, PORT: String(port), SESSION_SECRET: secret };
    const base = `http://127.0.0.1:${port}`;
    let server = startServer(env);
    try {
      expect(await server.ready, server.output()).toBe('ready');
      const reg = await fetch(`${base}/api/auth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          username: 'crash',
          email: 'crash@example.com',
          password: 'secret-1234',
          organizationName: 'C',
        }),
      });
      const cookie = (reg.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
      const total = TOTAL;
      const csv = `Question\n${Array.from({ length: total }, (_, i) => `"Do you review control ${i + 1} yearly?"`).join('\n')}\n`;
      const created = await fetch(`${base}/api/assessments/import-csv`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json' },
        body: JSON.stringify({ csvContent: csv, name: 'Crash' }),
      });
      expect(created.status).toBe(201);
      const { id } = (await created.json()) as { id: string };
      const progress = async () =>
        (await (await fetch(`${base}/api/assessments/${id}/batch`, { headers: { cookie } })).json()) as {
          status: string;
          processedQuestions: number;
        };
      await waitUntil(
        async () => {
          if ((await progress()).processedQuestions < 100) throw new Error('not under way yet');
        },
        { interval: 20 },
      );
      server.child.kill('SIGKILL');
      await new Promise((r) => server.child.once('exit', r));

      server = startServer(env);
      expect(await server.ready, server.output()).toBe('ready');
      // Far sooner than the two-minute claim timeout: the restart releases the dead run's claims.
      const done = await waitUntil(
        async () => {
          const p = await progress();
          if (p.status === 'processing') throw new Error(`still processing: ${p.processedQuestions}`);
          return p;
        },
        { interval: 50 },
      );
      expect(done).toMatchObject({ status: 'completed', processedQuestions: total });
    } finally {
      await server.stop();
    }
    const database = await openDatabase({ kind: 'pglite', dataDir });
    try {
      const rows = await database.db.select({ status: aq.status, n: aq.answerCount }).from(aq);
      expect(rows).toHaveLength(TOTAL);
      expect(rows.every((r) => r.status === 'completed' && r.n === 1)).toBe(true);
      // No question left in processing, the batch's counts and status agree with its questions.
      const storage = new LocalStorage(path.join(dataDir, 'objects'), 'http://127.0.0.1', secret);
      const problems = await checkIntegrity(database.db, storage, { quiescent: true });
      expect(problems, formatIntegrityReport(problems)).toEqual([]);
    } finally {
      await database.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 300_000);
});
