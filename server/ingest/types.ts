/** What a file is, decided from its content (see detect.ts); each kind has one extractor. */
export type DocumentKind = 'pdf' | 'docx' | 'xlsx' | 'csv' | 'text' | 'markdown' | 'html' | 'image';

/** A run of text from one place in a document: a PDF page (or part of one), a section, a spreadsheet row. */
export type ExtractedBlock = { text: string; page: number | null; section: string | null };

/** A piece of a document sized for retrieval; ordinals run 0..n-1 in reading order. */
export type Chunk = { ordinal: number; page: number | null; section: string | null; text: string };

/** What an extractor returns: the blocks in reading order and, for paged formats, the page count. */
export type Extraction = { blocks: ExtractedBlock[]; pageCount: number | null };

/** The result of ingesting one file: what it is and its chunks, ready to be stored and indexed. */
export type ExtractedDocument = { kind: DocumentKind; mime: string; pageCount: number | null; chunks: Chunk[] };

/**
 * Why a file could not be ingested; the message is a sentence to show the user as it is. 'too_large': the file is
 * within the upload limit but would take more than Verity allows to read (a zip bomb, thousands of pages, an image
 * of billions of pixels).
 */
export type ExtractionErrorCode = 'unsupported_type' | 'encrypted' | 'corrupt' | 'no_text' | 'empty' | 'too_large';

const CODES: readonly string[] = ['unsupported_type', 'encrypted', 'corrupt', 'no_text', 'empty', 'too_large'];

/**
 * A file that cannot be ingested, for a reason the user can fix (a password, another format…). Anything else thrown
 * while ingesting is a bug or an outage, not a property of the file, and is worth retrying.
 */
export class ExtractionError extends Error {
  override readonly name = 'ExtractionError';

  constructor(
    readonly code: ExtractionErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** True for the codes ExtractionError may carry; used to rebuild errors that crossed a thread boundary. */
export function isExtractionErrorCode(value: unknown): value is ExtractionErrorCode {
  return typeof value === 'string' && CODES.includes(value);
}
