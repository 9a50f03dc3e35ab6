/**
 * bench:scale — Verity scaled out on one PostgreSQL: two API processes and two worker processes sharing a database
 * and an S3 bucket (s3rver, a real S3-compatible server, on a temp directory). 50 simulated users, each signed in
 * on one of the API processes, ask questions for 60 s while a 1,000-question assessment runs on the workers; then
 * the same assessment alone with two workers and with one. Prints throughput, p50/p95/p99, CPU time per request
 * and every error, and exits non-zero when any request failed (target: 0 errors): any non-2xx counts, but for the
 * noisy neighbour's flood, whose 429s are what that phase measures. The limits of each part are printed as it starts.
 *
 *   npm run bench:scale                              # starts a private PostgreSQL (scripts/pg-test-cluster.sh)
 *   DATABASE_URL=postgres://… npm run bench:scale    # a fresh database on that server, dropped at the end
 *   SCALE_SECONDS=20 USERS=50 ENTRIES=3000 QUESTIONS=1000 WORKERS=2 WORKER_CONCURRENCY=2 npm run bench:scale
 */
import fs from 'node:fs';
import os from 'node:os';
import { loadConfig } from '../server/config';
import { FIXED, LIFTED_QUESTION_RATE, limitsLine, type LimitEnv } from './limits';
import { runAssessment } from './scale/assessment';
import { cleanupAll, installSignalHandlers, onCleanup, type Child } from './scale/children';
import { cpuDiff, cpuMeter, postgresCpuSeconds, processCpuSeconds } from './scale/cpu';
import { call, UnexpectedReply, type Session } from './scale/http';
import { floodInChild, noisyReport, quietOrganization, quietUser, startBigAssessment } from './scale/noisy';
import { askLoad, ErrorLog } from './scale/load';
import { askQuestion } from './scale/questions';
import {
  answerMix,
  assessmentTable,
  childLogProblems,
  cpuLine,
  loadNote,
  loadTable,
  sumOf,
  type AssessmentRow,
} from './scale/report';
import { policyDocuments, seedDocuments, seedLibrary, seedUsers } from './scale/seed';
import { API_LIMITS, startApi, startPostgres, startS3, startWorker, sharedEnv, WORK_DIR } from './scale/services';

const SECONDS = Number(process.env.SCALE_SECONDS ?? 60);
const USERS = Number(process.env.USERS ?? 50);
const ENTRIES = Number(process.env.ENTRIES ?? 3000);
const QUESTIONS = Number(process.env.QUESTIONS ?? 1000);
const WORKERS = Math.max(1, Number(process.env.WORKERS ?? 2));
const CONCURRENCY = Number(process.env.WORKER_CONCURRENCY ?? 2);
const API_PROCESSES = 2;
const NOISY_SECONDS = Number(process.env.NOISY_SECONDS ?? 30);
const NOISY_USERS = Math.min(USERS, Number(process.env.NOISY_USERS ?? 20));
const NOISY_BATCHERS = Math.min(NOISY_USERS, Number(process.env.NOISY_BATCHERS ?? 5));
const NOISY_ASSESSMENT = Number(process.env.NOISY_ASSESSMENT ?? 5000);
/** Phase A's one organization of USERS people asking flat out needs more than the per-organization defaults. */
const RAISED_QA_LIMITS: LimitEnv = {
  ...LIFTED_QUESTION_RATE,
  QA_CONCURRENT_REQUESTS_PER_USER: '1000',
  QA_CONCURRENT_REQUESTS_PER_ORG: '1000',
};

// The children's logs are kept unless the run ended with no error at all: they are where a failure is explained.
let keepLogs = true;

/** CPU seconds of every child, PostgreSQL (when it runs here) and this process (load generator and s3rver). */
function meterFor(children: Child[], pgDataDir: string | null) {
  const sources: Record<string, () => number | null> = {};
  for (const c of children) sources[c.name] = () => (c.process.pid ? processCpuSeconds(c.process.pid) : null);
  if (pgDataDir) sources.PostgreSQL = () => postgresCpuSeconds(pgDataDir);
  sources.bench = () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1e6;
  };
  return cpuMeter(sources);
}

async function main(): Promise<number> {
  installSignalHandlers();
  onCleanup({
    name: 'work directory',
    run: async () => {
      if (keepLogs) console.log(`Logs kept in ${WORK_DIR}`);
      else fs.rmSync(WORK_DIR, { recursive: true, force: true });
    },
  });
  const cpus = os.cpus();
  console.log(
    `bench:scale on ${cpus.length} cores (${cpus[0]?.model ?? 'unknown CPU'}), ` +
      `${Math.round(os.totalmem() / 2 ** 30)} GB, Node ${process.version}; ${loadNote()}`,
  );

  const pgInfo = await startPostgres();
  const s3 = await startS3();
  const env = sharedEnv(pgInfo.url, s3);
  // Phase A is one organization of 50 people asking flat out, far past what one organization may ask of a shared
  // server: its API processes run with those limits raised. The noisy-neighbour phase restarts them with the defaults.
  const phaseAEnv = { ...env, ...RAISED_QA_LIMITS };
  const fixed = [FIXED.importEntries, FIXED.uploadBytes];
  // What the API processes read (startApi adds API_LIMITS): said before anything is asked of them.
  console.log(limitsLine(loadConfig({ ...phaseAEnv, ...API_LIMITS }), fixed, 'seeding, warm-up, phases A and B'));
  // The first API process runs the migrations; the others then start on a migrated database together.
  const first = await startApi(1, phaseAEnv);
  const [rest, workers] = await Promise.all([
    Promise.all(Array.from({ length: API_PROCESSES - 1 }, (_, i) => startApi(i + 2, phaseAEnv))),
    Promise.all(Array.from({ length: WORKERS }, (_, i) => startWorker(i + 1, env, CONCURRENCY))),
  ]);
  const apis = [first, ...rest];
  const bases = apis.map((a) => a.base);
  const meter = meterFor([...apis, ...workers], pgInfo.dataDir);
  console.log(
    `PostgreSQL: ${pgInfo.where}. Storage: the S3 driver on s3rver. ${apis.length} API processes ` +
      `(WORKER_CONCURRENCY=0), ${workers.length} worker processes (WORKER_CONCURRENCY=${CONCURRENCY}).`,
  );

  const { admin, users } = await seedUsers(bases, USERS);
  const library = await seedLibrary(admin, ENTRIES);
  const docs = await seedDocuments(admin, await policyDocuments());
  console.log(
    `Seeded: ${USERS} contributors (signed up round-robin on the API processes), ${library.imported} library ` +
      `entries (${library.seconds.toFixed(1)} s), 3 policy documents uploaded through S3 upload URLs ` +
      `(${docs.chunks} chunks, extracted in ${docs.seconds.toFixed(1)} s).`,
  );

  // Warm-up, not measured: each user asks once (every API process builds its library index) and a small CSV
  // assessment goes through the specification's import-csv to the workers (each builds its own), so the phases compare warm
  // processes.
  await Promise.all(
    users.map((u, i) => call(u, 'POST', '/api/qa/ask', { body: { question: askQuestion(i).question }, expect: 200 })),
  );
  const warmErrors = new ErrorLog();
  await runAssessment(admin, 100, 'warm-up', warmErrors, 'csv');
  if (warmErrors.count > 0) throw new Error(`warm-up failed: ${JSON.stringify(warmErrors.entries.slice(0, 5))}`);

  const errors = new ErrorLog();
  console.log(
    `\nPhase A: ${USERS} users asking for ${SECONDS} s while a ${QUESTIONS}-question assessment runs (${loadNote()})…`,
  );
  const cpuA0 = meter.read();
  const startA = performance.now();
  let assessmentEndMs = 0;
  const [load, underLoad] = await Promise.all([
    askLoad(users, (b) => bases.indexOf(b), SECONDS, errors),
    runAssessment(admin, QUESTIONS, 'under ask load', errors).then((r) => {
      assessmentEndMs = performance.now() - startA;
      return r;
    }),
  ]);
  const cpuA = cpuDiff(cpuA0, meter.read());
  const phaseAEndedAt = Date.now();
  const loadAfterA = loadNote();

  console.log(`Phase B: the same assessment with no ask load, on ${workers.length} workers, then on 1…`);
  // Under the ask load, PostgreSQL's time is shared by asks and questions: only the workers' is the assessment's.
  const workersOnly = Object.fromEntries(Object.entries(cpuA).filter(([k]) => k.startsWith('worker')));
  const rows: AssessmentRow[] = [
    { title: `${workers.length} workers, under the ask load`, run: underLoad, cpu: workersOnly },
  ];
  const measure = async (title: string, label: string) => {
    const before = meter.read();
    const run = await runAssessment(admin, QUESTIONS, label, errors);
    rows.push({ title, run, cpu: cpuDiff(before, meter.read()) });
  };
  if (workers.length > 1) {
    await measure(`${workers.length} workers, no ask load`, 'workers alone');
    for (const w of workers.slice(1)) await w.stop();
  }
  await measure('1 worker, no ask load', 'one worker alone');

  // Noisy neighbour (issue 16): the API processes restarted with the default limits, every worker running again.
  console.log(
    `Noisy neighbour: the API processes restarted with the default limits; ${NOISY_SECONDS} s alone, then ${NOISY_SECONDS} s beside the flood…`,
  );
  for (const a of apis) await a.stop();
  console.log(
    limitsLine(
      loadConfig({ ...env, ...API_LIMITS }),
      fixed,
      "noisy neighbour: the flood's 429s are what it measures; the quiet user asks at most 5 questions a second",
    ),
  );
  const noisyApis = await Promise.all(apis.map((_, i) => startApi(API_PROCESSES + i + 1, env)));
  const moved = (u: Session): Session => ({ ...u, base: noisyApis[bases.indexOf(u.base)]?.base ?? u.base });
  const restarted = await Promise.all(workers.slice(1).map((_, i) => startWorker(i + 2, env, CONCURRENCY)));
  const quiet = await quietOrganization(noisyApis[0]?.base ?? '', 300);
  const alone = await quietUser(quiet, NOISY_SECONDS, errors, 'alone');
  const noisyAdmin = moved(admin);
  // Phase A's questions count against the organization's minute: the flood starts once that minute is over.
  await new Promise((r) => setTimeout(r, Math.max(0, phaseAEndedAt + 61_000 - Date.now())));
  const big = NOISY_ASSESSMENT > 0 ? await startBigAssessment(noisyAdmin, NOISY_ASSESSMENT) : null;
  // The flood runs in a process of its own (bench/scale/flood-cli.ts), so the timer shares no event loop with it.
  const startAt = Date.now() + 3_000;
  const [tally, beside] = await Promise.all([
    floodInChild(users.slice(0, NOISY_USERS).map(moved), NOISY_BATCHERS, NOISY_SECONDS, startAt, WORK_DIR),
    new Promise((r) => setTimeout(r, startAt - Date.now())).then(() =>
      quietUser(quiet, NOISY_SECONDS, errors, 'beside the flood'),
    ),
  ]);
  // The flood's refusals (429) are counted in its tally; anything else it got is an error of the run.
  for (const f of tally.failures) errors.record(f.what, f.status, f.message);
  if (tally.other > tally.failures.length) {
    errors.record('the flood', 0, `${tally.other - tally.failures.length} more failures like these, not kept`);
  }
  if (big) {
    const deleted = await call(noisyAdmin, 'DELETE', `/api/assessments/${big}`);
    if (deleted.status !== 200) {
      errors.record(`DELETE ${noisyAdmin.base}/api/assessments/${big}`, deleted.status, JSON.stringify(deleted.data));
    }
  }
  for (const w of restarted) await w.stop();

  const samples = load.samples;
  const loadEnd = load.seconds * 1000;
  console.log(`\n### Phase A: POST /api/qa/ask, ${USERS} users for ${load.seconds.toFixed(1)} s\n`);
  const split: Array<[string, typeof samples, number?, number?]> = [
    ['all', samples],
    ...apis.map((a, i): [string, typeof samples] => [`${a.name} only`, samples.filter((s) => s.api === i)]),
    ['while the assessment ran', samples, 0, Math.min(assessmentEndMs, loadEnd)],
  ];
  if (assessmentEndMs < loadEnd) split.push(['after it completed', samples, assessmentEndMs]);
  for (const line of loadTable(split)) console.log(line);
  console.log(`\nAnswers: ${answerMix(samples)}.`);
  const apiCpu = sumOf(cpuA, 'api');
  console.log(
    `CPU used in phase A: ${cpuLine(cpuA)}; API CPU per ask ${((1000 * apiCpu) / Math.max(1, samples.length)).toFixed(1)} ms ` +
      `(including the assessment's import and polls). At the end: ${loadAfterA}.`,
  );

  console.log(`\n### Assessment: ${QUESTIONS} questions (XLSX, POST /api/assessments/import)\n`);
  for (const line of assessmentTable(rows)) console.log(line);

  console.log(
    `\n### Noisy neighbour: ${NOISY_USERS} users of the first organization flood ask/entries (${NOISY_BATCHERS} of ` +
      `them 100-question batches of ~2,000-character questions) beside its ${NOISY_ASSESSMENT}-question assessment\n`,
  );
  for (const line of noisyReport(alone, beside, tally, NOISY_SECONDS)) console.log(line);

  console.log(`\nErrors: ${errors.count} (target 0)`);
  for (const e of errors.entries.slice(0, 10)) console.log(`  ${e.what}: ${e.status} ${e.message}`);
  console.log(`Child logs: ${childLogProblems(WORK_DIR)}`);
  keepLogs = errors.count > 0 || process.env.KEEP_LOGS === '1';
  return errors.count > 0 ? 1 : 0;
}

main()
  .then(async (code) => {
    await cleanupAll();
    process.exit(code);
  })
  .catch(async (err: unknown) => {
    console.error(err instanceof UnexpectedReply ? `Setup failed: ${err.message}` : err);
    await cleanupAll();
    process.exit(1);
  });
