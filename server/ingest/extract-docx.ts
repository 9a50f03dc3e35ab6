import { docxToHtml } from './docx-html';
import { htmlToBlocks } from './extract-html';
import { corruptMessage } from './messages';
import { assertSafeOfficeFile } from './office-guard';
import { type Extraction, ExtractionError } from './types';

/**
 * Word (.docx): mammoth renders the document as semantic HTML (its heading styles become h1–h6), which the HTML
 * extractor turns into one block per section. A .docx has no fixed pages, so page is null. The archive passes the zip
 * guard first (see office-guard.ts).
 */
export async function extractDocx(bytes: Uint8Array): Promise<Extraction> {
  assertSafeOfficeFile(bytes, 'docx');
  let html: string;
  try {
    html = await docxToHtml(bytes);
  } catch (error) {
    throw new ExtractionError('corrupt', corruptMessage('docx'), { cause: error });
  }
  return { blocks: htmlToBlocks(html), pageCount: null };
}
