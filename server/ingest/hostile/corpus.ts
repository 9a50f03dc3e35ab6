// The hostile-file corpus: every kind of file a user could upload to hurt a parser, built in memory (each in well
// under a second, none written to disk), with what a reader must answer. The builders live in the corpus-*.ts files
// next to this one; this file holds the document library's catalogue, corpus-questionnaires.ts the intake's.
// Test-only: never import from production code.
import type { ExtractionErrorCode } from '../types';
import * as image from './corpus-image';
import * as office from './corpus-office';
import * as pdf from './corpus-pdf';
import * as text from './corpus-text';
import { zipArchive } from './corpus-zip';

/**
 * One hostile file. A reader must refuse it with one of `codes` (its own error type, a sentence for the user), or,
 * when `readable` is set, may also read it; either way within the time and memory bounds, never with another
 * exception. `mustNotContain`: text that must never appear in what is read (the content of an external entity).
 */
export type HostileFile<Code extends string> = {
  name: string;
  fileName: string;
  bytes: () => Uint8Array;
  codes: readonly Code[];
  readable?: boolean;
  mustNotContain?: string;
};

type DocumentCase = HostileFile<ExtractionErrorCode>;

/** A PDF with a whole Word document appended: a PDF to a PDF reader, a ZIP to a ZIP reader. */
export function pdfZipPolyglot(): Uint8Array {
  const head = pdf.validPdf(1);
  return zipArchive(office.docxEntries(office.documentXml(office.questionTable())), head);
}

/** A workbook with a PDF appended after its end record (within the 64 kB a ZIP reader searches for it). */
export function zipPdfPolyglot(): Uint8Array {
  return new Uint8Array(Buffer.concat([office.validXlsx(), pdf.validPdf(1)]));
}

/** Files for the document library (PDF, Word, Excel, CSV, text, Markdown, HTML, images), through the pipeline. */
export function hostileDocuments(): DocumentCase[] {
  const textCases: DocumentCase[] = Object.entries(text.MALFORMED_TEXT).flatMap(([problem, bytes]) => [
    { name: `a CSV with ${problem}`, fileName: 'answers.csv', bytes, codes: ['unsupported_type'] },
    { name: `a text file with ${problem}`, fileName: 'notes.txt', bytes, codes: ['unsupported_type'] },
  ]);
  const markdownCases: DocumentCase[] = Object.entries(text.PATHOLOGICAL_MARKDOWN).map(([shape, make]) => ({
    name: `2 MB of Markdown: ${shape}`,
    fileName: 'notes.md',
    bytes: () => make(2048),
    codes: ['no_text'],
    readable: true,
  }));
  const htmlCases: DocumentCase[] = Object.entries(text.PATHOLOGICAL_HTML).map(([shape, make]) => ({
    name: `HTML: ${shape}`,
    fileName: 'page.html',
    bytes: () => make(2048),
    codes: ['too_large', 'no_text'],
    readable: true,
  }));
  return [
    // Zip bombs and archive tricks
    {
      name: 'an xlsx whose sheet inflates to 1 GB',
      fileName: 'bomb.xlsx',
      bytes: () => office.xlsxZipBomb(),
      codes: ['too_large'],
    },
    {
      name: 'an xlsx whose sheet inflates to 1 GB but declares 1 kB',
      fileName: 'bomb.xlsx',
      bytes: () => office.xlsxZipBomb({ liar: true }),
      codes: ['too_large'],
    },
    {
      name: 'a docx whose document inflates to 1 GB',
      fileName: 'bomb.docx',
      bytes: () => office.docxZipBomb(),
      codes: ['too_large'],
    },
    {
      name: 'a docx whose document inflates to 1 GB but declares 1 kB',
      fileName: 'bomb.docx',
      bytes: () => office.docxZipBomb({ liar: true }),
      codes: ['too_large'],
    },
    {
      name: 'an xlsx of 50,000 parts',
      fileName: 'parts.xlsx',
      bytes: () => office.manyEntries('xlsx'),
      codes: ['too_large'],
    },
    {
      name: 'a docx of 50,000 parts',
      fileName: 'parts.docx',
      bytes: () => office.manyEntries('docx'),
      codes: ['too_large'],
    },
    // Entity expansion and external entities
    {
      name: 'an xlsx with billion-laughs entities in its sheet',
      fileName: 'laughs.xlsx',
      bytes: () => office.billionLaughsXlsx('sheet'),
      codes: ['corrupt'],
    },
    {
      name: 'an xlsx with billion-laughs entities in its shared strings',
      fileName: 'laughs.xlsx',
      bytes: () => office.billionLaughsXlsx('sharedStrings'),
      codes: ['corrupt'],
    },
    {
      name: 'a docx with billion-laughs entities',
      fileName: 'laughs.docx',
      bytes: () => office.billionLaughsDocx(),
      codes: ['corrupt'],
    },
    {
      name: 'an xlsx with an external entity naming /etc/passwd',
      fileName: 'xxe.xlsx',
      bytes: () => office.externalEntityXlsx(),
      codes: ['corrupt'],
      mustNotContain: office.PASSWD_MARKER,
    },
    {
      name: 'a docx with an external entity naming /etc/passwd',
      fileName: 'xxe.docx',
      bytes: () => office.externalEntityDocx(),
      codes: ['corrupt'],
      mustNotContain: office.PASSWD_MARKER,
    },
    // Absurd shapes
    {
      name: 'an xlsx with a 5 MB cell',
      fileName: 'cell.xlsx',
      bytes: () => office.hugeCellXlsx(),
      codes: [],
      readable: true,
    },
    {
      name: 'an xlsx row of 100,000 cells',
      fileName: 'wide.xlsx',
      bytes: () => office.wideRowXlsx(),
      codes: [],
      readable: true,
    },
    {
      name: 'an xlsx with a cell at XFD1048576',
      fileName: 'far.xlsx',
      bytes: () => office.farCellXlsx(),
      codes: [],
      readable: true,
    },
    {
      name: 'an xlsx merging the whole sheet',
      fileName: 'merge.xlsx',
      bytes: () => office.mergeBombXlsx(),
      codes: [],
      readable: true,
    },
    {
      name: 'an xlsx with a dropdown on every cell',
      fileName: 'dropdown.xlsx',
      bytes: () => office.validationBombXlsx(),
      codes: [],
      readable: true,
    },
    {
      name: 'an xlsx whose sheet is cut off',
      fileName: 'cut.xlsx',
      bytes: () => office.xlsxTruncatedXml(),
      codes: ['corrupt', 'no_text'],
      readable: true,
    },
    {
      name: 'an xlsx whose cells hold NUL and other control characters',
      fileName: 'control.xlsx',
      bytes: () => office.controlCharactersXlsx(),
      codes: [],
      readable: true,
      mustNotContain: '\u0000',
    },
    {
      name: 'a docx whose document.xml is not XML',
      fileName: 'junk.docx',
      bytes: () => office.docxNotXml(),
      codes: ['corrupt'],
    },
    {
      name: 'a docx with tables nested 5,000 deep',
      fileName: 'nested.docx',
      bytes: () => office.nestedTablesDocx(),
      codes: ['corrupt', 'too_large'],
      readable: true,
    },
    {
      name: 'an xls (not a supported document type) with a looping FAT',
      fileName: 'old.xls',
      bytes: () => office.corruptFatXls('cycle'),
      codes: ['unsupported_type'],
    },
    // PDFs
    { name: 'a PDF of 5,000 pages', fileName: 'manual.pdf', bytes: () => pdf.manyPagesPdf(), codes: ['too_large'] },
    {
      name: 'a PDF whose page tree claims a billion pages',
      fileName: 'tree.pdf',
      bytes: () => pdf.sharedKidsPdf(),
      codes: ['too_large'],
    },
    {
      name: 'a PDF whose page count lies',
      fileName: 'count.pdf',
      bytes: () => pdf.lyingPageCountPdf(),
      codes: ['too_large', 'corrupt'],
      readable: true,
    },
    {
      name: 'a PDF with a page tree 100,000 deep',
      fileName: 'deep.pdf',
      bytes: () => pdf.deepPageTreePdf(),
      codes: ['corrupt'],
      readable: true,
    },
    {
      name: 'a PDF whose page tree contains itself',
      fileName: 'cycle.pdf',
      bytes: () => pdf.cyclicPageTreePdf(),
      codes: ['corrupt'],
    },
    {
      name: 'a PDF whose xref names itself as previous',
      fileName: 'xref.pdf',
      bytes: () => pdf.selfReferencingXrefPdf(),
      codes: ['corrupt'],
      readable: true,
    },
    {
      name: 'a PDF page whose content inflates to 1 GB of comments',
      fileName: 'flate.pdf',
      bytes: () => pdf.flateBombPdf(),
      codes: ['too_large'],
    },
    {
      name: 'a PDF page whose content inflates to 1 GB of text',
      fileName: 'flate.pdf',
      bytes: () => pdf.flateBombPdf({ fill: 'text' }),
      codes: ['too_large'],
    },
    {
      name: 'a PDF page whose content is Flate inside Flate, 1 GB from 4 kB',
      fileName: 'double.pdf',
      bytes: () => pdf.doubleFlateBombPdf(),
      codes: ['too_large'],
    },
    {
      // Encrypted streams cannot be measured before pdf.js decrypts them: the pool's memory limit stops this one.
      name: 'an encrypted PDF (empty user password) whose content inflates to 1 GB',
      fileName: 'sealed.pdf',
      bytes: () => pdf.encryptedFlateBombPdf(),
      codes: ['corrupt'],
    },
    {
      name: 'a PDF page whose LZW content decodes to 1 GB',
      fileName: 'lzw.pdf',
      bytes: () => pdf.lzwBombPdf(),
      codes: ['too_large'],
    },
    { name: 'a PDF cut off half way', fileName: 'cut.pdf', bytes: () => pdf.truncatedPdf(), codes: ['corrupt'] },
    { name: 'a PDF header followed by junk', fileName: 'junk.pdf', bytes: () => pdf.corruptPdf(), codes: ['corrupt'] },
    {
      name: 'a PDF with a stream that is not deflate data',
      fileName: 'flate.pdf',
      bytes: () => pdf.badFlatePdf(),
      codes: ['corrupt', 'no_text'],
    },
    // Polyglots
    {
      name: 'a PDF with a Word document appended, named .docx',
      fileName: 'both.docx',
      bytes: pdfZipPolyglot,
      codes: ['corrupt'],
      readable: true,
    },
    {
      name: 'a workbook with a PDF appended, named .pdf',
      fileName: 'both.pdf',
      bytes: zipPdfPolyglot,
      codes: ['corrupt'],
      readable: true,
    },
    // Images
    {
      name: 'a PNG declaring 50,000 × 50,000 pixels',
      fileName: 'bomb.png',
      bytes: () => image.pngPixelBomb(),
      codes: ['too_large'],
    },
    {
      name: 'a JPEG declaring 65,000 × 65,000 pixels',
      fileName: 'bomb.jpg',
      bytes: () => image.jpegPixelBomb(),
      codes: ['too_large'],
    },
    {
      name: 'a JPEG cut off in its data',
      fileName: 'cut.jpg',
      bytes: () => image.truncatedJpeg(),
      codes: ['corrupt', 'no_text'],
    },
    { name: 'a PNG cut off in its header', fileName: 'cut.png', bytes: () => image.truncatedPng(), codes: ['corrupt'] },
    // Text
    ...textCases,
    {
      name: 'a CSV whose quoted field never closes (20 MB)',
      fileName: 'open.csv',
      bytes: () => text.unclosedQuoteCsv(),
      codes: [],
      readable: true,
    },
    {
      name: 'a CSV row of 100,000 fields',
      fileName: 'wide.csv',
      bytes: () => text.wideCsv(),
      codes: [],
      readable: true,
    },
    {
      name: 'a text file of one 20 MB line',
      fileName: 'line.txt',
      bytes: () => text.oneLineText(),
      codes: [],
      readable: true,
    },
    ...markdownCases,
    ...htmlCases,
    {
      // htmlparser2 knows HTML's named entities only and ignores a DOCTYPE's declarations.
      name: 'an HTML page with billion-laughs entities',
      fileName: 'laughs.html',
      bytes: () => new TextEncoder().encode(`${office.BILLION_LAUGHS_DOCTYPE}<p>Encryption at rest: &lol9; yes.</p>`),
      codes: [],
      readable: true,
      mustNotContain: 'lollollol',
    },
  ];
}
