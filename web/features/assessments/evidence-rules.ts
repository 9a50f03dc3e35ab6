import type { EvidenceResponse } from '../../../common/schemas/evidence';
import type { Cite, CiteChoice } from './review-rules';

/** One key per library entry or document, for the Cite list's values. */
export const citeKey = (cite: Cite): string => `${cite.type}:${cite.id}`;

/**
 * The answer after a person inserts a found text: the text itself into an empty answer, else after what they wrote
 * as a paragraph of its own; a text already in the answer is not added twice.
 */
export function withInsertedText(draft: string, text: string): string {
  const insert = text.trim();
  if (insert === '') return draft;
  if (draft.trim() === '') return insert;
  if (draft.includes(insert)) return draft;
  return `${draft.trimEnd()}\n\n${insert}`;
}

/** Where a passage sits, for its heading and its Cite label: "Backup Policy.pdf, page 3". */
export function passagePlace(passage: EvidenceResponse['passages'][number]): string {
  return passage.pageNumber ? `${passage.name}, page ${String(passage.pageNumber)}` : passage.name;
}

export const entryCite = (entry: EvidenceResponse['entries'][number]): CiteChoice => ({
  cite: { type: 'library', id: entry.id },
  label: `Library: ${entry.question}`,
});

/** A passage is cited as its document: a citation names the document, and the link opens it at the passage. */
export const passageCite = (passage: EvidenceResponse['passages'][number]): CiteChoice => ({
  cite: { type: 'document', id: passage.documentId },
  label: `Document: ${passage.name}`,
});

/** The Cite list: the question's own sources first, then what the person chose from a search, each once. */
export function mergedCiteChoices(own: readonly CiteChoice[], picked: readonly CiteChoice[]): CiteChoice[] {
  const seen = new Set<string>();
  const merged: CiteChoice[] = [];
  for (const choice of [...own, ...picked]) {
    const key = citeKey(choice.cite);
    if (seen.has(key)) continue;
    seen.add(key);
    merged.push(choice);
  }
  return merged;
}
