import mammoth from 'mammoth';
import { htmlToBlocks } from './extract-html';
import { corruptMessage } from './messages';
import { assertSafeOfficeFile } from './office-guard';
import { type Extraction, ExtractionError } from './types';

// mammoth would inline every picture as a base64 data URI: megabytes of HTML for words we never read.
const dropImages = mammoth.images.imgElement(() => Promise.resolve({ src: '' }));

/**
 * Word (.docx): mammoth renders the document as semantic HTML (its heading styles become h1–h6), which the HTML
 * extractor turns into one block per section. A .docx has no fixed pages, so page is null. The archive passes the zip
 * guard first (see office-guard.ts).
 */
export async function extractDocx(bytes: Uint8Array): Promise<Extraction> {
  assertSafeOfficeFile(bytes, 'docx');
  let html: string;
  try {
    const result = await mammoth.convertToHtml(
      { buffer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) },
      // Never follow links to files outside the document: an uploaded file must not read the server's disk.
      { convertImage: dropImages, externalFileAccess: false },
    );
    html = result.value;
  } catch (error) {
    throw new ExtractionError('corrupt', corruptMessage('docx'), { cause: error });
  }
  return { blocks: htmlToBlocks(html), pageCount: null };
}
