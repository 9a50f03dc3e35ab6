import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ArchiveFormatError, readTar, tarEnd, tarHeader, tarPadding } from '../server/ops/backup-archive';
import { call, sessionCookieFrom, type Session } from './helpers/api';
import type { TestApp } from './helpers/app';
import { importCsv, waitForBatch } from './helpers/assessments';
import { localPath, settledDocument, uploadDocument } from './helpers/documents';
import { createAnswer, createOrg, type TestUser } from './helpers/factories';
import { runNpmScript, runTsEntry, type ScriptRun } from './helpers/npm-script';
import { freePort, startServer } from './helpers/processes';
import { remoteApp } from './helpers/remote-app';

/** Every migration in the journal is applied to a new database. */
const MIGRATIONS = (
  JSON.parse(fs.readFileSync('server/db/migrations/meta/_journal.json', 'utf8')) as { entries: unknown[] }
).entries.length;

const embedded = inject('testDb').kind === 'pglite';

/** `npm run backup|restore` minus npm's start-up, for the short refusal runs (the main flow goes through npm). */
const cli = (command: 'backup' | 'restore', args: string[], env: Record<string, string>) =>
  runTsEntry('server/ops/backup-cli.ts', [command, ...args], env);

/** A server's or a CLI's environment on one DATA_DIR: embedded database, local object store, no model. */
function envFor(dataDir: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    STORAGE_DRIVER: 'local',
    STORAGE_DIR: '',
    LLM_BASE_URL: '',
    AUTH_RATE_LIMIT_PER_MINUTE: '10000',
    ...extra,
  };
}

const POLICY = Buffer.from(
  '# Logging and Monitoring\n\nSecurity logs are retained for 400 days in write-once storage. ' +
    'Alerts from the SIEM are triaged by the on-call engineer within 30 minutes.\n\n' +
    '# Workstations\n\nLaptops lock automatically after 5 minutes of inactivity (écran verrouillé ✓).\n',
);
const LIBRARY_QUESTION = 'Do you encrypt customer data at rest?';
const DOCUMENT_QUESTION = 'How long are security logs retained?';

/** Everything a person would look for after a restore, as the API shows it. */
async function views(app: TestApp, as: Session, assessmentId: string) {
  const get = async (url: string) => {
    const res = await call(app, 'GET', url, { as });
    expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
    return res.data as unknown;
  };
  return {
    entries: await get('/api/canonical-answers'),
    documents: await get('/api/documents'),
    chats: await get('/api/qa/sessions'),
    chatAnswers: await get('/api/qa/entries/all'),
    assessments: await get('/api/assessments'),
    assessment: await get(`/api/assessments/${assessmentId}`),
    // lastActive moves whenever a session is used; who the users are and their roles must not.
    users: ((await get('/api/admin/users')) as Array<{ lastActive?: unknown }>).map(({ lastActive: _, ...u }) => u),
  };
}

/** sha256 of every file and the name of every folder under dir: equal digests mean nothing changed. */
function digest(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string) => {
    for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const r = path.join(rel, e.name);
      if (e.isDirectory()) {
        out[`${r}/`] = 'dir';
        walk(r);
      } else
        out[r] = crypto
          .createHash('sha256')
          .update(fs.readFileSync(path.join(dir, r)))
          .digest('hex');
    }
  };
  walk('');
  return out;
}

/** The members of a .tar.gz as name → bytes (directories as null), read with the restore's own reader. */
async function members(file: string): Promise<Map<string, Buffer | null>> {
  const out = new Map<string, Buffer | null>();
  await readTar(fs.createReadStream(file).pipe(zlib.createGunzip()), async (h, data) => {
    const parts: Buffer[] = [];
    for await (const c of data) parts.push(c);
    out.set(h.name, h.type === 'dir' ? null : Buffer.concat(parts));
  });
  return out;
}

// Each case runs the CLI as a child process; the timeout only guards against a hang on a busy machine.
describe.runIf(embedded)('npm run backup and npm run restore (embedded mode)', { timeout: 120_000 }, () => {
  let root: string;
  let original: string;
  let restored: string;
  let archive: string;
  let admin: TestUser;
  let otherAdmin: TestUser;
  let assessmentId: string;
  let documentId: string;
  let pendingUploadUrl: string;
  let before: Awaited<ReturnType<typeof views>>;
  let otherBefore: unknown;
  let askedBefore: Record<string, unknown>;
  let backup: ScriptRun;

  beforeAll(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'verity-backup-'));
    original = path.join(root, 'original');
    restored = path.join(root, 'restored');
    archive = path.join(root, 'verity.tar.gz');
    const port = await freePort();
    const server = startServer(envFor(original, { PORT: String(port) }));
    try {
      expect(await server.ready, server.output()).toBe('ready');
      const app = remoteApp(`http://127.0.0.1:${port}`);
      ({ admin } = await createOrg(app));
      ({ admin: otherAdmin } = await createOrg(app));
      await createAnswer(app, admin, {
        question: LIBRARY_QUESTION,
        answer: 'Yes. Customer data at rest is encrypted with AES-256 using keys managed in AWS KMS.',
        tags: ['encryption'],
      });
      await createAnswer(app, admin, { question: 'Is single sign-on supported?', status: 'draft' });
      await createAnswer(app, otherAdmin, { question: 'Do you run background checks on employees?' });
      const doc = await uploadDocument(app, admin, POLICY, 'information-security-policy.md');
      documentId = doc.data.id;
      expect((await settledDocument(app, admin, documentId)).status).toBe('ready');

      const chat = await call(app, 'POST', '/api/qa/sessions', { as: admin, body: { title: 'Acme review' } });
      expect(chat.statusCode, chat.body).toBe(201);
      askedBefore = {};
      for (const question of [LIBRARY_QUESTION, DOCUMENT_QUESTION]) {
        const res = await call(app, 'POST', '/api/qa/ask', { as: admin, body: { question, sessionId: chat.data.id } });
        expect(res.statusCode, res.body).toBe(200);
        askedBefore[question] = { answer: res.data.answer, answerType: res.data.answerType };
      }

      const batch = await importCsv(
        app,
        admin,
        `Question\n"${LIBRARY_QUESTION}"\n"${DOCUMENT_QUESTION}"\n"Do you own a moon base?"\n`,
      );
      assessmentId = batch.id;
      const done = await waitForBatch(app, admin, assessmentId);
      const edited = await call(app, 'PUT', `/api/assessments/${assessmentId}/questions/${done.questions[2]?.id}`, {
        as: admin,
        body: { answer: 'No. We own no moon base.' },
      });
      expect(edited.statusCode, edited.body).toBe(200);
      const approved = await call(app, 'POST', `/api/assessments/${assessmentId}/questions/${edited.data.id}/review`, {
        as: admin,
        body: { action: 'approve' },
      });
      expect(approved.data, approved.body).toMatchObject({ reviewState: 'approved' });

      // Signed with the server's secret and never used: accepted after the restore only if the secret came back.
      const upload = await call(app, 'POST', '/api/objects/upload', { as: admin });
      pendingUploadUrl = upload.data.uploadURL;

      before = await views(app, admin, assessmentId);
      otherBefore = (await call(app, 'GET', '/api/canonical-answers', { as: otherAdmin })).data;
    } finally {
      await server.stop();
    }
    backup = await runNpmScript('backup', ['--out', archive], envFor(original));
  }, 240_000);

  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  describe('a backup', () => {
    it('is one .tar.gz of the database, the object store and the secret, with a manifest that checks every member', async () => {
      expect(backup.code, backup.output).toBe(0);
      expect(backup.stdout).toContain(`Backup written: ${archive}`);
      expect(backup.stdout).toMatch(
        /2 organizations, 2 users, 2 workspaces, 3 library entries, 1 document \(\d+ chunks?\), 2 chat answers, 1 assessment \(3 questions\), 1 stored file/,
      );
      expect(fs.statSync(archive).mode & 0o077).toBe(0);

      const all = await members(archive);
      const manifest = JSON.parse(all.get('manifest.json')!.toString('utf8'));
      expect(manifest).toMatchObject({
        format: 'verity-backup',
        formatVersion: 1,
        verityVersion: expect.any(String),
        database: {
          engine: 'pglite',
          postgresVersion: expect.stringMatching(/^\d+/),
          migration: { applied: MIGRATIONS },
        },
        counts: { organizations: 2, libraryEntries: 3, documents: 1, chatAnswers: 2, assessmentQuestions: 3 },
        objects: 1,
        secretIncluded: true,
      });
      expect(new Date(manifest.createdAt).getTime()).not.toBeNaN();
      expect(all.get('secret')).toEqual(fs.readFileSync(path.join(original, 'secret')));
      expect(all.has('pg/PG_VERSION')).toBe(true);
      // Every member but the manifest is listed with its checksum, and nothing is listed that is not there.
      expect(manifest.members.map((m: { name: string }) => m.name).sort()).toEqual(
        [...all.keys()].filter((n) => n !== 'manifest.json').sort(),
      );
      for (const m of manifest.members as Array<{ name: string; type: string; sha256?: string }>) {
        const bytes = all.get(m.name);
        if (m.type === 'file') expect(crypto.createHash('sha256').update(bytes!).digest('hex')).toBe(m.sha256);
      }
    });
  });

  describe('restored into a fresh DATA_DIR', () => {
    let restore: ScriptRun;
    let server: ReturnType<typeof startServer>;
    let app: TestApp;

    beforeAll(async () => {
      restore = await runNpmScript('restore', [archive], envFor(restored));
      expect(restore.code, restore.output).toBe(0);
      const port = await freePort();
      server = startServer(envFor(restored, { PORT: String(port) }));
      expect(await server.ready, server.output()).toBe('ready');
      app = remoteApp(`http://127.0.0.1:${port}`);
    }, 120_000);
    afterAll(() => server.stop());

    it('prints what it restored', () => {
      expect(restore.stdout).toContain('every checksum matches');
      expect(restore.stdout).toContain(`Restored into ${restored}`);
      expect(restore.stdout).toMatch(
        /2 organizations, .*3 library entries, 1 document .*2 chat answers, 1 assessment \(3 questions\)/,
      );
    });

    it('finds every library entry, document, chat answer and assessment answer as they were', async () => {
      expect(await views(app, admin, assessmentId)).toEqual(before);
      expect((await call(app, 'GET', '/api/canonical-answers', { as: otherAdmin })).data).toEqual(otherBefore);
      const detail = before.assessment as { questions: Array<{ answer: string | null }> };
      expect(detail.questions.map((q) => q.answer)).toContain('No. We own no moon base.');
    });

    it('keeps the sessions of before the backup, and signs in with the same password', async () => {
      const me = await call(app, 'GET', '/api/auth/me', { as: admin });
      expect(me.statusCode, me.body).toBe(200);
      expect(me.data.user.username).toBe(admin.username);
      const login = await call(app, 'POST', '/api/auth/login', {
        body: { username: admin.username, password: admin.password },
      });
      expect(login.statusCode, login.body).toBe(200);
      const fresh = { cookie: sessionCookieFrom(login), workspaceId: admin.workspaceId };
      expect((await call(app, 'GET', '/api/canonical-answers', { as: fresh })).statusCode).toBe(200);
    });

    it("serves each document's original bytes", async () => {
      const res = await call(app, 'GET', `/api/documents/${documentId}/download`, { as: admin });
      expect(res.statusCode).toBe(200);
      expect(Buffer.compare(res.rawPayload, POLICY)).toBe(0);
    });

    it('answers from the restored library and document index as before', async () => {
      for (const [question, was] of Object.entries(askedBefore)) {
        const res = await call(app, 'POST', '/api/qa/ask', { as: admin, body: { question } });
        expect(res.statusCode, res.body).toBe(200);
        expect({ answer: res.data.answer, answerType: res.data.answerType }).toEqual(was);
      }
    });

    it("keeps the server's secret: an upload URL signed before the backup is still accepted", async () => {
      expect(fs.readFileSync(path.join(restored, 'secret'))).toEqual(fs.readFileSync(path.join(original, 'secret')));
      const put = await app.inject({
        method: 'PUT',
        url: localPath(pendingUploadUrl),
        headers: { 'content-type': 'application/octet-stream' },
        payload: Buffer.from('signed before the backup'),
      });
      expect(put.statusCode, put.body).toBe(200);
    });

    it('refuses to back up or restore while this server runs, and the server keeps serving', async () => {
      const out = path.join(root, 'while-running.tar.gz');
      const refusedBackup = await cli('backup', ['--out', out], envFor(restored));
      expect(refusedBackup.code).toBe(1);
      expect(refusedBackup.stderr).toMatch(/Verity \(pid \d+\) is running on .*Stop it first.*not be consistent/);
      expect(fs.existsSync(out)).toBe(false);
      expect(fs.existsSync(`${out}.partial`)).toBe(false);

      const refusedRestore = await cli('restore', [archive, '--force'], envFor(restored));
      expect(refusedRestore.code).toBe(1);
      expect(refusedRestore.stderr).toMatch(/is running on .*Stop it first/);
      expect((await call(app, 'GET', '/api/canonical-answers', { as: admin })).data).toEqual(before.entries);
    });
  });

  describe('restore --force over a DATA_DIR that holds other data', () => {
    it('replaces its database, objects and secret with the backup’s, leaving nothing of the old behind', async () => {
      // Since the restore above, the server wrote an object the backup does not have (the late upload).
      const objectsOf = (dir: string) => digest(path.join(dir, 'objects'));
      expect(objectsOf(restored)).not.toEqual(objectsOf(original));
      fs.writeFileSync(path.join(restored, 'secret'), 'a secret of another installation');

      const run = await cli('restore', [archive, '--force'], envFor(restored));
      expect(run.code, run.output).toBe(0);
      expect(objectsOf(restored)).toEqual(objectsOf(original));
      expect(fs.readFileSync(path.join(restored, 'secret'))).toEqual(fs.readFileSync(path.join(original, 'secret')));
      expect(fs.readdirSync(restored).sort()).toEqual(['objects', 'pg', 'secret']);
      expect(run.stdout).toMatch(/2 organizations, .*3 library entries/);
    });
  });

  describe('bad inputs: a sentence, exit code 1, nothing changed', () => {
    // The original DATA_DIR (server stopped) is the target: even --force must leave it as it was.
    const restoreOver = async (file: string) => {
      const was = digest(original);
      const run = await cli('restore', [file, '--force'], envFor(original));
      expect(run.code, run.output).toBe(1);
      expect(digest(original)).toEqual(was);
      return run;
    };

    it('a damaged archive (one byte changed in the compressed stream)', async () => {
      const bytes = fs.readFileSync(archive);
      const at = Math.floor(bytes.length / 2);
      bytes[at] = (bytes[at] ?? 0) ^ 0xff;
      const damaged = path.join(root, 'damaged.tar.gz');
      fs.writeFileSync(damaged, bytes);
      const run = await restoreOver(damaged);
      // A changed byte can also make the deflate stream look cut short; either way it is refused with a sentence.
      expect(run.stderr).toMatch(
        /is (damaged \(.+\)|incomplete: .*)\. Nothing was restored; use (another|a complete) copy/,
      );
    });

    it('a member altered and the archive compressed again (only its checksum can tell)', async () => {
      const tar = zlib.gunzipSync(fs.readFileSync(archive));
      // The first member is the secret: its data starts after its 512-byte header.
      expect(tar.toString('latin1', 0, 6)).toBe('secret');
      tar[512] = (tar[512] ?? 0) ^ 0x01;
      const altered = path.join(root, 'altered.tar.gz');
      fs.writeFileSync(altered, zlib.gzipSync(tar));
      const run = await restoreOver(altered);
      expect(run.stderr).toMatch(/is damaged \(secret does not match its checksum\)/);
    });

    it('a truncated archive, into a DATA_DIR that does not exist yet (it is not created)', async () => {
      const bytes = fs.readFileSync(archive);
      const truncated = path.join(root, 'truncated.tar.gz');
      fs.writeFileSync(truncated, bytes.subarray(0, Math.floor(bytes.length * 0.6)));
      await restoreOver(truncated);
      const fresh = path.join(root, 'never-created');
      const run = await cli('restore', [truncated], envFor(fresh));
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/is incomplete: it ends before the backup does/);
      expect(fs.existsSync(fresh)).toBe(false);
    });

    it('a file that is not a backup', async () => {
      const notBackup = path.join(root, 'notes.txt');
      fs.writeFileSync(notBackup, 'not a backup');
      const run = await restoreOver(notBackup);
      expect(run.stderr).toMatch(/is not a Verity backup/);
    });

    it('a DATA_DIR that already holds data, without --force', async () => {
      const was = digest(original);
      const run = await cli('restore', [archive], envFor(original));
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/already holds Verity data \(.*pg.*\)\. A restore replaces it: .*--force/);
      expect(digest(original)).toEqual(was);
    });

    it('PostgreSQL or S3 configured: the operator’s own backups are named instead', async () => {
      const pg = await cli('backup', [], envFor(original, { DATABASE_URL: 'postgres://127.0.0.1:1/verity' }));
      expect(pg.code).toBe(1);
      expect(pg.stderr).toMatch(/embedded mode only.*pg_dump.*bucket versioning/);
      const s3 = await cli('restore', [archive], envFor(original, { STORAGE_DRIVER: 's3', S3_BUCKET: 'b' }));
      expect(s3.code).toBe(1);
      expect(s3.stderr).toMatch(/embedded mode only.*pg_dump.*bucket versioning/);
    });

    it('a wrong command line exits 2 with the usage', async () => {
      const run = await cli('restore', [], envFor(original));
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/Give exactly one backup file.*Usage:/s);
    });
  });
});

describe('the backup archive format (ustar subset)', () => {
  const Name = fc
    .array(
      fc.stringMatching(/^[a-z0-9_.-]{1,40}$/).filter((s) => s !== '.' && s !== '..'),
      { minLength: 1, maxLength: 5 },
    )
    .map((parts) => parts.join('/'));
  const Members = fc.uniqueArray(
    fc.record({ name: Name, data: fc.uint8Array({ maxLength: 3000 }), dir: fc.boolean() }),
    { selector: (m) => m.name, maxLength: 8 },
  );

  const pack = (ms: Array<{ name: string; data: Uint8Array; dir: boolean }>) =>
    Buffer.concat([
      ...ms.flatMap((m) =>
        m.dir
          ? [tarHeader({ name: m.name, type: 'dir', size: 0, mode: 0o700, mtime: new Date(0) })]
          : [
              tarHeader({ name: m.name, type: 'file', size: m.data.length, mode: 0o600, mtime: new Date(1_000_000) }),
              Buffer.from(m.data),
              tarPadding(m.data.length),
            ],
      ),
      tarEnd(),
    ]);

  const unpack = async (bytes: Buffer, chunkSize: number) => {
    const out: Array<{ name: string; data: Uint8Array; dir: boolean }> = [];
    const chunks = async function* () {
      for (let i = 0; i < bytes.length; i += chunkSize) yield bytes.subarray(i, i + chunkSize);
    };
    await readTar(chunks(), async (h, data) => {
      const parts: Buffer[] = [];
      for await (const c of data) parts.push(c);
      out.push({ name: h.name, data: new Uint8Array(Buffer.concat(parts)), dir: h.type === 'dir' });
    });
    return out;
  };

  it('reads back exactly what it wrote, however the stream is chunked', async () => {
    await fc.assert(
      fc.asyncProperty(Members, fc.integer({ min: 1, max: 2000 }), async (ms, chunkSize) => {
        const expected = ms.map((m) => ({ ...m, data: m.dir ? new Uint8Array() : m.data }));
        expect(await unpack(pack(ms), chunkSize)).toEqual(expected);
      }),
    );
  });

  it('says "truncated" for an archive cut anywhere before its end marker', async () => {
    await fc.assert(
      fc.asyncProperty(Members, fc.double({ min: 0, max: 1, noNaN: true }), async (ms, where) => {
        const whole = pack(ms);
        const cut = Math.floor((whole.length - 1024) * where);
        const err = await unpack(whole.subarray(0, cut), 700).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(ArchiveFormatError);
        expect((err as ArchiveFormatError).truncated).toBe(true);
      }),
    );
  });

  it('rejects a damaged header, or reads it as it was written, never as something else', async () => {
    await fc.assert(
      fc.asyncProperty(
        Members.filter((ms) => ms.length > 0),
        fc.nat(511),
        async (ms, at) => {
          const bytes = pack(ms);
          const intact = await unpack(bytes, 512);
          bytes[at] = (bytes[at] ?? 0) ^ 0x5a;
          // Bytes after a field's terminating NUL carry nothing, so a change there may go unseen; nothing else may.
          const read = await unpack(bytes, 512).catch((e: unknown) => e);
          if (!(read instanceof ArchiveFormatError)) expect(read).toEqual(intact);
        },
      ),
    );
  });

  it('names longer than 100 bytes go through the ustar prefix', async () => {
    const name = `${'a'.repeat(90)}/${'b'.repeat(90)}/c.txt`;
    const bytes = Buffer.concat([
      tarHeader({ name, type: 'file', size: 2, mode: 0o600, mtime: new Date(0) }),
      Buffer.from('hi'),
      tarPadding(2),
      tarEnd(),
    ]);
    expect(await unpack(bytes, 512)).toEqual([{ name, data: new Uint8Array(Buffer.from('hi')), dir: false }]);
  });
});
