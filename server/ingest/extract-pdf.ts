import { getDocumentProxy } from 'unpdf';
import { ENCRYPTED_PDF_MESSAGE, corruptMessage } from './messages';
import { type PdfTextItem, linesOf, pageBlocks } from './pdf-layout';
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
 */
export async function extractPdf(bytes: Uint8Array): Promise<Extraction> {
  let pdf: PdfDocument;
  try {
    // pdf.js takes ownership of (detaches) the buffer it is given; a copy keeps the caller's bytes intact.
    pdf = await getDocumentProxy(bytes.slice(), { verbosity: ERRORS_ONLY });
  } catch (error) {
    throw pdfError(error);
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
      blocks.push(...result.blocks);
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
