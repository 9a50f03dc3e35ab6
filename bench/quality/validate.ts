/**
 * Checks the bench:quality dataset (bench/quality/README.md) before anyone measures with it:
 *
 *   npx tsx bench/quality/validate.ts
 *
 * - shapes of library.json and questions.json, and that every library entry is a valid import entry
 *   (`POST /api/canonical-answers/import`) that also meets the library form's minimum lengths;
 * - unique ids, unique questions (after the import's own folding of case, spacing and punctuation);
 * - every referenced library entry and document exists, every library entry is asked about at least once;
 * - every fact occurs verbatim (case-insensitive) in its document, and all facts of one question occur together
 *   in one paragraph, so one extracted passage can carry them all;
 * - no question is the same text as a library question;
 * - "not covered" questions name a topic that appears nowhere in the library or the documents;
 * - documents are 1,500–4,000 words of Markdown with headings;
 * - counts per kind, style and split meet the minimums;
 * - questions-tune-extra.json (optional; extra tuning questions X001…, all split "tune") passes the same shape and
 *   label checks, and repeats no id or question text of questions.json. Its problems name ids only, never the text of
 *   a questions.json question; it does not count towards questions.json's minimums, shares or entry coverage.
 *
 * Prints the counts; exits with status 1 and the list of problems if any check fails.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { LIBRARY_ANSWER_MIN, LIBRARY_QUESTION_MIN } from '../../common/constants';
import { normalizeQuestion } from '../../common/import/normalize';
import { ImportEntry } from '../../common/schemas/knowledge';

const dir = path.dirname(fileURLToPath(import.meta.url));
const docDir = path.join(dir, 'documents');

const STYLES = ['caiq', 'sig', 'hecvat', 'vsaq', 'custom'] as const;
const KINDS = ['library', 'document', 'none'] as const;
const SPLITS = ['tune', 'test'] as const;
type Kind = (typeof KINDS)[number];
type Style = (typeof STYLES)[number];
type Split = (typeof SPLITS)[number];

const MIN = {
  libraryEntries: 90,
  documents: 3,
  maxDocuments: 4,
  documentWords: 1500,
  maxDocumentWords: 4000,
  questions: 170,
  perKind: { library: 100, document: 40, none: 30 } satisfies Record<Kind, number>,
  perStyle: 15,
  /** Share of "tune" questions, overall and within each kind. */
  tuneShare: [0.3, 0.5] as const,
};

/**
 * Topics of the "not covered" questions. None may appear in the library or the documents (whole words, any case);
 * every "none" question must name at least one of them, so the label stays true when the data is edited.
 */
const ABSENT_TOPICS = [
  'FedRAMP',
  'HIPAA',
  'on-premises',
  'escrow',
  'post-quantum',
  'drones',
  'HITRUST',
  'StateRAMP',
  'TX-RAMP',
  'CMMC',
  'FERPA',
  'VPAT',
  'WCAG',
  'blockchain',
  'cryptocurrency',
  'stablecoins',
  'PIPEDA',
  'SWIFT',
  'NYDFS',
  'DORA',
  'TISAX',
  'CJIS',
  'greenhouse gas',
  'Modern Slavery',
  'bribery',
  'whistleblower',
  'honeypots',
  'phone calls',
  'traveling',
  'OFAC',
  'transparency report',
  'jailbroken',
  'C5',
  'IRAP',
  '27701',
  'SOC 3',
  'CSA STAR',
  'pod security',
  'drug testing',
  'LTI',
  'Cyber Essentials',
  'ITAR',
];

const LibraryItem = z.strictObject({
  id: z.string().regex(/^L\d{3}$/, 'library ids look like L001'),
  question: z.string().min(1),
  answer: z.string().min(1),
  tags: z.array(z.string().min(1)).min(1, 'give every entry at least one tag'),
});
type LibraryItem = z.infer<typeof LibraryItem>;

const Expect = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('library'), entry: z.string() }),
  z.strictObject({
    kind: z.literal('document'),
    document: z.string(),
    facts: z.array(z.string().trim().min(1)).min(1).max(2),
  }),
  z.strictObject({ kind: z.literal('none') }),
]);

const Question = z.strictObject({
  id: z.string().regex(/^Q\d{3}$/, 'question ids look like Q001'),
  question: z.string().trim().min(3),
  style: z.enum(STYLES),
  expect: Expect,
  split: z.enum(SPLITS),
});
type Question = z.infer<typeof Question>;

const EXTRA_FILE = 'questions-tune-extra.json';
const ExtraQuestion = Question.extend({
  id: z.string().regex(/^X\d{3}$/, 'extra question ids look like X001'),
  split: z.literal('tune'),
});

const problems: string[] = [];
const fail = (message: string) => problems.push(message);

function readJson(file: string): unknown {
  try {
    return JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as unknown;
  } catch (err) {
    fail(`${file}: ${err instanceof Error ? err.message : String(err)}`);
    return [];
  }
}

function parseAll<T>(file: string, schema: z.ZodType<T>, raw: unknown): T[] {
  if (!Array.isArray(raw)) {
    fail(`${file}: expected a JSON array`);
    return [];
  }
  const out: T[] = [];
  raw.forEach((item: unknown, i) => {
    const parsed = schema.safeParse(item);
    if (parsed.success) out.push(parsed.data);
    else fail(`${file}[${i}]: ${parsed.error.issues.map((x) => `${x.path.join('.')} ${x.message}`).join('; ')}`);
  });
  return out;
}

function duplicates(values: string[]): string[] {
  const seen = new Set<string>();
  const dup = new Set<string>();
  for (const v of values) (seen.has(v) ? dup : seen).add(v);
  return [...dup];
}

const collapse = (text: string) => text.replace(/\s+/g, ' ').toLowerCase();
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const wholeWord = (term: string) => new RegExp(`(?<![\\p{L}\\p{N}])${escape(term)}(?![\\p{L}\\p{N}])`, 'iu');

// ---- library

const library = parseAll('library.json', LibraryItem, readJson('library.json'));
for (const id of duplicates(library.map((l) => l.id))) fail(`library.json: id ${id} is used more than once`);
for (const q of duplicates(library.map((l) => normalizeQuestion(l.question))))
  fail(`library.json: question "${q}" appears more than once (the import would skip the repeat)`);
for (const item of library) {
  const asImport = ImportEntry.safeParse({ question: item.question, answer: item.answer, tags: item.tags });
  if (!asImport.success) fail(`${item.id}: not a valid import entry: ${asImport.error.issues[0]?.message ?? ''}`);
  if (item.question.trim().length < LIBRARY_QUESTION_MIN) fail(`${item.id}: question is shorter than the form allows`);
  if (item.answer.trim().length < LIBRARY_ANSWER_MIN) fail(`${item.id}: answer is shorter than the form allows`);
}
const libraryById = new Map<string, LibraryItem>(library.map((l) => [l.id, l]));
const libraryQuestions = new Map<string, string>(library.map((l) => [normalizeQuestion(l.question), l.id]));

// ---- documents

const documents = new Map<string, { text: string; paragraphs: string[]; words: number }>();
const docFiles = fs.existsSync(docDir) ? fs.readdirSync(docDir).filter((f) => f.endsWith('.md')) : [];
for (const file of docFiles) {
  const text = fs.readFileSync(path.join(docDir, file), 'utf8');
  const words = text.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
  const titles = text.split('\n').filter((l) => /^# \S/.test(l)).length;
  const sections = text.split('\n').filter((l) => /^## \S/.test(l)).length;
  if (titles !== 1) fail(`documents/${file}: needs exactly one "# " title (has ${titles})`);
  if (sections < 3) fail(`documents/${file}: needs at least three "## " sections (has ${sections})`);
  if (words < MIN.documentWords || words > MIN.maxDocumentWords)
    fail(`documents/${file}: ${words} words, expected ${MIN.documentWords}–${MIN.maxDocumentWords}`);
  const paragraphs = text
    .split(/\n\s*\n/)
    .map(collapse)
    .filter((p) => p.trim());
  documents.set(file, { text: collapse(text), paragraphs, words });
}
if (docFiles.length < MIN.documents || docFiles.length > MIN.maxDocuments)
  fail(`documents/: ${docFiles.length} Markdown files, expected ${MIN.documents}–${MIN.maxDocuments}`);

// ---- questions

const questions = parseAll('questions.json', Question, readJson('questions.json'));
for (const id of duplicates(questions.map((q) => q.id))) fail(`questions.json: id ${id} is used more than once`);
for (const q of duplicates(questions.map((x) => normalizeQuestion(x.question))))
  fail(`questions.json: question "${q}" is asked more than once`);

const referenced = new Set<string>();
const genericFacts: string[] = [];

/** Label checks shared by questions.json and the extra tuning file; notes document facts also found in the library. */
function checkQuestion(q: Question, notes: string[]) {
  const copied = libraryQuestions.get(normalizeQuestion(q.question));
  if (copied) fail(`${q.id}: same text as library question ${copied}; phrase it the way another questionnaire would`);
  const expect = q.expect;
  if (expect.kind === 'library') {
    if (!libraryById.has(expect.entry)) fail(`${q.id}: library entry ${expect.entry} does not exist`);
  } else if (expect.kind === 'document') {
    const doc = documents.get(expect.document);
    if (!doc) {
      fail(`${q.id}: document ${expect.document} does not exist in documents/`);
      return;
    }
    const facts = expect.facts.map(collapse);
    for (const fact of facts) {
      if (!doc.text.includes(fact)) fail(`${q.id}: fact "${fact}" is not in ${expect.document}`);
      // "5 minutes" must not be found only inside "15 minutes".
      else if (!wholeWord(fact).test(doc.text))
        fail(`${q.id}: fact "${fact}" only occurs inside a longer word or number`);
    }
    if (!doc.paragraphs.some((p) => facts.every((f) => p.includes(f))))
      fail(`${q.id}: the facts ${JSON.stringify(expect.facts)} never occur together in one paragraph`);
    for (const fact of facts) {
      const inLibrary = library.filter((l) => wholeWord(fact).test(collapse(l.answer))).map((l) => l.id);
      if (inLibrary.length) notes.push(`${q.id} "${fact}" (also in ${inLibrary.join(', ')})`);
    }
  } else {
    const named = ABSENT_TOPICS.filter((t) => wholeWord(t).test(q.question));
    if (!named.length) fail(`${q.id}: a "not covered" question must name one of ABSENT_TOPICS (add its topic there)`);
  }
}

for (const q of questions) {
  checkQuestion(q, genericFacts);
  if (q.expect.kind === 'library') referenced.add(q.expect.entry);
}
for (const item of library) if (!referenced.has(item.id)) fail(`${item.id}: no question is answered by this entry`);

// ---- not-covered topics stay absent

const corpus: Array<[string, string]> = [
  ...library.map((l): [string, string] => [l.id, `${l.question}\n${l.answer}\n${l.tags.join(', ')}`]),
  ...docFiles.map((f): [string, string] => [`documents/${f}`, fs.readFileSync(path.join(docDir, f), 'utf8')]),
];
for (const topic of ABSENT_TOPICS) {
  const re = wholeWord(topic);
  for (const [where, text] of corpus) if (re.test(text)) fail(`${where} mentions "${topic}", a topic kept uncovered`);
}

// ---- extra tuning questions (questions-tune-extra.json)

const hasExtra = fs.existsSync(path.join(dir, EXTRA_FILE));
const extra = hasExtra ? parseAll(EXTRA_FILE, ExtraQuestion, readJson(EXTRA_FILE)) : [];
const extraFacts: string[] = [];
{
  for (const id of duplicates(extra.map((q) => q.id))) fail(`${EXTRA_FILE}: id ${id} is used more than once`);
  const mainIds = new Set(questions.map((q) => q.id));
  const mainTexts = new Set(questions.map((q) => normalizeQuestion(q.question)));
  const extraTexts = new Map<string, string>();
  for (const q of extra) {
    if (mainIds.has(q.id)) fail(`${EXTRA_FILE}: id ${q.id} is also used in questions.json`);
    const text = normalizeQuestion(q.question);
    // Name ids only: the matching questions.json question may be in the test split.
    if (mainTexts.has(text)) fail(`${q.id}: same text as a question in questions.json; reword it`);
    const earlier = extraTexts.get(text);
    if (earlier) fail(`${q.id}: same text as ${earlier}`);
    else extraTexts.set(text, q.id);
    checkQuestion(q, extraFacts);
  }
}

// ---- counts

const count = (pred: (q: Question) => boolean) => questions.filter(pred).length;
const kindOf = (q: Question): Kind => q.expect.kind;
const pct = (part: number, whole: number) => (whole ? `${Math.round((100 * part) / whole)}%` : '-');
const checkShare = (label: string, tune: number, total: number) => {
  const share = total ? tune / total : 0;
  if (share < MIN.tuneShare[0] || share > MIN.tuneShare[1])
    fail(`${label}: ${pct(tune, total)} of questions are in "tune", expected 30–50%`);
};

if (library.length < MIN.libraryEntries)
  fail(`library.json: ${library.length} entries, expected at least ${MIN.libraryEntries}`);
if (questions.length < MIN.questions)
  fail(`questions.json: ${questions.length} questions, expected at least ${MIN.questions}`);
checkShare(
  'all questions',
  count((q) => q.split === 'tune'),
  questions.length,
);
for (const kind of KINDS) {
  const total = count((q) => kindOf(q) === kind);
  if (total < MIN.perKind[kind]) fail(`questions.json: ${total} "${kind}" questions, expected ${MIN.perKind[kind]}+`);
  checkShare(
    `kind ${kind}`,
    count((q) => kindOf(q) === kind && q.split === 'tune'),
    total,
  );
}
for (const style of STYLES) {
  const total = count((q) => q.style === style);
  if (total < MIN.perStyle) fail(`questions.json: ${total} "${style}" questions, expected ${MIN.perStyle}+`);
  for (const split of SPLITS)
    if (!count((q) => q.style === style && q.split === split)) fail(`style ${style} has no "${split}" questions`);
}

const cell = (n: number) => String(n).padStart(7);
console.log(
  `Library: ${library.length} entries (${referenced.size} asked about). Documents: ${docFiles.length} ` +
    `(${[...documents.entries()].map(([f, d]) => `${f} ${d.words} words`).join(', ')}).`,
);
console.log(`Questions: ${questions.length}\n`);
console.log(
  `${'style'.padEnd(8)}${KINDS.map((k) => k.padStart(9)).join('')}${'tune'.padStart(7)}${'test'.padStart(7)}`,
);
const rows: Array<[string, (q: Question) => boolean]> = [
  ...STYLES.map((s): [string, (q: Question) => boolean] => [s, (q) => q.style === (s satisfies Style)]),
  ['total', () => true],
];
for (const [label, pred] of rows) {
  const byKind = KINDS.map((k) => String(count((q) => pred(q) && kindOf(q) === k)).padStart(9)).join('');
  const bySplit = SPLITS.map((s: Split) => cell(count((q) => pred(q) && q.split === s))).join('');
  console.log(`${label.padEnd(8)}${byKind}${bySplit}`);
}
console.log(
  `\nSplit by kind: ${KINDS.map((k) => {
    const total = count((q) => kindOf(q) === k);
    const tune = count((q) => kindOf(q) === k && q.split === 'tune');
    return `${k} ${tune} tune / ${total - tune} test`;
  }).join('; ')}.`,
);
if (genericFacts.length) {
  console.log(
    `\nNote: ${genericFacts.length} document facts also occur in a library answer, so a fact match alone does not ` +
      `prove the answer came from the right source (a runner should also require a document answer for these):`,
  );
  for (const line of genericFacts) console.log(`  ${line}`);
}

if (hasExtra) {
  const ofExtra = (pred: (q: Question) => boolean) => extra.filter(pred).length;
  const entries = new Set(extra.flatMap((q) => (q.expect.kind === 'library' ? [q.expect.entry] : [])));
  console.log(
    `\n${EXTRA_FILE}: ${extra.length} extra tuning questions (${KINDS.map((k) => `${ofExtra((q) => kindOf(q) === k)} ${k}`).join(', ')}; ` +
      `${STYLES.map((s) => `${s} ${ofExtra((q) => q.style === s)}`).join(', ')}); ${entries.size} library entries asked about.`,
  );
  if (extraFacts.length) {
    console.log(`  document facts that also occur in a library answer:`);
    for (const line of extraFacts) console.log(`    ${line}`);
  }
}

if (problems.length) {
  console.error(`\n${problems.length} problem(s):`);
  for (const p of problems) console.error(`  - ${p}`);
  process.exit(1);
}
console.log('\nDataset OK.');
