/**
 * What bench:quality and bench:fit share: every question analysed once per company (the engine's own
 * `analyzeQuestion`, with and without embeddings), the decision models fitted on any subset of those analyses, and
 * the engine's own `decide` judged on another subset. A fold's models never see its held-out questions.
 */
import MiniSearch from 'minisearch';
import fs from 'node:fs';
import path from 'node:path';
import { analyzeQuestion, type Analysis } from '../../server/engine/analyze';
import { decide, documentFeaturesOf } from '../../server/engine/ranking/decide';
import {
  ANSWER_FEATURES,
  DOCUMENT_FEATURES,
  ENTRY_FEATURES,
  answerFeatures,
  type EntryFeatures,
} from '../../server/engine/ranking/features';
import type { EngineModels } from '../../server/engine/ranking/models';
import { candidateFeatures, sigmoid } from '../../server/engine/ranking/score';
import { THRESHOLDS } from '../../server/engine/ranking/thresholds';
import type { Embedder } from '../../server/embedding/embedder';
import { openBench, type Company, type Expect, type Question } from './setup';

export type Mode = 'dense' | 'lexical';

export type Item = {
  q: Question;
  analyses: Partial<Record<Mode, Analysis>>;
  /** Database id of a library entry → the dataset's id. */
  labelOf: Map<string, string | null>;
  /** The BM25 baseline's answer, computed over the company's own data. */
  baseline: Given;
};

export type Given = { kind: 'library' | 'document' | 'none'; entry: string | null; text: string; confidence: number };
export type Outcome = { item: Item; given: Given; correct: boolean; wrong: boolean };

/** Loads each company, analyses each of its questions in each mode, and computes the baseline's answer. */
export async function collect(
  companies: Company[],
  embedder: Embedder | null,
  log: (line: string) => void = () => {},
): Promise<Item[]> {
  const items: Item[] = [];
  for (const company of companies) {
    const started = Date.now();
    const bench = await openBench(company, embedder);
    const bm25 = baseline(company);
    try {
      for (const q of company.questions) {
        const analyses: Item['analyses'] = {
          lexical: await analyzeQuestion(bench.scope, q.question, {}),
        };
        if (embedder) analyses.dense = await analyzeQuestion(bench.scope, q.question, { embedder });
        items.push({ q, analyses, labelOf: bench.labelOf, baseline: bm25(q.question) });
      }
    } finally {
      await bench.close();
    }
    log(
      `${company.slug}: ${company.questions.length} questions analysed in ${((Date.now() - started) / 1000).toFixed(0)} s`,
    );
  }
  return items;
}

// ---------------------------------------------------------------------------------------------------------------
// Judging

export function judge(item: Item, given: Given): Outcome {
  const { expect } = item.q;
  const answered = given.kind !== 'none';
  let correct: boolean;
  if (expect.kind === 'library') correct = given.kind === 'library' && expect.entries.includes(given.entry ?? '');
  else if (expect.kind === 'document') {
    // Only an answer from the documents counts: some facts ("30 days") also occur in unrelated library answers.
    correct = given.kind === 'document' && documentAnswers(expect, given.text);
  } else correct = !answered;
  return { item, given, correct, wrong: answered && !correct };
}

const wordsOf = (text: string) => new Set(text.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? []);

/**
 * Whether a document answer's text carries what the label asks: every fact verbatim, and at least
 * PASSAGE_OVERLAP of the labelled passage's words (the answer may cut the passage to its best sentences).
 */
const PASSAGE_OVERLAP = 0.6;
export function documentAnswers(expect: Extract<Expect, { kind: 'document' }>, text: string): boolean {
  const lower = text.toLowerCase();
  if (!expect.facts.every((f) => lower.includes(f.toLowerCase()))) return false;
  if (!expect.passage) return true;
  const want = wordsOf(expect.passage);
  const have = wordsOf(text);
  const shared = [...want].filter((w) => have.has(w)).length;
  return want.size > 0 && shared / want.size >= PASSAGE_OVERLAP;
}

/** The engine's decision for an analysed question under the given models. */
export function engineAnswer(item: Item, mode: Mode, models: EngineModels): Given {
  const a = item.analyses[mode];
  if (!a) throw new Error(`no ${mode} analysis`);
  const d = decide(a, models);
  if (d.kind === 'library')
    return {
      kind: 'library',
      entry: item.labelOf.get(d.best.candidate.id) ?? null,
      text: d.best.candidate.answer,
      confidence: d.best.confidence,
    };
  if (d.kind === 'document') return { kind: 'document', entry: null, text: a.extract.text, confidence: d.confidence };
  return { kind: 'none', entry: null, text: '', confidence: 0 };
}

export type Figures = {
  n: number;
  library: number;
  top1: number;
  documents: number;
  recall: number;
  uncovered: number;
  abstain: number;
  wrong: number;
  /** Answers shown at ≥ 80% confidence, and the share of them that is wrong. */
  confident: number;
  confidentWrong: number;
};

export function figures(outcomes: Outcome[]): Figures {
  const of = (kind: string) => outcomes.filter((o) => o.item.q.expect.kind === kind);
  const pct = (xs: Outcome[], f: (o: Outcome) => boolean) => (xs.length ? (100 * xs.filter(f).length) / xs.length : 0);
  const confident = outcomes.filter((o) => o.given.kind !== 'none' && o.given.confidence >= 0.8);
  return {
    n: outcomes.length,
    library: of('library').length,
    top1: pct(of('library'), (o) => o.correct),
    documents: of('document').length,
    recall: pct(of('document'), (o) => o.correct),
    uncovered: of('none').length,
    abstain: pct(of('none'), (o) => o.correct),
    wrong: pct(outcomes, (o) => o.wrong),
    confident: confident.length,
    confidentWrong: pct(confident, (o) => o.wrong),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Fitting

type Example = { xs: number[][]; labels: number[] };

const L2 = Number(process.env.L2 ?? 0.01);
const STEPS = Number(process.env.STEPS ?? 3000);
/** Steps of a cross-fitting refit, warm-started from the fold's own fit. */
const WARM_STEPS = Number(process.env.WARM_STEPS ?? 300);

function probabilities(xs: number[][], w: number[], b: number): { p: number[]; none: number } {
  const s = xs.map((x) => x.reduce((acc, v, i) => acc + v * (w[i] ?? 0), b));
  const top = Math.max(0, ...s);
  const e = s.map((v) => Math.exp(v - top));
  const z = Math.exp(-top) + e.reduce((a, v) => a + v, 0);
  return { p: e.map((v) => v / z), none: Math.exp(-top) / z };
}

/**
 * A conditional logit with "none" at logit 0, by full-batch Adam with an L2 penalty. A question with several
 * acceptable candidates is fitted to their summed probability; one with none acceptable to "none". The rows are
 * packed into one typed array once: with the training companies a fold holds ~60,000 candidate rows, refitted
 * thousands of times. `from` warm-starts it (the problem is convex: a nearby fit needs far fewer steps).
 */
function fitLogit(examples: Example[], k: number, from?: { w: number[]; b: number; steps: number }) {
  let rows = 0;
  for (const ex of examples) rows += ex.xs.length;
  const X = new Float64Array(rows * k);
  const starts = new Int32Array(examples.length + 1);
  const good = new Uint8Array(rows);
  let r = 0;
  examples.forEach((ex, e) => {
    starts[e] = r;
    ex.xs.forEach((x, j) => {
      for (let i = 0; i < k; i++) X[r * k + i] = x[i] ?? 0;
      good[r] = ex.labels.includes(j) ? 1 : 0;
      r++;
    });
  });
  starts[examples.length] = r;
  const w = new Float64Array(k);
  if (from) from.w.forEach((v, i) => (w[i] = v));
  let b = from ? from.b : -2;
  const m = new Float64Array(k + 1);
  const v = new Float64Array(k + 1);
  const s = new Float64Array(rows);
  const g = new Float64Array(k + 1);
  // A warm start sits near the optimum already: full-size Adam steps would only shake it.
  const rate = from ? 0.01 : 0.05;
  const steps = from ? from.steps : STEPS;
  const n = Math.max(1, examples.length);
  for (let step = 1; step <= steps; step++) {
    g.fill(0);
    for (let e = 0; e < examples.length; e++) {
      const lo = starts[e] as number;
      const hi = starts[e + 1] as number;
      if (lo === hi) continue;
      let top = 0;
      for (let j = lo; j < hi; j++) {
        let acc = b;
        for (let i = 0; i < k; i++) acc += (X[j * k + i] as number) * (w[i] as number);
        s[j] = acc;
        if (acc > top) top = acc;
      }
      let z = Math.exp(-top);
      for (let j = lo; j < hi; j++) {
        s[j] = Math.exp((s[j] as number) - top);
        z += s[j] as number;
      }
      let goodMass = 0;
      for (let j = lo; j < hi; j++) {
        s[j] = (s[j] as number) / z;
        if (good[j]) goodMass += s[j] as number;
      }
      for (let j = lo; j < hi; j++) {
        const p = s[j] as number;
        const d = p - (good[j] && goodMass > 0 ? p / goodMass : 0);
        if (d === 0) continue;
        for (let i = 0; i < k; i++) g[i] = (g[i] as number) + d * (X[j * k + i] as number);
        g[k] = (g[k] as number) + d;
      }
    }
    for (let i = 0; i <= k; i++) {
      const gi = (g[i] as number) / n + (i < k ? L2 * (w[i] as number) : 0);
      m[i] = 0.9 * (m[i] as number) + 0.1 * gi;
      v[i] = 0.999 * (v[i] as number) + 0.001 * gi * gi;
      const step_ =
        (rate * ((m[i] as number) / (1 - 0.9 ** step))) / (Math.sqrt((v[i] as number) / (1 - 0.999 ** step)) + 1e-8);
      if (i < k) w[i] = (w[i] as number) - step_;
      else b -= step_;
    }
  }
  return { w: [...w], b };
}

const named = <T extends readonly string[]>(names: T, w: number[]) =>
  Object.fromEntries(names.map((n, i) => [n, Number((w[i] ?? 0).toFixed(3))])) as Record<T[number], number>;

/**
 * What a wrong answer costs, in right answers: the thresholds maximise right − COST × wrong. Two: a reviewer must
 * first notice a wrong answer and then write the right one anyway, while "Needs Review" only costs the writing.
 */
const WRONG_COST = Number(process.env.WRONG_COST ?? 2);

/**
 * Fits the entry model, its threshold, then the document model and its threshold, on `items` only. Features
 * that do not exist in a mode (the vector ones without embeddings) are fixed at weight 0.
 */
const exampleCache = new WeakMap<Analysis, Example>();

/** One question's candidates as feature rows, with the acceptable ones' indexes (computed once per analysis). */
function entryExample(it: Item, mode: Mode): Example {
  const a = it.analyses[mode] as Analysis;
  const hit = exampleCache.get(a);
  if (hit) return hit;
  const zero = ENTRY_FEATURES.map((n) => mode === 'lexical' && /vector/i.test(n));
  const feats = candidateFeatures(a.question, a.entries, a.weights, a.passage);
  const xs = feats.map((f) => ENTRY_FEATURES.map((name, i) => (zero[i] ? 0 : f[name])));
  const want = it.q.expect.kind === 'library' ? it.q.expect.entries : [];
  const labels = a.entries.flatMap((c, j) => (want.includes(it.labelOf.get(c.id) ?? '') ? [j] : []));
  const ex = { xs, labels };
  exampleCache.set(a, ex);
  return ex;
}

/** The best candidate's index and confidence under weights w, b (as rankEntries computes them). */
function topOf(ex: Example, w: number[], b: number): { index: number; confidence: number } {
  const { p } = probabilities(ex.xs, w, b);
  let index = -1;
  let confidence = 0;
  p.forEach((v, j) => {
    if (v > confidence) {
      confidence = v;
      index = j;
    }
  });
  return { index, confidence };
}

const dotWith = (x: number[], w: number[], b: number) => x.reduce((acc, v, i) => acc + v * (w[i] ?? 0), b);

/** The answer model's row for one question: the best candidate's ANSWER_FEATURES and whether it is right. */
function answerRow(it: Item, ex: Example, w: number[], b: number): { x: number[]; y: number; index: number } | null {
  const a = it.analyses.dense as Analysis;
  if (ex.xs.length === 0) return null;
  const logits = ex.xs.map((x) => dotWith(x, w, b));
  const order = logits.map((_, j) => j).sort((i, j) => (logits[j] ?? 0) - (logits[i] ?? 0));
  const [bi, si] = order as [number, number | undefined];
  const { p } = probabilities(ex.xs, w, b);
  const f = answerFeatures(
    {
      logit: logits[bi] ?? 0,
      confidence: p[bi] ?? 0,
      vector: a.entries[bi]?.vector ?? 0,
      // The row the entry model was fitted on is the candidate's features, in ENTRY_FEATURES order.
      features: Object.fromEntries(ENTRY_FEATURES.map((n, i) => [n, ex.xs[bi]?.[i] ?? 0])) as EntryFeatures,
    },
    si === undefined ? undefined : { logit: logits[si] ?? 0 },
    a.entries.map((c) => c.vector ?? 0),
  );
  return { x: ANSWER_FEATURES.map((n) => f[n]), y: ex.labels.includes(bi) ? 1 : 0, index: bi };
}

/**
 * A plain logistic regression with an L2 penalty, fitted on standardized features and returned in the original
 * units (so the engine applies it without scaling).
 */
function fitLogistic(xs: number[][], ys: number[]): { w: number[]; b: number } {
  const k = xs[0]?.length ?? 0;
  const n = Math.max(1, xs.length);
  const mean = new Array<number>(k).fill(0);
  const sd = new Array<number>(k).fill(0);
  for (const x of xs) x.forEach((v, i) => (mean[i] = (mean[i] ?? 0) + v / n));
  for (const x of xs) x.forEach((v, i) => (sd[i] = (sd[i] ?? 0) + (v - (mean[i] ?? 0)) ** 2 / n));
  const scale = sd.map((v) => Math.sqrt(v) || 1);
  const zs = xs.map((x) => x.map((v, i) => (v - (mean[i] ?? 0)) / (scale[i] ?? 1)));
  const w = new Array<number>(k).fill(0);
  let b = 0;
  for (let step = 0; step < 2000; step++) {
    const g = new Array<number>(k).fill(0);
    let gb = 0;
    zs.forEach((z, j) => {
      const d = sigmoid(dotWith(z, w, b)) - (ys[j] ?? 0);
      z.forEach((v, i) => (g[i] = (g[i] ?? 0) + d * v));
      gb += d;
    });
    for (let i = 0; i < k; i++) w[i] = (w[i] ?? 0) - 0.5 * ((g[i] ?? 0) / n + L2 * (w[i] ?? 0));
    b -= (0.5 * gb) / n;
  }
  const raw = w.map((v, i) => v / (scale[i] ?? 1));
  return { w: raw, b: b - raw.reduce((acc, v, i) => acc + v * (mean[i] ?? 0), 0) };
}

export function fitModels(items: Item[], mode: Mode): EngineModels {
  const used = items.filter((it) => it.analyses[mode]);
  const zeroed = (names: readonly string[]) => names.map((n) => mode === 'lexical' && /vector/i.test(n));
  const entryExamples: Example[] = used.map((it) => entryExample(it, mode));
  const entry = fitLogit(entryExamples, ENTRY_FEATURES.length);
  const models: EngineModels = {
    entry: { bias: Number(entry.b.toFixed(3)), weights: named(ENTRY_FEATURES, entry.w) },
    document: { bias: -50, weights: named(DOCUMENT_FEATURES, []) },
    thresholds: { library: 1.01, document: 1.01 },
  };
  // Dense: the answer model recalibrates the best entry's confidence (fitted on the same questions' rankings).
  let tops = entryExamples.map((ex) => topOf(ex, entry.w, entry.b));
  if (mode === 'dense') {
    // Cross-fitted: each company's rows come from an entry model fitted without that company, so the calibrator
    // learns how far held-out rankings can be trusted, not how well the ranker remembers its own training data.
    const companies = [...new Set(used.map((it) => it.q.company))];
    const outOfFold = new Map<string, { w: number[]; b: number }>();
    for (const c of companies.length > 1 ? companies : []) {
      const rest = used.flatMap((it, n) => (it.q.company === c ? [] : [entryExamples[n] as Example]));
      outOfFold.set(c, fitLogit(rest, ENTRY_FEATURES.length, { ...entry, steps: WARM_STEPS }));
    }
    const rows = used.map((it, n) => {
      const m = outOfFold.get(it.q.company) ?? entry;
      return answerRow(it, entryExamples[n] as Example, m.w, m.b);
    });
    const calibrator = fitLogistic(
      rows.flatMap((r) => (r ? [r.x] : [])),
      rows.flatMap((r) => (r ? [r.y] : [])),
    );
    models.answer = { bias: Number(calibrator.b.toFixed(3)), weights: named(ANSWER_FEATURES, calibrator.w) };
    tops = tops.map((top, n) => {
      const r = rows[n];
      return r ? { index: r.index, confidence: sigmoid(dotWith(r.x, calibrator.w, calibrator.b)) } : top;
    });
  }
  // Library threshold: the best right − COST·wrong over the library decision alone.
  let bestScore = -Infinity;
  for (const t of [0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9]) {
    let score = 0;
    tops.forEach((top, n) => {
      if (top.index < 0 || top.confidence < t) return;
      score += entryExamples[n]?.labels.includes(top.index) ? 1 : -WRONG_COST;
    });
    if (score > bestScore) {
      bestScore = score;
      models.thresholds.library = t;
    }
  }
  // The document model, on the questions the library leaves.
  const docZero = zeroed(DOCUMENT_FEATURES);
  const docExamples: Example[] = [];
  const docUsable: boolean[] = [];
  used.forEach((it, n) => {
    const a = it.analyses[mode] as Analysis;
    const libraryConfidence = tops[n]?.confidence ?? 0;
    if (libraryConfidence >= models.thresholds.library) return;
    const f = documentFeaturesOf(a, libraryConfidence);
    const right =
      it.q.expect.kind === 'document' &&
      a.extract.matchedTerms >= THRESHOLDS.documentMinTerms &&
      documentAnswers(it.q.expect, a.extract.text);
    docExamples.push({
      xs: [DOCUMENT_FEATURES.map((name, i) => (docZero[i] ? 0 : f[name]))],
      labels: right ? [0] : [],
    });
    docUsable.push(Boolean(a.extract.text) && a.extract.matchedTerms >= THRESHOLDS.documentMinTerms);
  });
  const doc = fitLogit(docExamples, DOCUMENT_FEATURES.length);
  models.document = { bias: Number(doc.b.toFixed(3)), weights: named(DOCUMENT_FEATURES, doc.w) };
  const docP = docExamples.map((ex) => probabilities(ex.xs, doc.w, doc.b).p[0] ?? 0);
  bestScore = -Infinity;
  for (const t of [0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 1.01]) {
    let score = 0;
    docExamples.forEach((ex, n) => {
      if (!docUsable[n] || (docP[n] ?? 0) < t) return;
      score += ex.labels.length > 0 ? 1 : -WRONG_COST;
    });
    if (score > bestScore) {
      bestScore = score;
      models.thresholds.document = t;
    }
  }
  return models;
}

// ---------------------------------------------------------------------------------------------------------------
// Retrieval diagnostics and the baseline

/** Where the right entry is among the ranked candidates (0-based), or -1 when retrieval missed it. */
export function rightRank(item: Item, mode: Mode, models: EngineModels): number {
  const a = item.analyses[mode];
  if (!a || item.q.expect.kind !== 'library') return -1;
  const want = item.q.expect.entries;
  return decide(a, models).ranked.findIndex((r) => want.includes(item.labelOf.get(r.candidate.id) ?? ''));
}

/** BM25 over library entries and document paragraphs: the best hit answers, no hit abstains. */
function baseline(company: Company): (question: string) => Given {
  type Doc = { id: string; kind: 'library' | 'document'; text: string; answer: string };
  const docs: Doc[] = company.library.map((l) => ({
    id: l.id,
    kind: 'library',
    text: `${l.question} ${l.tags.join(' ')} ${l.answer}`,
    answer: l.answer,
  }));
  for (const f of company.docFiles) {
    const paragraphs = fs
      .readFileSync(path.join(company.docDir, f), 'utf8')
      .split(/\n\s*\n/)
      .filter((p) => p.trim() && !p.trim().startsWith('#'));
    paragraphs.forEach((p, i) => docs.push({ id: `${f}#${i}`, kind: 'document', text: p, answer: p }));
  }
  const index = new MiniSearch<Doc>({ fields: ['text'], storeFields: ['kind', 'answer'] });
  index.addAll(docs);
  return (question) => {
    const [hit] = index.search(question);
    const doc = hit && docs.find((d) => d.id === hit.id);
    if (!doc) return { kind: 'none', entry: null, text: '', confidence: 0 };
    return doc.kind === 'library'
      ? { kind: 'library', entry: doc.id, text: doc.answer, confidence: 1 }
      : { kind: 'document', entry: null, text: doc.answer, confidence: 1 };
  };
}
