import type { DocumentChunkView } from '../../../common/schemas/documents';

/** What a source link names: a page, a section and the quoted words, any of which may be missing. */
export interface CitedPassage {
  page: number | null;
  section: string | null;
  passage: string | null;
}

export const NO_CITATION: CitedPassage = { page: null, section: null, passage: null };

function folded(text: string): string {
  return text.replace(/\s+/g, ' ').trim().toLowerCase();
}

/** Reads a citation from the Document Library's link parameters (see documentPassagePath). */
export function citationFromParams(params: URLSearchParams): CitedPassage {
  const page = Number(params.get('page'));
  return {
    page: Number.isInteger(page) && page > 0 ? page : null,
    section: params.get('section')?.trim() || null,
    passage: params.get('passage')?.trim() || null,
  };
}

export function hasCitation(cited: CitedPassage): boolean {
  return cited.page !== null || cited.section !== null || cited.passage !== null;
}

/**
 * The chunk a citation points at, among those loaded: the one holding the quoted words (on the cited page when
 * several do), else the first of the cited page and section, else the first of the page. Null when none fits yet
 * (its chunk may be on a later page of the text).
 */
export function findCitedChunk(chunks: readonly DocumentChunkView[], cited: CitedPassage): number | null {
  const onPage = (chunk: DocumentChunkView) => cited.page === null || chunk.page === cited.page;
  if (cited.passage) {
    const words = folded(cited.passage);
    const holding = chunks.filter((chunk) => folded(chunk.text).includes(words));
    const best = holding.find(onPage) ?? holding[0];
    if (best) return best.ordinal;
  }
  if (cited.section) {
    const section = folded(cited.section);
    const inSection = chunks.find(
      (chunk) => onPage(chunk) && chunk.section !== null && folded(chunk.section) === section,
    );
    if (inSection) return inSection.ordinal;
  }
  if (cited.page !== null) return chunks.find((chunk) => chunk.page === cited.page)?.ordinal ?? null;
  return null;
}

/**
 * Splits a chunk's text around the quoted words, so they can be marked: [before, quote, after], or null when the
 * words are not in it verbatim (the whole chunk is marked then).
 */
export function splitAtPassage(text: string, passage: string | null): [string, string, string] | null {
  if (!passage) return null;
  const at = text.indexOf(passage);
  if (at >= 0) return [text.slice(0, at), passage, text.slice(at + passage.length)];
  // Whitespace may differ (line breaks in the extracted text): match the words with any spacing between them.
  const words = passage
    .trim()
    .split(/\s+/)
    .map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const match = new RegExp(words.join('\\s+')).exec(text);
  if (!match) return null;
  return [text.slice(0, match.index), match[0], text.slice(match.index + match[0].length)];
}
