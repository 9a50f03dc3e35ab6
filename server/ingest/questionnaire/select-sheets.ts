import type { Layout } from './detect';
import { endsWithQuestionMark, headerRoles, normalizeLabel } from './text-patterns';
import type { QuestionItem, RawSheet } from './types';

/** A sheet with the questions detection found on it, before the workbook as a whole is judged. */
export type SheetCandidate = { sheet: RawSheet; layout: Layout | null; questions: readonly QuestionItem[] };

// Publishers ship their questionnaire with sheets that quote it: an analyst's report, a summary, a standards
// crosswalk, a change log, a roadmap, the recipient's own evaluation. Their names say so; they are skipped when the
// workbook has another sheet.
const REFERENCE_SHEET =
  /\b(analyst|analysis|report|summary|crosswalk|mapping|change ?log|changes|revision|history|versions?|road ?map|score ?card|scoring|scores?|results?|(institution|institutional|recipient|customer|client|analyst|reviewer|assessor)('?s)? evaluations?|dashboard|chart|introduction|intro|instructions?|read ?me|guide|guidance|acknowledge?ments?|credits|license|attribution|glossary|definitions?|lookups?|lists?|values|reference)\b/i;
// What the sheet meant to be filled in is called.
const RESPONSE_SHEET = /\b(response|responses|answers?|questionnaire|vendor|supplier|assessment|interview|survey)\b/i;

/** A question as compared across sheets: case, spacing and punctuation do not make it another question. */
const questionKey = (text: string) => normalizeLabel(text).slice(0, 300);

/** How surely a sheet is where the answers are meant to go. */
function answerability(candidate: SheetCandidate): number {
  const { layout, questions, sheet } = candidate;
  if (!layout || questions.length === 0) return 0;
  const { mapping } = layout;
  let score = 0;
  if (mapping.answerChoiceColumns?.length) score += 3;
  if (mapping.answerColumn !== null) {
    score += 1;
    const withList = questions.filter((q) => q.allowedValues !== null).length;
    // Dropdowns on the answer cells are the publisher saying "answer here".
    if (withList >= questions.length * 0.3) score += 3;
    if (headerRoles(layout.columns[mapping.answerColumn] ?? '').answer >= 8) score += 1;
  }
  if (RESPONSE_SHEET.test(sheet.name)) score += 1;
  if (REFERENCE_SHEET.test(sheet.name)) score -= 2;
  return score;
}

/**
 * Which of the sheets holding questions are the questionnaire, judged over the whole workbook: a sheet whose
 * questions mostly repeat those of a sheet that is more surely answered is a copy (an analyst's reference, a
 * roadmap, a crosswalk); a sheet named as a reference is skipped when another sheet holds questions; and once some
 * sheet has dropdowns to answer in, a sheet with nowhere to answer and few questions is prose. Returns, per
 * candidate, null to keep it or why it is skipped, in words for the preview.
 */
export function judgeSheets(candidates: readonly SheetCandidate[]): (string | null)[] {
  const verdicts: (string | null)[] = candidates.map(() => null);
  const holding = candidates.map((c, i) => ({ c, i, score: answerability(c) })).filter((x) => x.c.questions.length > 0);
  if (holding.length <= 1) return verdicts;

  const keys = new Map(holding.map((x) => [x.i, new Set(x.c.questions.map((q) => questionKey(q.question)))]));
  // The most answerable first; among equals, the leftmost sheet is the original.
  const ranked = [...holding].sort((a, b) => b.score - a.score || a.i - b.i);
  const kept: typeof ranked = [];
  for (const entry of ranked) {
    const own = keys.get(entry.i) ?? new Set<string>();
    const original = kept.find((k) => {
      const theirs = keys.get(k.i) ?? new Set<string>();
      let shared = 0;
      for (const key of own) if (theirs.has(key)) shared += 1;
      return shared >= own.size * 0.5;
    });
    if (original) {
      verdicts[entry.i] = `it repeats the questions of "${original.c.sheet.name}"`;
      continue;
    }
    kept.push(entry);
  }

  const others = (i: number) => kept.some((k) => k.i !== i && verdicts[k.i] === null);
  const bestScore = Math.max(...kept.map((k) => k.score));
  for (const entry of kept) {
    if (REFERENCE_SHEET.test(entry.c.sheet.name) && !RESPONSE_SHEET.test(entry.c.sheet.name) && others(entry.i)) {
      verdicts[entry.i] = 'its name says it is a reference sheet, not one to answer';
    }
  }
  for (const entry of kept) {
    if (verdicts[entry.i] !== null || entry.c.layout?.mapping.answerColumn != null) continue;
    const questionLike = entry.c.questions.filter((q) => endsWithQuestionMark(q.question.trimEnd())).length;
    if (bestScore >= 4 && questionLike < entry.c.questions.length * 0.5 && others(entry.i)) {
      verdicts[entry.i] = 'it has no answer column, and another sheet is the one to answer';
    }
  }
  return verdicts;
}
