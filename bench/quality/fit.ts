/**
 * bench:fit — fits the library entry model (server/engine/entry-model.ts) on the TUNING split of bench:quality and
 * rewrites that file. The test split is never read here; `npm run bench:quality` reports on it afterwards.
 *
 * The model is a conditional logit: for each question, its retrieved candidates compete with "no entry answers
 * it" (logit 0). A library question's label is its entry when retrieval found it, else "none"; document and
 * uncovered questions are labelled "none". Fitted by full-batch gradient descent with an L2 penalty.
 *
 *   npm run bench:fit              # fit and write the model
 *   DRY=1 npm run bench:fit        # fit and print, write nothing
 */
import fs from 'node:fs';
import path from 'node:path';
import { composeExtractive } from '../../server/engine/compose';
import { DOCUMENT_FEATURES, ENTRY_FEATURES } from '../../server/engine/features';
import { candidateFeatures, extractFeatures, passageCoverage } from '../../server/engine/score';
import { retrieveChunks, retrieveEntries } from '../../server/engine/retrieve';
import { termWeights } from '../../server/engine/term-weights';
import { THRESHOLDS } from '../../server/engine/thresholds';
import { openBench, questions } from './setup';

type Example = { xs: number[][]; label: number | null; id: string };

/** L2 penalties tried; the one with the best held-out loss in 4-fold cross-validation on the tuning split wins. */
const L2_CHOICES = process.env.L2 ? [Number(process.env.L2)] : [0.001, 0.002, 0.005, 0.01, 0.02, 0.05];
let L2 = L2_CHOICES[0] ?? 0.02;
const STEPS = Number(process.env.STEPS ?? 6000);

function logits(xs: number[][], w: number[], b: number): number[] {
  return xs.map((x) => x.reduce((s, v, i) => s + v * (w[i] ?? 0), b));
}

function probabilities(s: number[]): { p: number[]; none: number } {
  const top = Math.max(0, ...s);
  const e = s.map((v) => Math.exp(v - top));
  const z = Math.exp(-top) + e.reduce((a, v) => a + v, 0);
  return { p: e.map((v) => v / z), none: Math.exp(-top) / z };
}

function fit(examples: Example[], k: number): { w: number[]; b: number; loss: number } {
  const w = new Array<number>(k).fill(0);
  let b = -2;
  // Adam: the features differ in scale and correlation, plain steps crawl.
  const m = new Array<number>(k + 1).fill(0);
  const v = new Array<number>(k + 1).fill(0);
  let loss = 0;
  for (let step = 1; step <= STEPS; step++) {
    const g = new Array<number>(k + 1).fill(0);
    loss = 0;
    for (const ex of examples) {
      const { p, none } = probabilities(logits(ex.xs, w, b));
      loss -= Math.log(Math.max(1e-12, ex.label === null ? none : (p[ex.label] ?? 0)));
      ex.xs.forEach((x, j) => {
        const d = (p[j] ?? 0) - (j === ex.label ? 1 : 0);
        x.forEach((val, i) => (g[i] = (g[i] ?? 0) + d * val));
        g[k] = (g[k] ?? 0) + d;
      });
    }
    for (let i = 0; i < k; i++) g[i] = (g[i] ?? 0) / examples.length + L2 * (w[i] ?? 0);
    g[k] = (g[k] ?? 0) / examples.length;
    for (let i = 0; i <= k; i++) {
      const gi = g[i] ?? 0;
      m[i] = 0.9 * (m[i] ?? 0) + 0.1 * gi;
      v[i] = 0.999 * (v[i] ?? 0) + 0.001 * gi * gi;
      const step_ = (0.02 * ((m[i] ?? 0) / (1 - 0.9 ** step))) / (Math.sqrt((v[i] ?? 0) / (1 - 0.999 ** step)) + 1e-8);
      if (i < k) w[i] = (w[i] ?? 0) - step_;
      else b -= step_;
    }
  }
  return { w, b, loss: loss / examples.length };
}

function heldOutLoss(examples: Example[], k: number): number {
  let loss = 0;
  for (let fold = 0; fold < 4; fold++) {
    const { w, b } = fit(
      examples.filter((_, i) => i % 4 !== fold),
      k,
    );
    for (const ex of examples.filter((_, i) => i % 4 === fold)) {
      const { p, none } = probabilities(logits(ex.xs, w, b));
      loss -= Math.log(Math.max(1e-12, ex.label === null ? none : (p[ex.label] ?? 0)));
    }
  }
  return loss / examples.length;
}

/** Each example's probabilities from a model fitted without its fold: what the sweeps below are judged on. */
function outOfFold(examples: Example[], k: number): Array<{ p: number[]; none: number }> {
  const out: Array<{ p: number[]; none: number }> = [];
  for (let fold = 0; fold < 4; fold++) {
    const { w, b } = fit(
      examples.filter((_, i) => i % 4 !== fold),
      k,
    );
    examples.forEach((ex, i) => {
      if (i % 4 === fold) out[i] = probabilities(logits(ex.xs, w, b));
    });
  }
  return out;
}

function chooseL2(examples: Example[], k: number): number {
  let best = { l2: L2_CHOICES[0] ?? 0.02, loss: Infinity };
  for (const l2 of L2_CHOICES) {
    L2 = l2;
    const loss = heldOutLoss(examples, k);
    console.log(`  L2 ${l2}: held-out loss ${loss.toFixed(3)}`);
    if (loss < best.loss) best = { l2, loss };
  }
  return best.l2;
}

async function main() {
  const bench = await openBench();
  try {
    const weights = await termWeights(bench.scope);
    const tune = questions.filter((q) => q.split === 'tune');
    const examples: Example[] = [];
    for (const q of tune) {
      const candidates = await retrieveEntries(bench.scope, q.question);
      // As the engine does: the documents' best passage is part of the library decision.
      const passage = passageCoverage(
        q.question,
        composeExtractive(q.question, await retrieveChunks(bench.scope, q.question), [], weights),
        weights,
      );
      const xs = candidateFeatures(q.question, candidates, weights, passage).map((f) =>
        ENTRY_FEATURES.map((name) => f[name]),
      );
      const want = q.expect.kind === 'library' ? q.expect.entry : null;
      const index = candidates.findIndex((c) => want !== null && bench.labelOf.get(c.id) === want);
      examples.push({ xs, label: index >= 0 ? index : null, id: q.id });
    }
    L2 = chooseL2(examples, ENTRY_FEATURES.length);
    const { w, b, loss } = fit(examples, ENTRY_FEATURES.length);
    const entryOof = outOfFold(examples, ENTRY_FEATURES.length);

    // What the fitted model does on the tuning split, per confidence threshold.
    console.log(`fitted on ${examples.length} tuning questions, mean loss ${loss.toFixed(3)}, L2 ${L2}`);
    console.log('library decision, out-of-fold (each question judged by a model fitted without it):');
    for (const th of [0.3, 0.4, 0.5, 0.6, 0.7, 0.8]) {
      let right = 0;
      let wrong = 0;
      let library = 0;
      for (const [n, ex] of examples.entries()) {
        const q = tune.find((t) => t.id === ex.id);
        if (q?.expect.kind === 'library') library++;
        const { p } = entryOof[n] ?? { p: [] };
        const best = p.reduce((bi, val, i) => (val > (p[bi] ?? -1) ? i : bi), 0);
        if ((p[best] ?? 0) < th) continue;
        if (q?.expect.kind === 'library' && best === ex.label) right++;
        else wrong++;
      }
      console.log(
        `confidence ≥ ${th.toFixed(1)}: library top-1 ${((100 * right) / library).toFixed(1)}%, wrong ${wrong} of ${examples.length}`,
      );
    }
    if (process.env.VERBOSE === '1') {
      for (const ex of examples) {
        const q = tune.find((t) => t.id === ex.id);
        const { p } = probabilities(logits(ex.xs, w, b));
        const best = p.reduce((bi, val, i) => (val > (p[bi] ?? -1) ? i : bi), 0);
        const mark =
          ex.label === null
            ? q?.expect.kind === 'library'
              ? 'NOT-RETRIEVED'
              : 'none'
            : best === ex.label
              ? 'top'
              : `at ${ex.label}`;
        console.log(
          `${ex.id} ${q?.expect.kind} ${mark} p(top)=${(p[best] ?? 0).toFixed(2)} p(right)=${ex.label === null ? '-' : (p[ex.label] ?? 0).toFixed(2)} | ${q?.question}`,
        );
      }
    }
    const named = Object.fromEntries(ENTRY_FEATURES.map((name, i) => [name, Number((w[i] ?? 0).toFixed(3))]));
    console.log({ bias: Number(b.toFixed(3)), weights: named });

    // The document model: for each tuning question, the extractive answer from its retrieved chunks; positive when
    // it is a document question and the answer carries every expected fact.
    const docExamples: Example[] = [];
    const docIds: string[] = [];
    for (const [n, q] of tune.entries()) {
      const ex = examples[n];
      const { p } = probabilities(logits(ex?.xs ?? [], w, b));
      const libraryConfidence = Math.max(0, ...p);
      // The documents are only asked when the library declines.
      if (libraryConfidence >= THRESHOLDS.library) continue;
      const chunks = await retrieveChunks(bench.scope, q.question);
      const extract = composeExtractive(q.question, chunks, [], weights);
      const f = extractFeatures(q.question, extract, weights, libraryConfidence);
      const text = extract.text.toLowerCase();
      const right = q.expect.kind === 'document' && q.expect.facts.every((fact) => text.includes(fact.toLowerCase()));
      docExamples.push({ xs: [DOCUMENT_FEATURES.map((name) => f[name])], label: right ? 0 : null, id: q.id });
      docIds.push(q.id);
      if (process.env.VERBOSE === '1' && q.expect.kind !== 'library') {
        console.log(
          `DOC ${q.id} ${q.expect.kind} right=${right} ${DOCUMENT_FEATURES.map((name) => `${name}=${f[name].toFixed(2)}`).join(' ')}\n   ${extract.text.slice(0, 250)}`,
        );
      }
    }
    L2 = chooseL2(docExamples, DOCUMENT_FEATURES.length);
    const doc = fit(docExamples, DOCUMENT_FEATURES.length);
    const docOof = outOfFold(docExamples, DOCUMENT_FEATURES.length);
    const documents = docExamples.filter((ex) => tune.find((q) => q.id === ex.id)?.expect.kind === 'document').length;
    console.log(`document model: mean loss ${doc.loss.toFixed(3)}`);
    console.log('document decision, out-of-fold:');
    for (const th of [0.3, 0.4, 0.5, 0.6, 0.7]) {
      let right = 0;
      let wrong = 0;
      for (const [n, ex] of docExamples.entries()) {
        const { p } = docOof[n] ?? { p: [] };
        if ((p[0] ?? 0) < th) continue;
        if (ex.label === 0) right++;
        else wrong++;
      }
      console.log(
        `document ≥ ${th.toFixed(1)}: fact recall ${((100 * right) / documents).toFixed(1)}%, wrong ${wrong}`,
      );
    }
    const docNamed = Object.fromEntries(DOCUMENT_FEATURES.map((name, i) => [name, Number((doc.w[i] ?? 0).toFixed(3))]));
    console.log({ bias: Number(doc.b.toFixed(3)), weights: docNamed });
    if (process.env.DRY === '1') return;

    const file = path.join(path.dirname(new URL(import.meta.url).pathname), '../../server/engine/models.ts');
    let source = fs.readFileSync(file, 'utf8');
    const block = (names: readonly string[], ws: number[], bias: number) =>
      `{\n  bias: ${Number(bias.toFixed(3))},\n  weights: {\n${names.map((name, i) => `    ${name}: ${Number((ws[i] ?? 0).toFixed(3))},`).join('\n')}\n  },\n}`;
    for (const [model, body] of [
      ['ENTRY_MODEL', block(ENTRY_FEATURES, w, b)],
      ['DOCUMENT_MODEL', block(DOCUMENT_FEATURES, doc.w, doc.b)],
    ] as const) {
      const re = new RegExp(`export const ${model}: ([^=]+)= \\{[\\s\\S]*?\\n\\};\\n`);
      if (!re.test(source)) throw new Error(`models.ts has no ${model} of the expected shape`);
      source = source.replace(re, `export const ${model}: $1= ${body};\n`);
    }
    fs.writeFileSync(file, source);
    console.log(`wrote ${path.relative(process.cwd(), file)}`);
  } finally {
    await bench.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
