/**
 * bench:calibration — whether a workspace's own recalibration of the confidence (server/engine/ranking/
 * recalibrate.ts) says more truly than the engine's global one how often an answer will be kept.
 *
 * The bench:quality questions (the real companies and the training companies) are analysed once (bench/quality's
 * `collect`) and each company's questions are answered by models fitted without that company (leave one company
 * out), so no answer comes from a model that saw its question. Every answer the engine gives (library or document;
 * a 'Needs Review' has nothing to keep) becomes one review, kept when it is right. The reviews are shuffled
 * (seeded) into a stream; after 200, 500 and 1,000 of them a recalibration is fitted on those alone and judged on
 * every review it never saw, by the expected calibration error (ECE, points, ten bins) of the global confidence and
 * of the recalibrated one. Each figure is the mean over RUNS shuffles.
 *
 *   npm run bench:calibration
 *   RUNS=10 npm run bench:calibration
 *   MODES=lexical npm run bench:calibration      # the engine without a model
 *
 * The reviews of several companies are pooled: one company's questions are too few for a stream of 1,000, and the
 * figure measures how the recalibration learns, not one company's library.
 */
import pino from 'pino';
import { loadConfig } from '../server/config';
import { calibrationError, fitRecalibration, recalibrate, type Review } from '../server/engine/ranking/recalibrate';
import { qualityEmbedder } from './quality/embedder';
import { collect, engineAnswer, fitModels, judge, type Mode } from './quality/evaluate';
import { loadCompanies } from './quality/setup';
import { loadTrainingCompanies, trainingQuestionsBuilt } from './quality/training-companies';

const STREAM_POINTS = [200, 500, 1000];
const RUNS = Number(process.env.RUNS ?? 5);
const MODE = (process.env.MODES ?? 'dense').split(',')[0] as Mode;

/** A deterministic shuffle (mulberry32), so every run of the bench replays the same streams. */
function shuffled<T>(items: readonly T[], seed: number): T[] {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const out = [...items];
  for (let i = out.length - 1; i > 0; i -= 1) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

async function main() {
  const companies = [
    ...loadCompanies().filter((c) => !c.synthetic),
    ...(trainingQuestionsBuilt() ? loadTrainingCompanies() : []),
  ];
  const config = loadConfig({ ...process.env, EMBEDDING_PROVIDER: 'local' });
  const embedder = MODE === 'dense' ? await qualityEmbedder(config.embedding, pino({ level: 'warn' })) : null;
  const started = Date.now();
  const items = await collect(companies, embedder, (l) => console.log(l));
  await embedder?.close();

  const reviews: Review[] = [];
  for (const company of companies) {
    const models = fitModels(
      items.filter((i) => i.q.company !== company.slug),
      MODE,
    );
    for (const item of items.filter((i) => i.q.company === company.slug)) {
      const outcome = judge(item, engineAnswer(item, MODE, models));
      if (outcome.given.kind === 'none') continue;
      reviews.push({ confidence: Math.round(outcome.given.confidence * 100), kept: outcome.correct });
    }
  }
  const kept = reviews.filter((r) => r.kept).length;
  console.log(
    `\n${reviews.length} answers given (${kept} right: kept by the reviewer) over ${items.length} questions of ${companies.length} companies, ${MODE} engine, leave one company out; ${RUNS} shuffles`,
  );
  console.log(
    `all of them: ECE of the global confidence ${calibrationError(reviews, (r) => r.confidence).toFixed(1)} points`,
  );
  for (const n of STREAM_POINTS) {
    if (reviews.length - n < 50) {
      console.log(`after ${String(n).padStart(5)} reviews: not measured (only ${reviews.length} answers in all)`);
      continue;
    }
    let global = 0;
    let own = 0;
    for (let run = 0; run < RUNS; run += 1) {
      const stream = shuffled(reviews, 1000 + run);
      const seen = stream.slice(0, n);
      const unseen = stream.slice(n);
      const map = fitRecalibration(seen);
      global += calibrationError(unseen, (r) => r.confidence);
      own += calibrationError(unseen, (r) => recalibrate(map, r.confidence));
    }
    console.log(
      `after ${String(n).padStart(5)} reviews: ECE on the ${reviews.length - n} unseen  global ${(global / RUNS).toFixed(1)}  recalibrated ${(own / RUNS).toFixed(1)} points`,
    );
  }
  console.log(`\ntotal ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
