/**
 * bench:intake — how well real questionnaire files are read and written back. Over every file of
 * ../shared/questionnaires (real public workbooks with their ground truth in truth.json; never copied into the
 * repository) it measures question detection (precision and recall by sheet and row), the answer, comments, question
 * and id columns found, and for workbooks the export against the original: the same sheets, no cell changed outside
 * the answer and comments cells of question rows (and columns the export adds), no pre-filled answer overwritten,
 * validations, merges, widths and hidden columns unchanged, every written dropdown cell holding an allowed value.
 *
 *   npm run bench:intake
 *   INTAKE_DIR=/path/to/files npm run bench:intake     # another folder with the same truth.json shape
 *   INTAKE_FILE=HECVAT npm run bench:intake            # only files whose name contains this
 *   INTAKE_AS=xls npm run bench:intake                 # the .xlsx files saved as .xls by LibreOffice first
 */
import fs from 'node:fs';
import path from 'node:path';
import { readQuestionnaire } from '../server/ingest/questionnaire/intake';
import { columnLetters } from '../server/ingest/questionnaire/cell-refs';
import type { Intake, QuestionnaireFormat } from '../server/ingest/questionnaire/types';
import { exportOriginal } from '../server/modules/assessments/export-original';
import { xlsToXlsx } from '../server/ingest/questionnaire/xls-to-xlsx';
import { compareCsv, compareWorkbooks, emptyFidelity, type Fidelity } from './intake/fidelity';
import { type FileTruth, type SheetTruth, loadTruth } from './intake/truth';
import { xlsTwins } from './intake/as-xls';

const SOURCE = path.resolve(process.env.INTAKE_DIR ?? path.join(import.meta.dirname, '../../shared/questionnaires'));
const ONLY = process.env.INTAKE_FILE ?? '';
const TWINS = process.env.INTAKE_AS === 'xls';
const DIR = TWINS ? xlsTwins(SOURCE, ONLY) : SOURCE;

type Score = { tp: number; fp: number; fn: number };
type FileResult = {
  name: string;
  refused: string | null;
  score: Score;
  columns: { right: number; total: number; wrong: string[] };
  /** What a person would change in the preview before the import is right (issue: 0 is the goal). */
  corrections: { count: number; what: string[] };
  fidelity: Fidelity | null;
  ok: boolean;
};

const precision = (s: Score) => (s.tp + s.fp === 0 ? 1 : s.tp / (s.tp + s.fp));
const recall = (s: Score) => (s.tp + s.fn === 0 ? 1 : s.tp / (s.tp + s.fn));

/** The truth sheet a found question's sheet stands for: a CSV is one sheet, whatever either side names it. */
function truthSheetName(truth: FileTruth, format: QuestionnaireFormat | 'json', sheet: string): string {
  if (format === 'csv') return Object.keys(truth.sheets)[0] ?? sheet;
  return sheet;
}

function scoreQuestions(truth: FileTruth, intake: Intake | null): Score {
  const score: Score = { tp: 0, fp: 0, fn: 0 };
  const found = new Set(
    (intake?.questions ?? []).map((q) => `${truthSheetName(truth, truth.format, q.sheet)}\u0000${q.row}`),
  );
  for (const [name, sheet] of Object.entries(truth.sheets)) {
    for (const row of sheet.questionRows) {
      if (found.has(`${name}\u0000${row}`)) score.tp += 1;
      else score.fn += 1;
    }
  }
  for (const key of found) {
    const [name, rowText] = key.split('\u0000') as [string, string];
    const sheet = truth.sheets[name];
    const row = Number(rowText);
    if (!sheet) score.fp += 1;
    else if (!sheet.questionRows.includes(row) && !sheet.optionalRows.includes(row)) score.fp += 1;
  }
  return score;
}

function scoreColumns(truth: FileTruth, intake: Intake | null): FileResult['columns'] {
  const result: FileResult['columns'] = { right: 0, total: 0, wrong: [] };
  for (const [name, sheet] of Object.entries(truth.sheets)) {
    if (sheet.questionRows.length === 0) continue;
    const mapping = intake?.mappings.find((m) => truthSheetName(truth, truth.format, m.sheet) === name);
    const check = (role: string, expected: string | null, actual: number | null | undefined) => {
      result.total += 1;
      const got = actual === null || actual === undefined ? null : columnLetters(actual);
      if (got === expected) result.right += 1;
      else result.wrong.push(`${name}: ${role} ${got ?? 'none'} (truth ${expected ?? 'none'})`);
    };
    check('question', sheet.questionColumn, mapping?.questionColumn);
    // A Word form answered in the row below a prompt has no answer column to compare.
    if (!(truth.format === 'docx' && sheet.answerColumn === null)) {
      check('answer', sheet.answerColumn, mapping ? answerOf(mapping, sheet) : undefined);
      check('comments', sheet.commentsColumn, mapping?.commentsColumn);
    }
    check('id', sheet.idColumn, mapping?.idColumn);
  }
  return result;
}

/**
 * The preview's corrections a person would make before the import is right, one per change: a questionnaire sheet
 * to include, a sheet read by mistake to skip, each column (question, answer, comments, id) to re-pick, and, on a
 * sheet whose columns are right, its question rows (header and first/last rows) to set.
 */
function countCorrections(
  truth: FileTruth,
  intake: Intake | null,
  columnsWrong: readonly string[],
): FileResult['corrections'] {
  const what: string[] = [];
  const foundRows = new Map<string, Set<number>>();
  for (const q of intake?.questions ?? []) {
    const name = truthSheetName(truth, truth.format, q.sheet);
    const rows = foundRows.get(name) ?? new Set<number>();
    rows.add(q.row);
    foundRows.set(name, rows);
  }
  for (const [name, sheet] of Object.entries(truth.sheets)) {
    if (sheet.questionRows.length === 0) continue;
    const found = foundRows.get(name);
    if (!found) what.push(`${name}: include`);
    const wrongHere = columnsWrong.filter((w) => w.startsWith(`${name}: `));
    what.push(...wrongHere);
    if (!found || wrongHere.length > 0) continue;
    const expected = new Set([...sheet.questionRows, ...sheet.optionalRows]);
    const missed = sheet.questionRows.some((row) => !found.has(row));
    const extra = [...found].some((row) => !expected.has(row));
    if (missed || extra) what.push(`${name}: question rows`);
  }
  for (const name of foundRows.keys()) {
    if (!(truth.sheets[name]?.questionRows.length ?? 0)) what.push(`${name}: skip`);
  }
  return { count: what.length, what };
}

/** X-marked choice columns count as the answer column named by the first choice. */
function answerOf(mapping: Intake['mappings'][number], sheet: SheetTruth): number | null {
  if (mapping.answerChoiceColumns?.length && sheet.answerChoiceColumns) {
    return mapping.answerChoiceColumns[0]?.column ?? null;
  }
  return mapping.answerColumn;
}

async function benchFile(name: string, truth: FileTruth): Promise<FileResult> {
  const bytes = new Uint8Array(fs.readFileSync(path.join(DIR, name)));
  let intake: Intake | null = null;
  let refused: string | null = null;
  try {
    intake = await readQuestionnaire(bytes, name);
  } catch (error) {
    refused = error instanceof Error ? error.message : String(error);
  }
  const score = scoreQuestions(truth, intake);
  const columns = scoreColumns(truth, intake);
  const corrections = countCorrections(truth, intake, columns.wrong);
  let fidelity: Fidelity | null = null;
  if (intake && (truth.format === 'xlsx' || truth.format === 'xls' || truth.format === 'csv')) {
    const answers = intake.questions.map((q, i) => ({
      sheet: q.sheet,
      row: q.row,
      answer: `Yes. Bench answer ${i + 1}: the control is in place and reviewed yearly.`,
      shortAnswer: 'Yes' as const,
      existingAnswer: q.existingAnswer,
      existingComment: q.existingComment,
      hint: q.answerHint,
      allowedValues: q.allowedValues,
    }));
    try {
      const exported = await exportOriginal(bytes, intake.format, intake.mappings, answers, { withSources: false });
      const detectedChoices = new Map(
        intake.mappings.map((m) => [m.sheet, (m.answerChoiceColumns ?? []).map((choice) => choice.column)]),
      );
      fidelity =
        truth.format === 'csv'
          ? compareCsv(bytes, exported, truth)
          : truth.format === 'xls'
            ? // An .xls comes back as .xlsx: it is compared with the same workbook converted and not filled.
              await compareWorkbooks(xlsToXlsx(bytes), 'xlsx', exported, truth, detectedChoices)
            : await compareWorkbooks(bytes, truth.format, exported, truth, detectedChoices);
    } catch (error) {
      fidelity = emptyFidelity(error instanceof Error ? error.message : String(error));
    }
  }
  const expectRefuse = truth.expect === 'refuse';
  const ok = expectRefuse
    ? score.fp === 0
    : precision(score) >= 0.97 &&
      recall(score) >= 0.97 &&
      (fidelity === null ||
        (fidelity.filled &&
          fidelity.outsideTarget === 0 &&
          fidelity.overwrites === 0 &&
          fidelity.marksOnAnswered === 0));
  return { name, refused, score, columns, corrections, fidelity, ok };
}

function line(r: FileResult, truth: FileTruth): string {
  const parts = [r.ok ? 'ok  ' : 'FAIL', r.name.padEnd(40)];
  if (truth.expect === 'refuse') {
    parts.push(r.refused ? `refused: ${r.refused.slice(0, 80)}` : `NOT refused: ${r.score.fp} questions found`);
    return parts.join(' ');
  }
  parts.push(
    `P ${precision(r.score).toFixed(3)} R ${recall(r.score).toFixed(3)} (tp ${r.score.tp} fp ${r.score.fp} fn ${r.score.fn})`,
    `columns ${r.columns.right}/${r.columns.total}`,
    `corrections ${r.corrections.count}`,
  );
  if (r.refused) parts.push(`refused: ${r.refused.slice(0, 80)}`);
  const f = r.fidelity;
  if (f) {
    parts.push(
      f.filled
        ? `export: ${f.written} written, ${f.outsideTarget} outside target, ${f.overwrites} overwrites, ` +
            `${f.marksOnAnswered} marks on answered choice rows, ${f.badDropdown} bad dropdown, structure ${f.structureChanges.length === 0 ? 'same' : f.structureChanges.join('; ')}`
        : `export: NOT FILLED (${f.why})`,
    );
  }
  const extra = r.corrections.count ? `\n       corrections: ${r.corrections.what.join(' | ')}` : '';
  const samples = f?.samples.length ? `\n       e.g. ${f.samples.join(' | ')}` : '';
  return parts.join('  ') + extra + samples;
}

async function main() {
  const truth = loadTruth(path.join(DIR, 'truth.json'));
  const results: FileResult[] = [];
  for (const [name, fileTruth] of Object.entries(truth)) {
    if (ONLY && !name.includes(ONLY)) continue;
    const t0 = performance.now();
    const result = await benchFile(name, fileTruth);
    results.push(result);
    console.log(`${line(result, fileTruth)}  [${Math.round(performance.now() - t0)} ms]`);
  }
  const questionnaires = results.filter((r) => truth[r.name]?.expect !== 'refuse');
  const macro = (f: (s: Score) => number) =>
    questionnaires.reduce((sum, r) => sum + f(r.score), 0) / Math.max(1, questionnaires.length);
  const withExport = results.filter((r) => r.fidelity);
  const sum = (f: (x: Fidelity) => number) => withExport.reduce((s, r) => s + (r.fidelity ? f(r.fidelity) : 0), 0);
  const refusals = results.filter((r) => truth[r.name]?.expect === 'refuse');
  const columns = questionnaires.reduce(
    (s, r) => ({ right: s.right + r.columns.right, total: s.total + r.columns.total }),
    {
      right: 0,
      total: 0,
    },
  );
  console.log('');
  console.log(
    `summary: macro precision ${macro(precision).toFixed(3)} recall ${macro(recall).toFixed(3)} (target ≥ 0.97) over ` +
      `${questionnaires.length} questionnaires; columns right ${columns.right}/${columns.total}; ` +
      `corrections ${questionnaires.reduce((n, r) => n + r.corrections.count, 0)} (target 0); ` +
      `refusals ${refusals.filter((r) => r.score.fp === 0).length}/${refusals.length}`,
  );
  console.log(
    `export: originals filled ${withExport.filter((r) => r.fidelity?.filled).length}/${withExport.length} (target all), ` +
      `cells changed outside target ${sum((f) => f.outsideTarget)} (target 0), overwrites ${sum((f) => f.overwrites)} ` +
      `(target 0), marks added to answered choice rows ${sum((f) => f.marksOnAnswered)} (target 0), dropdown cells ` +
      `outside their list ${sum((f) => f.badDropdown)}, structure changes ` +
      `${sum((f) => f.structureChanges.length)}`,
  );
  console.log(`files ok ${results.filter((r) => r.ok).length}/${results.length}`);
}

void main()
  .catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(() => {
    if (TWINS) fs.rmSync(DIR, { recursive: true, force: true });
  });
