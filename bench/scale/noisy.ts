import fs from 'node:fs';
import path from 'node:path';
import { spawnTsx } from './children';
import { call, cookieOf, UnexpectedReply, type Session } from './http';
import { percentile, type ErrorLog } from './load';
import { askQuestion, questionnaireCsv } from './questions';
import { libraryEntries } from '../fixtures';

/**
 * The noisy-neighbour phase of bench:scale (issue 16): one organization floods the shared server — users sending
 * 100-question batches of ~2,000-character questions to `POST /api/qa/entries` and single asks back to back,
 * re-sending 100 ms after a refusal whatever Retry-After said, while a 5,000-question assessment of theirs runs on the workers — and
 * another organization's user asks questions and imports a 1-question assessment. The other organization's
 * figures are taken twice, alone and beside the flood; the target is within 2× of alone.
 */

export type QuietRun = { asks: number[]; health: number[]; assessmentSeconds: number[] };
/** The flood's requests: 429s are what it measures (`refused`); anything else not 2xx is a failure, the first kept. */
export type FloodTally = {
  admitted: number;
  refused: number;
  other: number;
  questions: number;
  failures: Array<{ what: string; status: number; message: string }>;
};

/** A new organization of one admin with a small library of its own. */
export async function quietOrganization(base: string, entries: number): Promise<Session> {
  const stamp = Date.now().toString(36);
  const res = await fetch(`${base}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      username: `quiet-${stamp}`,
      email: `quiet-${stamp}@example.com`,
      password: 'bench-quiet-pass',
      organizationName: 'Quiet Neighbour',
    }),
  });
  if (res.status !== 201) throw new UnexpectedReply(`register quiet: ${res.status} ${await res.text()}`);
  const admin = { base, cookie: cookieOf(res), username: `quiet-${stamp}` };
  await call(admin, 'POST', '/api/canonical-answers/import', {
    body: { entries: libraryEntries(entries) },
    expect: 200,
  });
  return admin;
}

/** A question of about 2,000 characters: a pasted policy section, the costliest a question can be. */
function longQuestion(i: number): string {
  const parts: string[] = [];
  for (let k = 0; parts.join(' ').length < 1990; k += 1) parts.push(askQuestion(i * 31 + k).question);
  return parts.join(' ').slice(0, 1990);
}

/** The quiet organization's user: one question after another for `seconds`, with a 1-question assessment now and then. */
export async function quietUser(user: Session, seconds: number, errors: ErrorLog, label: string): Promise<QuietRun> {
  const asks: number[] = [];
  const health: number[] = [];
  const assessmentSeconds: number[] = [];
  const end = performance.now() + seconds * 1000;
  const asking = (async () => {
    for (let k = 0; performance.now() < end; k += 1) {
      const t0 = performance.now();
      const res = await call(user, 'POST', '/api/qa/ask', { body: { question: askQuestion(k * 13).question } });
      if (res.status === 200) asks.push(performance.now() - t0);
      else errors.record(`POST ${user.base}/api/qa/ask (quiet, ${label})`, res.status, JSON.stringify(res.data));
      const h0 = performance.now();
      const h = await fetch(`${user.base}/api/health`);
      const hBody = await h.text();
      if (h.ok) health.push(performance.now() - h0);
      else errors.record(`GET ${user.base}/api/health (quiet, ${label})`, h.status, hBody);
      // A person reads the answer before asking the next question.
      await new Promise((r) => setTimeout(r, 200));
    }
  })();
  const assessing = (async () => {
    for (let k = 0; performance.now() < end - 5_000; k += 1) {
      const t0 = performance.now();
      const created = await call<{ id: string }>(user, 'POST', '/api/assessments/import-csv', {
        body: { csvContent: questionnaireCsv(1, `quiet-${label}-${k}`), name: `Quiet ${label} ${k}` },
      });
      if (created.status !== 201) {
        const what = `POST ${user.base}/api/assessments/import-csv (quiet, ${label})`;
        errors.record(what, created.status, JSON.stringify(created.data));
        break;
      }
      const poll = `/api/assessments/${created.data.id}/batch`;
      let finished = false;
      for (;;) {
        const b = await call<{ status: string }>(user, 'GET', poll);
        if (b.status !== 200) {
          errors.record(`GET ${user.base}${poll} (quiet, ${label})`, b.status, JSON.stringify(b.data));
          break;
        }
        finished = b.data.status !== 'processing';
        if (finished) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      if (!finished) break;
      assessmentSeconds.push((performance.now() - t0) / 1000);
      await new Promise((r) => setTimeout(r, 1_000));
    }
  })();
  await Promise.all([asking, assessing]);
  return { asks, health, assessmentSeconds };
}

/**
 * The noisy organization: `batchers` users send 100-question batches of long questions and `askers` single asks,
 * each in a closed loop that re-sends 100 ms after a refusal (not waiting as Retry-After says), for `seconds`.
 */
export async function flood(users: Session[], batchers: number, seconds: number): Promise<FloodTally> {
  const tally: FloodTally = { admitted: 0, refused: 0, other: 0, questions: 0, failures: [] };
  const failed = (what: string, status: number, message: string) => {
    tally.other += 1;
    if (tally.failures.length < 10) tally.failures.push({ what, status, message: message.slice(0, 300) });
  };
  const end = performance.now() + seconds * 1000;
  await Promise.all(
    users.map(async (user, u) => {
      const batch = u < batchers;
      // Built once per user: the bench shares the machine's two cores, and should spend them on the server. The
      // server answers every question anew, so repeating them costs it as much as new ones.
      const body = JSON.stringify(
        batch
          ? { questions: Array.from({ length: 100 }, (_, j) => longQuestion(u * 1000 + j)) }
          : { question: longQuestion(u * 1000) },
      );
      const url = `${user.base}/api/qa/${batch ? 'entries' : 'ask'}`;
      while (performance.now() < end) {
        try {
          const res = await fetch(url, {
            method: 'POST',
            headers: { cookie: user.cookie, 'content-type': 'application/json' },
            body,
          });
          const text = await res.text();
          if (res.status === 200) {
            tally.admitted += 1;
            tally.questions += batch ? 100 : 1;
          } else if (res.status === 429) {
            tally.refused += 1;
            // Ignores Retry-After (seconds) and comes back after a tenth of one: abusive, but not a busy loop of
            // the bench's own, which would spend the machine's two cores on sending rather than on the server.
            await new Promise((r) => setTimeout(r, 100));
          } else failed(`POST ${url} (flood)`, res.status, text);
        } catch (err) {
          failed(
            `POST ${url} (flood)`,
            0,
            err instanceof Error ? `${err.message} ${String(err.cause ?? '')}` : String(err),
          );
        }
      }
    }),
  );
  return tally;
}

/**
 * `flood` in a child process (flood-cli.ts) starting at `startAt` (ms since the epoch), so that the quiet user's
 * timer, in this process, shares no event loop with the flooding clients.
 */
export async function floodInChild(
  users: Session[],
  batchers: number,
  seconds: number,
  startAt: number,
  workDir: string,
): Promise<FloodTally> {
  const out = path.join(workDir, 'flood-tally.json');
  const child = spawnTsx(
    'flood',
    'bench/scale/flood-cli.ts',
    { FLOOD_SPEC: JSON.stringify({ users, batchers, seconds, startAt, out }) },
    path.join(workDir, 'flood.log'),
  );
  const code = await new Promise<number | null>((resolve) => child.process.once('exit', resolve));
  if (code !== 0 || !fs.existsSync(out))
    throw new Error(`the flood process failed (${code}):\n${child.log().slice(-2000)}`);
  return JSON.parse(fs.readFileSync(out, 'utf8')) as FloodTally;
}

/** Starts the noisy organization's big assessment (it is deleted at the end of the phase, answered or not). */
export async function startBigAssessment(admin: Session, n: number): Promise<string> {
  const res = await call<{ id: string }>(admin, 'POST', '/api/assessments/import-csv', {
    body: { csvContent: questionnaireCsv(n, 'noisy'), name: `Noisy ${n}` },
    expect: 201,
  });
  return res.data.id;
}

const f0 = (n: number) => n.toFixed(0);
const f1 = (n: number) => n.toFixed(1);

/** The quiet organization's figures alone and beside the flood, with the ratio the target is about. */
export function noisyReport(alone: QuietRun, beside: QuietRun, tally: FloodTally, seconds: number): string[] {
  const p = (r: QuietRun, q: number) => percentile(r.asks, q);
  const worst = (r: QuietRun) => Math.max(0, ...r.assessmentSeconds);
  const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
  const ratio = (a: number, b: number) => (a > 0 ? `${(b / a).toFixed(2)}×` : 'n/a');
  return [
    '| the other organization | asks | ask p50 | ask p95 | /api/health p95 | 1-question assessments | mean | worst |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
    `| alone | ${alone.asks.length} | ${f0(p(alone, 0.5))} ms | ${f0(p(alone, 0.95))} ms | ${f0(percentile(alone.health, 0.95))} ms | ${alone.assessmentSeconds.length} | ${f1(mean(alone.assessmentSeconds))} s | ${f1(worst(alone))} s |`,
    `| beside the flood | ${beside.asks.length} | ${f0(p(beside, 0.5))} ms | ${f0(p(beside, 0.95))} ms | ${f0(percentile(beside.health, 0.95))} ms | ${beside.assessmentSeconds.length} | ${f1(mean(beside.assessmentSeconds))} s | ${f1(worst(beside))} s |`,
    '',
    `Ratio beside the flood / alone (target ≤ 2×): ask p95 ${ratio(p(alone, 0.95), p(beside, 0.95))}, ` +
      `1-question assessment mean ${ratio(mean(alone.assessmentSeconds), mean(beside.assessmentSeconds))}.`,
    `The flood in ${seconds} s: ${tally.admitted} requests admitted (${tally.questions} questions answered), ` +
      `${tally.refused} refused with 429, ${tally.other} other failures.`,
  ];
}
