import { normalizeQuestion } from '../../../common/import/normalize';
import type { ImportFormat } from '../../../common/import/types';
import { formatNumber } from '../../lib/format';

/** Why a previewed entry will not be imported: the library has its question, or it repeats an earlier entry. */
export type Duplicate = { kind: 'library' } | { kind: 'repeat'; of: number };

/**
 * The entries the import will skip, by row key, as the server will (PRODUCT §5: questions compared ignoring case,
 * spacing and punctuation). `inLibrary` holds the keys the server's check found in the workspace; repeats are found
 * here, on the rows still in the preview, so removing the first of two makes the second one ready. `of` is the
 * 1-based position of the earlier entry in the list.
 */
export function findDuplicates(
  rows: ReadonlyArray<{ key: number; entry: { question: string } }>,
  inLibrary: ReadonlySet<number>,
): Map<number, Duplicate> {
  const duplicates = new Map<number, Duplicate>();
  const firstAt = new Map<string, number>();
  rows.forEach(({ key, entry }, position) => {
    if (inLibrary.has(key)) {
      duplicates.set(key, { kind: 'library' });
      return;
    }
    const folded = normalizeQuestion(entry.question);
    const earlier = firstAt.get(folded);
    if (earlier !== undefined) duplicates.set(key, { kind: 'repeat', of: earlier + 1 });
    else firstAt.set(folded, position);
  });
  return duplicates;
}

function plural(count: number, one: string, many: string): string {
  return `${formatNumber(count)} ${count === 1 ? one : many}`;
}

/** The import button: 'Import 1 Answer', 'Import 12 Answers'. */
export function importButtonLabel(ready: number): string {
  return `Import ${plural(ready, 'Answer', 'Answers')}`;
}

/** The preview's summary line. */
export function previewSummary(ready: number, duplicates: number): string {
  const readyText = `${plural(ready, 'entry', 'entries')} ready to import.`;
  if (duplicates === 0) return `${readyText} Remove any you do not want.`;
  return `${readyText} ${plural(duplicates, 'duplicate', 'duplicates')} will be skipped.`;
}

/** The result toast's title: 'Imported 1 canonical answer successfully'. */
export function importedTitle(imported: number): string {
  return `Imported ${plural(imported, 'canonical answer', 'canonical answers')} successfully`;
}

/** The result toast's second line, when duplicates were skipped (the library's or repeats within the import). */
export function skippedDescription(skipped: number): string | undefined {
  if (skipped === 0) return undefined;
  return skipped === 1
    ? '1 entry was skipped as a duplicate.'
    : `${formatNumber(skipped)} entries were skipped as duplicates.`;
}

/** Who may import, as the page's badge says (the policy 'knowledge:import' is manager and up). */
export const IMPORT_AUDIENCE = 'Managers and admins';

/** What an import did, as the page reports it once the preview has closed. */
export interface ImportOutcome {
  imported: number;
  /** Duplicates skipped: those the preview left out and those the server found. */
  skipped: number;
  status: 'approved' | 'draft';
}

/** The result panel's sentence: how many entries the library gained, and as what. */
export function importOutcomeSummary({ imported, status }: ImportOutcome): string {
  if (imported === 0) return 'No entries were added to the Knowledge Library.';
  const entries = imported === 1 ? '1 entry was' : `${formatNumber(imported)} entries were`;
  const drafts = status === 'draft' ? (imported === 1 ? ' as a draft' : ' as drafts') : '';
  return `${entries} added to the Knowledge Library${drafts}.`;
}

/**
 * The content box's placeholder: the shape of each format with <slots>, so it cannot be mistaken for entries
 * already typed (the full examples are on the Templates tab).
 */
export const IMPORT_PLACEHOLDERS: Record<ImportFormat, string> = {
  csv: 'Example:\nquestion,answer,tags\n<question>,<answer>,<tag>;<tag>',
  json: 'Example:\n[{ "question": "<question>", "answer": "<answer>", "tags": ["<tag>"] }]',
  manual: 'Example:\nQ: <question>\nA: <answer>\n\nQ: <next question>\nA: <its answer>',
};
