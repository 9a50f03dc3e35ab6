import { paths } from '../paths';

/** The longest passage a link carries: the engine's snippets are at most 300 characters. */
const PASSAGE_MAX = 300;

interface DocumentSource {
  documentId?: string;
  pageNumber?: number | null;
  section?: string | null;
  snippet?: string;
}

/**
 * Where a cited document passage opens: the Document Library with that document's text at the page and section,
 * scrolled to and marking the quoted passage (`passage`), so the reader lands on the words the answer used.
 */
export function documentPassagePath(source: DocumentSource): string {
  const params = new URLSearchParams();
  if (source.documentId) params.set('document', source.documentId);
  if (source.pageNumber) params.set('page', String(source.pageNumber));
  if (source.section) params.set('section', source.section);
  const passage = source.snippet?.trim();
  if (passage) params.set('passage', passage.slice(0, PASSAGE_MAX));
  return `${paths.documents}?${params.toString()}`;
}
