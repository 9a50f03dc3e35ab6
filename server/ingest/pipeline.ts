import { chunkBlocks } from './chunk';
import { detectDocumentType } from './detect';
import { extractDocx } from './extract-docx';
import { extractHtml } from './extract-html';
import { OcrUnavailableError, extractImage } from './extract-image';
import { extractPdf } from './extract-pdf';
import { extractCsv, extractXlsx } from './extract-sheet';
import { extractMarkdown, extractPlainText } from './extract-text';
import { NO_TEXT_IN_IMAGE_MESSAGE, NO_TEXT_MESSAGE, corruptMessage } from './messages';
import { type DocumentKind, type ExtractedDocument, type Extraction, ExtractionError } from './types';

const EXTRACTORS: Readonly<Record<DocumentKind, (bytes: Uint8Array) => Extraction | Promise<Extraction>>> = {
  pdf: extractPdf,
  docx: extractDocx,
  xlsx: extractXlsx,
  csv: extractCsv,
  text: extractPlainText,
  markdown: extractMarkdown,
  html: extractHtml,
  image: extractImage,
};

/**
 * Detects what a file is, extracts its text and cuts it into chunks. A file that cannot be ingested (empty,
 * unsupported, password-protected, damaged, without text) throws ExtractionError with a sentence for the user;
 * a library failing on a file is reported as 'corrupt', with the library's error as `cause`. The only other error is
 * OcrUnavailableError (the OCR engine could not start: a server problem, worth retrying). The bytes are only read.
 *
 * This runs on the calling thread, and PDF parsing is synchronous work between awaits: call it through
 * `extractInThread` (thread.ts) from a process that serves requests.
 */
export async function extractDocument(bytes: Uint8Array, originalName: string): Promise<ExtractedDocument> {
  const { kind, mime } = await detectDocumentType(bytes, originalName);
  let extraction: Extraction;
  try {
    extraction = await EXTRACTORS[kind](bytes);
  } catch (error) {
    // A broken OCR installation says nothing about the file: let it surface as a server error, to be retried.
    if (error instanceof ExtractionError || error instanceof OcrUnavailableError) throw error;
    throw new ExtractionError('corrupt', corruptMessage(kind), { cause: error });
  }
  const chunks = chunkBlocks(extraction.blocks);
  if (chunks.length === 0)
    throw new ExtractionError('no_text', kind === 'image' ? NO_TEXT_IN_IMAGE_MESSAGE : NO_TEXT_MESSAGE);
  return { kind, mime, pageCount: extraction.pageCount, chunks };
}
