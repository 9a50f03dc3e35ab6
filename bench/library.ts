/**
 * bench:library — how the knowledge library behaves with 10,000 entries (issue: "stays fast with 10,000
 * entries"). Builds the real app on a fresh embedded database (or DATABASE_URL's PostgreSQL), imports 10,000
 * generated entries through the API (in one call up to the import's 10,000 entries a call, else in several), then
 * times the calls the Library page makes.
 *
 *   npm run bench:library            # embedded PGlite
 *   ENTRIES=20000 RUNS=30 npm run bench:library
 *
 * Limits: the product's defaults but for sign-ups (bench-database.ts), printed on the first line; any refusal stops
 * the bench with the request's status, URL and body.
 */
import fs from 'node:fs';
import os from 'node:os';
import pino from 'pino';
import { IMPORT_MAX_ENTRIES } from '../common/constants';
import { buildApp } from '../server/app';
import { createMailer } from '../server/mail/mailer';
import { createStorage } from '../server/storage/create';
import { openBenchDatabase } from './bench-database';
import { injectOk, registerOrganization } from './inject';
import { FIXED, limitsLine } from './limits';
import { percentile } from './percentile';

const ENTRIES = Number(process.env.ENTRIES ?? 10_000);
const RUNS = Number(process.env.RUNS ?? 20);

const TOPICS: Array<[string, string]> = [
  ['encrypt customer data at rest', 'Yes. Customer data is encrypted at rest with AES-256 using keys held in a KMS.'],
  ['enforce multi-factor authentication for administrators', 'Yes. MFA is enforced for every administrator.'],
  ['perform annual penetration tests', 'Yes. An independent firm tests the platform every year.'],
  ['keep audit logs', 'Yes. Audit logs are kept for 365 days in write-once storage.'],
  ['rotate passwords', 'Passwords of service accounts rotate every 90 days.'],
  ['have a business continuity plan', 'Yes. The BCP is reviewed and tested once a year.'],
  ['scan dependencies for vulnerabilities', 'Yes. Every build is scanned; critical findings block release.'],
  ['train staff in security awareness', 'Yes. Training at hiring and every year, with phishing drills.'],
  ['back up production databases', 'Yes. Daily backups, kept 35 days, restored monthly as a test.'],
  ['segregate customer environments', 'Yes. Each tenant is isolated at the application and database layer.'],
];
const SYSTEMS = [
  'the web application',
  'the mobile app',
  'the data warehouse',
  'corporate laptops',
  'the API',
  'the support desk',
  'CI/CD pipelines',
  'the HR system',
  'the billing platform',
  'partner integrations',
];
const FRAMES = [
  'Do you {t} for {s}?',
  'How do you {t} for {s}?',
  'Describe how you {t} for {s}.',
  'Is it policy to {t} for {s}?',
];

function entries(n: number) {
  const out = [];
  for (let i = 0; i < n; i += 1) {
    const [topic, answer] = TOPICS[i % TOPICS.length] ?? ['', ''];
    const system = SYSTEMS[Math.floor(i / TOPICS.length) % SYSTEMS.length] ?? '';
    const frame = FRAMES[Math.floor(i / 100) % FRAMES.length] ?? '';
    out.push({
      question: `${frame.replace('{t}', topic).replace('{s}', system)} (control ${i})`,
      answer: `${answer} Applies to ${system}; evidence reference EV-${i}.`,
      tags: [`domain-${i % 12}`, i % 3 === 0 ? 'soc2' : 'iso27001'],
      source: 'bench',
      confidence: 85,
    });
  }
  return out;
}

function stats(ms: number[]) {
  return { median: percentile(ms, 0.5), p95: percentile(ms, 0.95) };
}

async function main() {
  const { dataDir, database, config } = await openBenchDatabase('verity-bench-');
  console.log(`${limitsLine(config, [FIXED.importEntries])}\n`);
  const log = pino({ level: 'silent' });
  const mailer = createMailer({ from: 'bench@verity', db: database.db, log });
  const app = await buildApp({ db: database.db, config, mailer, log, storage: createStorage(config) });
  try {
    const cookie = await registerOrganization(app, 'bench', 'Bench');
    const get = (u: string) => injectOk(app, { method: 'GET', url: u, headers: { cookie } });

    const all = entries(ENTRIES);
    const bodies: Array<{ entries: typeof all }> = [];
    for (let i = 0; i < all.length; i += IMPORT_MAX_ENTRIES)
      bodies.push({ entries: all.slice(i, i + IMPORT_MAX_ENTRIES) });
    let imported = 0;
    const t0 = performance.now();
    for (const body of bodies) {
      const imp = await injectOk(app, {
        method: 'POST',
        url: '/api/canonical-answers/import',
        headers: { cookie },
        payload: body,
      });
      imported += (imp.json() as { imported: number }).imported;
    }
    const importMs = performance.now() - t0;
    console.log(
      `Imported ${imported} entries in ${bodies.length === 1 ? 'one call' : `${bodies.length} calls`}: ` +
        `${(importMs / 1000).toFixed(2)} s (${Math.round(JSON.stringify(bodies).length / 1024)} KB of JSON)\n`,
    );

    const cold = performance.now();
    const firstIssues = await get('/api/canonical-answers/issues');
    const coldMs = performance.now() - cold;

    const calls: Array<[string, string]> = [
      ['first page (limit 50)', '/api/canonical-answers?limit=50'],
      ['default list (limit 1000)', '/api/canonical-answers'],
      ['search, selective ("penetration")', '/api/canonical-answers?q=penetration&limit=50'],
      ['search, common ("yes")', '/api/canonical-answers?q=yes&limit=50'],
      ['search, prefix ("encr warehou")', '/api/canonical-answers?q=encr%20warehou&limit=50'],
      ['search, substring ("ntrol 99")', '/api/canonical-answers?q=ntrol%2099&limit=50'],
      ['tab counts', '/api/canonical-answers/counts'],
      ['tab counts with search', '/api/canonical-answers/counts?q=backup'],
      ['all ids (Select All)', '/api/canonical-answers/ids'],
      ['tags', '/api/canonical-answers/tags'],
      ['library health (cached)', '/api/canonical-answers/issues'],
      ['organization stats', '/api/organizations/stats'],
    ];
    console.log(`Median and p95 of ${RUNS} calls each, through the full HTTP stack (app.inject):`);
    for (const [name, u] of calls) {
      const ms: number[] = [];
      for (let i = 0; i < RUNS; i += 1) {
        const s = performance.now();
        await get(u);
        ms.push(performance.now() - s);
      }
      const { median, p95 } = stats(ms);
      console.log(
        `  ${name.padEnd(36)} median ${median.toFixed(1).padStart(7)} ms   p95 ${p95.toFixed(1).padStart(7)} ms`,
      );
    }
    const issues = JSON.parse(firstIssues.body) as unknown[];
    console.log(
      `  ${'library health (first, uncached)'.padEnd(36)} ${coldMs.toFixed(1).padStart(14)} ms   (${issues.length} pairs shown)`,
    );

    // An edit invalidates the health cache: the next call recomputes.
    const first = JSON.parse((await get('/api/canonical-answers?limit=1')).body) as Array<{ id: string }>;
    await injectOk(app, {
      method: 'PUT',
      url: `/api/canonical-answers/${first[0]?.id}`,
      headers: { cookie },
      payload: { tags: ['edited'] },
    });
    const re = performance.now();
    await get('/api/canonical-answers/issues');
    console.log(
      `  ${'library health (after an edit)'.padEnd(36)} ${(performance.now() - re).toFixed(1).padStart(14)} ms`,
    );
    console.log(
      `\nDatabase: ${database.kind}${database.kind === 'pglite' ? ' (embedded)' : ''}; node ${process.version}; ${os.cpus().length} cores.`,
    );
  } finally {
    await app.close();
    await database.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
