/**
 * bench:quality — how often Verity's answers are right, on a labelled dataset (bench/quality/README.md), next to a
 * plain BM25 baseline (MiniSearch) over the same data. Loads the library and documents through the real API into a
 * fresh embedded database, asks every question through `POST /api/qa/ask`, and prints per split:
 * library top-1 accuracy, document fact recall, abstention on uncovered questions, and the wrong-answer rate.
 *
 *   npm run bench:quality                # both splits, "test" is the one to report
 *   SPLIT=tune npm run bench:quality     # only the tuning split (while tuning thresholds)
 *   VERBOSE=1 npm run bench:quality      # every miss, with what was answered
 *
 * The engine's decision models are fitted on the tuning split by `npm run bench:fit` (fit.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import MiniSearch from 'minisearch';
import { docDir, docFiles, library, openBench, questions, type Expect, type Question } from './setup';

type Given = { answerType: string; answer: string; libraryId: string | null };

const SPLIT = process.env.SPLIT;
const VERBOSE = process.env.VERBOSE === '1';

type Outcome = { q: Question; given: Given; correct: boolean; wrong: boolean };

function judge(q: Question, given: Given): Outcome {
  const answered = given.answerType !== 'unknown';
  const text = given.answer.toLowerCase();
  if (q.expect.kind === 'library') {
    const correct = answered && given.libraryId === q.expect.entry;
    return { q, given, correct, wrong: answered && !correct };
  }
  if (q.expect.kind === 'document') {
    // Only an answer from the documents counts: some facts ("30 days") also occur in unrelated library answers.
    const correct = given.answerType === 'generated' && q.expect.facts.every((f) => text.includes(f.toLowerCase()));
    return { q, given, correct, wrong: answered && !correct };
  }
  return { q, given, correct: !answered, wrong: answered };
}

function report(name: string, outcomes: Outcome[]) {
  const of = (kind: Expect['kind']) => outcomes.filter((o) => o.q.expect.kind === kind);
  const rate = (xs: Outcome[], f: (o: Outcome) => boolean) => (xs.length ? (100 * xs.filter(f).length) / xs.length : 0);
  return {
    name,
    n: outcomes.length,
    top1: rate(of('library'), (o) => o.correct),
    recall: rate(of('document'), (o) => o.correct),
    abstain: rate(of('none'), (o) => o.correct),
    wrong: rate(outcomes, (o) => o.wrong),
  };
}

/** The baseline: BM25 over library entries and document paragraphs; the best hit answers, no hit abstains. */
function baseline(): (question: string) => Given {
  type Doc = { id: string; kind: 'library' | 'document'; text: string; answer: string };
  const docs: Doc[] = library.map((l) => ({
    id: l.id,
    kind: 'library',
    text: `${l.question} ${l.tags.join(' ')} ${l.answer}`,
    answer: l.answer,
  }));
  for (const f of docFiles) {
    const paragraphs = fs
      .readFileSync(path.join(docDir, f), 'utf8')
      .split(/\n\s*\n/)
      .filter((p) => p.trim() && !p.trim().startsWith('#'));
    paragraphs.forEach((p, i) => docs.push({ id: `${f}#${i}`, kind: 'document', text: p, answer: p }));
  }
  const index = new MiniSearch<Doc>({ fields: ['text'], storeFields: ['kind', 'answer'] });
  index.addAll(docs);
  return (question) => {
    const [hit] = index.search(question);
    if (!hit) return { answerType: 'unknown', answer: '', libraryId: null };
    const doc = docs.find((d) => d.id === hit.id);
    if (!doc) return { answerType: 'unknown', answer: '', libraryId: null };
    return doc.kind === 'library'
      ? { answerType: 'canonical', answer: doc.answer, libraryId: doc.id }
      : { answerType: 'generated', answer: doc.answer, libraryId: null };
  };
}

async function main() {
  const { api, labelOf, close } = await openBench();
  try {
    const bm25 = baseline();
    const chosen = questions.filter((q) => !SPLIT || q.split === SPLIT);
    const verity: Outcome[] = [];
    const plain: Outcome[] = [];
    const started = performance.now();
    for (const q of chosen) {
      const res = (await api('POST', '/api/qa/ask', { question: q.question })) as {
        answerType: string;
        answer: string;
        sources: Array<{ type: string; canonicalAnswerId?: string }>;
      };
      const top = res.sources.find((s) => s.type === 'library');
      const libraryId =
        res.answerType === 'canonical' || res.answerType === 'draft'
          ? (labelOf.get(top?.canonicalAnswerId ?? '') ?? null)
          : null;
      verity.push(judge(q, { answerType: res.answerType, answer: res.answer, libraryId }));
      plain.push(judge(q, bm25(q.question)));
    }
    const perQuestion = (performance.now() - started) / Math.max(1, chosen.length);

    console.log(
      `Dataset: ${library.length} library entries, ${docFiles.length} documents, ${chosen.length} questions` +
        `${SPLIT ? ` (split ${SPLIT})` : ''}; ${perQuestion.toFixed(1)} ms per ask over HTTP.\n`,
    );
    const pct = (x: number) => `${x.toFixed(1)}%`.padStart(8);
    console.log('split  engine     n   top-1  fact recall  abstention  wrong answers');
    for (const split of SPLIT ? [SPLIT] : ['tune', 'test']) {
      for (const [name, outcomes] of [
        ['verity', verity],
        ['bm25', plain],
      ] as const) {
        const r = report(
          name,
          outcomes.filter((o) => o.q.split === split),
        );
        console.log(
          `${split.padEnd(6)} ${r.name.padEnd(8)} ${String(r.n).padStart(4)} ${pct(r.top1)} ${pct(r.recall)}    ${pct(r.abstain)}   ${pct(r.wrong)}`,
        );
      }
    }
    console.log('\nTargets (test split): top-1 ≥ 95%, fact recall ≥ 85%, abstention ≥ 90%, wrong answers ≤ 3%.');
    if (VERBOSE) {
      console.log('\nMisses (verity):');
      for (const o of verity.filter((x) => !x.correct)) {
        console.log(
          `  ${o.q.id} [${o.q.split}/${o.q.expect.kind}${o.q.expect.kind === 'library' ? ` ${o.q.expect.entry}` : ''}] ${o.q.question}\n` +
            `     → ${o.given.answerType}${o.given.libraryId ? ` ${o.given.libraryId}` : ''}: ${o.given.answer.slice(0, 140).replace(/\s+/g, ' ')}`,
        );
      }
    }
  } finally {
    await close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
