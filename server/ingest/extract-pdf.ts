import { getDocumentProxy } from 'unpdf';
import {
  ENCRYPTED_PDF_MESSAGE,
  MAX_PDF_PAGES,
  MAX_PDF_STREAM_BYTES,
  PDF_STREAM_TOO_LARGE_MESSAGE,
  corruptMessage,
  tooManyPagesMessage,
} from './messages';
import { type PdfTextItem, linesOf, pageBlocks } from './pdf-layout';
import { measurePdfStreams } from './pdf-streams';
import { type ExtractedBlock, type Extraction, ExtractionError } from './types';

type PdfDocument = Awaited<ReturnType<typeof getDocumentProxy>>;

// pdf.js VerbosityLevel.ERRORS: its warnings ("Indexing all PDF objects"…) are about the file, not actionable, and
// would otherwise go to the console of the server for every odd PDF.
const ERRORS_ONLY = 0;

/**
 * PDF: the text of every page in reading order, as blocks carrying their page number (1-based); headings (lines
 * set clearly larger than the page's body text) start sections. This is unpdf's `extractText` done page by page:
 * the same pdf.js text content, read once for both the text and the font sizes, and one page at a time (with the
 * page's resources released after it) so that a 50 MB file does not hold every page in memory at once.
 * A password-protected file → ExtractionError 'encrypted'; anything pdf.js cannot read → 'corrupt'.
 *
 * Two limits come first, each 'too_large' with a sentence. A stream that decodes to more than MAX_PDF_STREAM_BYTES
 * (pdf.js would hold it whole, outside the heap limit of the thread: see pdf-streams.ts). More than MAX_PDF_PAGES
 * pages: a page tree that shares its nodes claims a billion pages in 2 kB, and even 5,000 real pages take minutes
 * and make thousands of chunks. Refusing with a sentence that says to split the file is what a user can act on;
 * indexing only the first pages would silently leave the rest unanswerable.
 */
export async function extractPdf(bytes: Uint8Array): Promise<Extraction> {
  if (!measurePdfStreams(bytes, MAX_PDF_STREAM_BYTES).ok)
    throw new ExtractionError('too_large', PDF_STREAM_TOO_LARGE_MESSAGE);
  let pdf: PdfDocument;
  try {
    // pdf.js takes ownership of (detaches) the buffer it is given; a copy keeps the caller's bytes intact.
    pdf = await getDocumentProxy(bytes.slice(), { verbosity: ERRORS_ONLY });
  } catch (error) {
    throw pdfError(error);
  }
  if (pdf.numPages > MAX_PDF_PAGES) {
    await pdf.destroy().catch(() => undefined);
    throw new ExtractionError('too_large', tooManyPagesMessage(pdf.numPages));
  }
  try {
    const blocks: ExtractedBlock[] = [];
    let section: string | null = null;
    for (let pageNumber = 1; pageNumber <= pdf.numPages; pageNumber += 1) {
      const page = await pdf.getPage(pageNumber);
      const content = await page.getTextContent();
      const items: PdfTextItem[] = [];
      for (const item of content.items) if ('str' in item) items.push(item);
      const result = pageBlocks(linesOf(items), pageNumber, section);
      for (const block of result.blocks) blocks.push(block);
      section = result.section;
      page.cleanup();
    }
    return { blocks, pageCount: pdf.numPages };
  } catch (error) {
    throw pdfError(error);
  } finally {
    await pdf.destroy().catch(() => undefined);
  }
}

function pdfError(error: unknown): ExtractionError {
  // pdf.js's exceptions are not exported classes one can test with instanceof; their names are stable.
  if (error instanceof Error && error.name === 'PasswordException')
    return new ExtractionError('encrypted', ENCRYPTED_PDF_MESSAGE, { cause: error });
  return new ExtractionError('corrupt', corruptMessage('pdf'), { cause: error });
}
