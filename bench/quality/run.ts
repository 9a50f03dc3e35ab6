/**
 * bench:quality — how often Verity's answers are right on questions it was never fitted on (README.md).
 *
 * Every company's library and documents are loaded through the real API into a fresh embedded database, embedded
 * by the built-in model, and every question is analysed by the engine (`analyzeQuestion`). The decision models and
 * thresholds are then fitted per fold WITHOUT the held-out questions (`fitModels`) and the engine's own `decide`
 * is judged on them:
 *   - held out by company and family at once (the headline): for each real company C and family F, fitted on every
 *     question that is neither C's nor F's, judged on C's F questions;
 *   - leave one company out, and leave one family out, for comparison.
 * Printed per family and overall: library top-1, document fact recall, abstention on uncovered questions, the
 * wrong-answer rate and the wrong share among answers shown at ≥ 80% confidence — next to BM25 and, with
 * MODES=dense,lexical, the lexical engine (what runs without a model) fitted the same way.
 *
 *   npm run bench:quality              # all companies
 *   ONLY=northwind,harborview npm run bench:quality
 *   VERBOSE=1 npm run bench:quality    # every held-out miss of the headline folds
 */
import fs from 'node:fs';
import pino from 'pino';
import { decide } from '../../server/engine/ranking/decide';
import { loadConfig } from '../../server/config';
import { qualityEmbedder } from './embedder';
import {
  collect,
  engineAnswer,
  figures,
  fitModels,
  judge,
  rightRank,
  type Item,
  type Mode,
  type Outcome,
} from './evaluate';
import { loadCompanies } from './setup';
import type { EngineModels } from '../../server/engine/ranking/models';
import { loadTrainingCompanies, trainingQuestionsBuilt } from './training-companies';

const VERBOSE = process.env.VERBOSE === '1';
/**
 * DUMP=file writes, for every held-out question of the headline folds, the fold's top candidates (text, whether
 * each is right, the engine's confidence) as JSONL: what an offline experiment (a reranker scoring the same
 * candidates, training/scripts/) needs to be judged on exactly the engine's folds.
 */
const DUMP = process.env.DUMP;
const DUMP_TOP = 5;
const MODES = (process.env.MODES ?? 'dense').split(',') as Mode[];
/** Fit on training/'s companies too (never judged on them); TRAINING=0 leaves them out. */
const TRAINING = process.env.TRAINING !== '0' && trainingQuestionsBuilt();

const fmt = (x: number) => x.toFixed(1).padStart(5);

function line(label: string, outcomes: Outcome[]) {
  const f = figures(outcomes);
  return `${label.padEnd(22)} n=${String(f.n).padStart(4)}  top-1 ${fmt(f.top1)}% (${f.library})  recall ${fmt(f.recall)}% (${f.documents})  abstain ${fmt(f.abstain)}% (${f.uncovered})  wrong ${fmt(f.wrong)}%  ≥80%: ${String(f.confident).padStart(4)} shown, ${fmt(f.confidentWrong)}% wrong`;
}

function report(title: string, outcomes: Map<string, Outcome[]>, families: string[]) {
  console.log(`\n${title}`);
  for (const [who, list] of outcomes) {
    for (const fam of families) {
      const xs = list.filter((o) => o.item.q.family === fam);
      if (xs.length) console.log(line(`  ${who} ${fam}`, xs));
    }
    console.log(line(`  ${who} overall`, list));
  }
}

async function main() {
  const companies = [...loadCompanies(), ...(TRAINING ? loadTrainingCompanies() : [])];
  const config = loadConfig({ ...process.env, EMBEDDING_PROVIDER: 'local' });
  const log = pino({ level: 'warn' });
  const embedder = MODES.includes('dense') ? await qualityEmbedder(config.embedding, log) : null;
  const started = Date.now();
  const items = await collect(companies, embedder, (l) => console.log(l));
  await embedder?.close();
  const real = companies.filter((c) => !c.synthetic && !c.fitOnly).map((c) => c.slug);
  const fitOnly = new Set(companies.filter((c) => c.fitOnly).map((c) => c.slug));
  const families = [...new Set(items.filter((i) => real.includes(i.q.company)).map((i) => i.q.family))].sort();
  console.log(
    `\n${items.length} questions (${real.length} real companies: ${real.join(', ')}; families ${families.join(', ')}; fitted on, never judged: ${[...fitOnly].join(', ') || 'none'}), collected in ${((Date.now() - started) / 1000).toFixed(0)} s`,
  );

  const heldOut = new Map<string, Outcome[]>();
  const add = (who: string, o: Outcome) => heldOut.set(who, [...(heldOut.get(who) ?? []), o]);
  const misses: string[] = [];
  const dumped: string[] = [];
  const ranks: number[] = [];
  for (const c of real) {
    for (const fam of families) {
      const test = items.filter((i) => i.q.company === c && i.q.family === fam);
      if (test.length === 0) continue;
      const train = items.filter((i) => i.q.company !== c && i.q.family !== fam);
      for (const mode of MODES) {
        const models = fitModels(train, mode);
        for (const it of test) {
          const o = judge(it, engineAnswer(it, mode, models));
          add(mode, o);
          if (DUMP && mode === MODES[0]) dumped.push(dumpRow(it, mode, models, o));
          if (mode === MODES[0]) {
            if (it.q.expect.kind === 'library') ranks.push(rightRank(it, mode, models));
            if (!o.correct) misses.push(describeMiss(o));
          }
        }
      }
      if (fitOnly.size > 0) {
        // The same fold fitted without the training companies: what they add.
        const mode = MODES[0] ?? 'dense';
        const models = fitModels(
          train.filter((i) => !fitOnly.has(i.q.company)),
          mode,
        );
        for (const it of test) add(`${mode} w/o training`, judge(it, engineAnswer(it, mode, models)));
      }
      for (const it of test) add('bm25', judge(it, it.baseline));
    }
  }
  if (DUMP) fs.writeFileSync(DUMP, `${dumped.join('\n')}\n`);
  report('Held out by company AND family (fitted without the company and without the family):', heldOut, families);
  const r = (k: number) => ((100 * ranks.filter((x) => x >= 0 && x < k).length) / Math.max(1, ranks.length)).toFixed(1);
  console.log(
    `  retrieval (${MODES[0]}): right entry ranked 1st ${r(1)}%, in top 5 ${r(5)}%, retrieved at all ${r(1000)}%`,
  );

  const loco = new Map<string, Outcome[]>();
  for (const c of real) {
    const test = items.filter((i) => i.q.company === c);
    const models = fitModels(
      items.filter((i) => i.q.company !== c),
      MODES[0] ?? 'dense',
    );
    loco.set(
      c,
      test.map((it) => judge(it, engineAnswer(it, MODES[0] ?? 'dense', models))),
    );
  }
  report(`Leave one company out (${MODES[0]}):`, loco, families);

  const lofo: Outcome[] = [];
  for (const fam of families) {
    const models = fitModels(
      items.filter((i) => i.q.family !== fam),
      MODES[0] ?? 'dense',
    );
    for (const it of items.filter((i) => i.q.family === fam && !fitOnly.has(i.q.company)))
      lofo.push(judge(it, engineAnswer(it, MODES[0] ?? 'dense', models)));
  }
  report(`Leave one family out (${MODES[0]}):`, new Map([['all', lofo]]), families);

  const synthetic = items.filter((i) => !real.includes(i.q.company) && !fitOnly.has(i.q.company));
  if (synthetic.length > 0 && real.length > 0) {
    const models = fitModels(
      items.filter((i) => real.includes(i.q.company) || fitOnly.has(i.q.company)),
      MODES[0] ?? 'dense',
    );
    console.log(
      `\n${line(
        'Northwind (synthetic), fitted on the others',
        synthetic.map((it) => judge(it, engineAnswer(it, MODES[0] ?? 'dense', models))),
      )}`,
    );
  }
  if (VERBOSE) console.log(`\nHeld-out misses (${MODES[0]}):\n${misses.join('\n')}`);
  console.log(`\ntotal ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

function dumpRow(it: Item, mode: Mode, models: EngineModels, o: Outcome): string {
  const a = it.analyses[mode];
  const ranked = a ? decide(a, models).ranked.slice(0, DUMP_TOP) : [];
  const want = it.q.expect.kind === 'library' ? it.q.expect.entries : [];
  return JSON.stringify({
    id: it.q.id,
    family: it.q.family,
    company: it.q.company,
    question: it.q.question,
    expect: it.q.expect.kind,
    given: o.given.kind,
    correct: o.correct,
    candidates: ranked.map((r) => ({
      entry: it.labelOf.get(r.candidate.id) ?? null,
      text: `${r.candidate.question}\n${r.candidate.answer}`,
      right: want.includes(it.labelOf.get(r.candidate.id) ?? ''),
      confidence: r.confidence,
    })),
  });
}

function describeMiss(o: Outcome): string {
  const e = o.item.q.expect;
  const want =
    e.kind === 'library'
      ? `library ${e.entries.join('|')}`
      : e.kind === 'document'
        ? `document [${e.facts.join('; ')}]`
        : 'none';
  const got = o.given.kind === 'library' ? `library ${o.given.entry}` : o.given.kind;
  return `${o.item.q.id} (${o.item.q.family}) want ${want}, got ${got} ${Math.round(o.given.confidence * 100)}% | ${o.item.q.question.slice(0, 140)}`;
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});

export type { Item };
