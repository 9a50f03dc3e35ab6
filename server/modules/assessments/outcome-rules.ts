import type { ReviewOutcome } from '../../../common/schemas/accuracy';
import type { AnswerSource } from '../../../common/schemas/qa';
import { specificTopics, topicsOf } from '../../engine/text/taxonomy';

/**
 * The rules that tell what became of a machine answer when its review ended (issue 36). Pure functions; the
 * recording (which review step calls them, in its transaction) is review-outcomes.ts.
 *
 * - Approved (one question, a bulk approve, a bulk accept ≥ N%): 'unchanged' when the approved text is the machine's
 *   (whitespace-normalised); else 'edited' when the normalized edit distance is at most EDITED_MAX_DISTANCE; else
 *   'replaced'. A 'Needs Review' machine answer (type 'unknown') said nothing to keep, so whatever a person approves
 *   in its place is 'replaced'.
 * - Marked not applicable: 'not_applicable'. Sent back to the engine (Regenerate): 'regenerated'.
 * - Submitting, sending back and reopening end no review: they record nothing and remove nothing; the next end
 *   replaces the question's row.
 * - Only machine answers count: a question the engine never answered (no snapshot, or an empty one) records nothing.
 *   'Needs Review' answers do count, with type 'unknown' and their confidence (0), as the issue lists that type.
 */

/** The most an approved text may differ from the machine's (normalized edit distance) and still be an edit of it. */
export const EDITED_MAX_DISTANCE = 0.5;

/** Above this many cells (characters × characters) the distance is taken over words, to bound a review's cost. */
const CHAR_CELLS_MAX = 16_000_000;

/** Runs of whitespace as one space, none at the ends: a reflowed answer is the same answer. */
export function normalizeWhitespace(text: string): string {
  return text.replace(/\s+/gu, ' ').trim();
}

/** Levenshtein distance of two sequences, in two rows of memory, after dropping their common prefix and suffix. */
function levenshtein<T>(a: readonly T[], b: readonly T[]): number {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start += 1;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA -= 1;
    endB -= 1;
  }
  const n = endA - start;
  const m = endB - start;
  if (n === 0) return m;
  if (m === 0) return n;
  let prev = new Int32Array(m + 1);
  let cur = new Int32Array(m + 1);
  for (let j = 0; j <= m; j += 1) prev[j] = j;
  for (let i = 1; i <= n; i += 1) {
    cur[0] = i;
    const ai = a[start + i - 1];
    for (let j = 1; j <= m; j += 1) {
      const cost = ai === b[start + j - 1] ? 0 : 1;
      cur[j] = Math.min((prev[j] ?? 0) + 1, (cur[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + cost);
    }
    [prev, cur] = [cur, prev];
  }
  return prev[m] ?? 0;
}

/**
 * Normalized Levenshtein distance of two texts, whitespace-normalised: edits over the longer text's length, 0 (the
 * same text) to 1 (nothing in common). Over characters (code points); texts too long for that within
 * CHAR_CELLS_MAX are compared word by word, which for such long rewrites tells the same story at a bounded cost.
 */
export function editDistance(machine: string, final: string): number {
  const a = [...normalizeWhitespace(machine)];
  const b = [...normalizeWhitespace(final)];
  if (a.length === 0 && b.length === 0) return 0;
  if (a.length * b.length <= CHAR_CELLS_MAX) return levenshtein(a, b) / Math.max(a.length, b.length);
  const wa = normalizeWhitespace(machine).split(' ');
  const wb = normalizeWhitespace(final).split(' ');
  return levenshtein(wa, wb) / Math.max(wa.length, wb.length);
}

/** The outcome of approving `final` where the engine had answered `machine` (of `machineType`), and its distance. */
export function approvalOutcome(
  machine: string,
  machineType: string,
  final: string,
): { outcome: Extract<ReviewOutcome, 'unchanged' | 'edited' | 'replaced'>; editDistance: number } {
  if (normalizeWhitespace(machine) === normalizeWhitespace(final)) return { outcome: 'unchanged', editDistance: 0 };
  const distance = editDistance(machine, final);
  if (machineType === 'unknown') return { outcome: 'replaced', editDistance: distance };
  return { outcome: distance <= EDITED_MAX_DISTANCE ? 'edited' : 'replaced', editDistance: distance };
}

/** The topic an outcome is counted under: the question's strongest specific taxonomy topic, or 'other'. */
export function questionTopic(question: string): string {
  return specificTopics(topicsOf(question))[0] ?? 'other';
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The library entry (the first cited: the one that answered) and the documents a machine answer came from. */
export function answerProvenance(sources: readonly unknown[] | null): {
  libraryEntryId: string | null;
  documentIds: string[];
} {
  const list = (sources ?? []).filter((s): s is AnswerSource => typeof s === 'object' && s !== null);
  const entry = list.find((s) => typeof s.canonicalAnswerId === 'string' && UUID.test(s.canonicalAnswerId));
  const documentIds = [
    ...new Set(
      list.flatMap((s) => (typeof s.documentId === 'string' && UUID.test(s.documentId) ? [s.documentId] : [])),
    ),
  ];
  return { libraryEntryId: entry?.canonicalAnswerId ?? null, documentIds };
}
