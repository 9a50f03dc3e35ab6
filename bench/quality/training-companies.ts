/**
 * The six companies of training/ (training/README.md) as bench:quality companies that are only ever fitted on:
 * their libraries and documents, and the real questionnaire questions judged against them under
 * training/guidelines.md. The question texts are not in the repository (their publishers' terms): they are read
 * from training/build/questions.jsonl, which training/scripts/build_questions.py writes from ../shared, and each
 * label is used only when the text still has the SHA-256 it was judged on.
 *
 * A label becomes an expectation as the engine is judged: entries that answer → a library question; no entry but a
 * document passage → a document question whose answer must carry that passage; nothing → not covered. Questions
 * that entries answer only partly are left out: neither answering nor abstaining is clearly right there.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Company, Expect, LibraryItem, Question } from './setup';

const root = path.join(path.dirname(new URL(import.meta.url).pathname), '../../training');

type PoolQuestion = { qid: string; family: string; text: string; sha256: string };
type Label = {
  qid: string;
  sha256: string;
  company: string;
  answers: string[];
  partly: string[];
  document: { file: string; quote: string } | null;
};

const readLines = <T>(file: string): T[] =>
  fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as T);

function expectationOf(label: Label): Expect | null {
  if (label.answers.length > 0) return { kind: 'library', entries: label.answers };
  if (label.partly.length > 0) return null;
  if (label.document)
    return { kind: 'document', document: label.document.file, facts: [], passage: label.document.quote };
  return { kind: 'none' };
}

/** Whether training/build/questions.jsonl exists (the training companies can be loaded). */
export const trainingQuestionsBuilt = () => fs.existsSync(path.join(root, 'build/questions.jsonl'));

export function loadTrainingCompanies(): Company[] {
  const file = path.join(root, 'build/questions.jsonl');
  if (!fs.existsSync(file))
    throw new Error(
      'training/build/questions.jsonl is missing: run `python3 training/scripts/build_questions.py` (training/README.md)',
    );
  const pool = new Map(readLines<PoolQuestion>(file).map((q) => [q.qid, q]));
  const labelDir = path.join(root, 'data/labels');
  const byCompany = new Map<string, Question[]>();
  for (const f of fs
    .readdirSync(labelDir)
    .filter((n) => n.endsWith('.jsonl'))
    .sort()) {
    for (const label of readLines<Label>(path.join(labelDir, f))) {
      const q = pool.get(label.qid);
      if (!q || createHash('sha256').update(q.text).digest('hex') !== label.sha256) continue;
      const expect = expectationOf(label);
      if (!expect) continue;
      const list = byCompany.get(label.company) ?? [];
      list.push({
        id: `${label.company}/${label.qid}`,
        question: q.text,
        family: q.family,
        company: label.company,
        expect,
      });
      byCompany.set(label.company, list);
    }
  }
  return [...byCompany.keys()].sort().map((slug): Company => {
    const docDir = path.join(root, 'companies', slug, 'documents');
    return {
      slug,
      synthetic: false,
      fitOnly: true,
      library: JSON.parse(fs.readFileSync(path.join(root, 'companies', slug, 'library.json'), 'utf8')) as LibraryItem[],
      docDir,
      docFiles: fs.readdirSync(docDir).filter((n) => /\.(md|txt|html)$/.test(n)),
      questions: byCompany.get(slug) ?? [],
    };
  });
}
