// The questionnaire intake's part of the hostile-file corpus (see corpus.ts). Test-only: never import from
// production code.
import type { QuestionnaireErrorCode } from '../questionnaire/types';
import { type HostileFile, pdfZipPolyglot, zipPdfPolyglot } from './corpus';
import * as office from './corpus-office';
import * as text from './corpus-text';

type QuestionnaireCase = HostileFile<QuestionnaireErrorCode>;

/** Files for the questionnaire intake (xlsx, xls, docx, csv), through readQuestionnaire. */
export function hostileQuestionnaires(): QuestionnaireCase[] {
  const refusedOrRead: QuestionnaireCase['codes'] = ['no_questions', 'corrupt'];
  return [
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
    {
      name: 'an xlsx with a 5 MB question cell',
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
      codes: refusedOrRead,
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
      codes: refusedOrRead,
      readable: true,
    },
    {
      name: 'an xlsx whose questions hold NUL and other control characters',
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
      codes: refusedOrRead,
      readable: true,
    },
    {
      // SheetJS reads this XML with its own parser, which expands no entity: the reference stays as text.
      name: 'an Excel 2003 XML .xls with billion-laughs entities',
      fileName: 'laughs.xls',
      bytes: () => office.spreadsheetMl2003(office.BILLION_LAUGHS_DOCTYPE, '&lol9;'),
      codes: [],
      readable: true,
      mustNotContain: 'lollollol',
    },
    {
      name: 'an Excel 2003 XML .xls with an external entity naming /etc/passwd',
      fileName: 'xxe.xls',
      bytes: () => office.spreadsheetMl2003(office.EXTERNAL_ENTITY_DOCTYPE, '&xxe;'),
      codes: [],
      readable: true,
      mustNotContain: office.PASSWD_MARKER,
    },
    {
      name: 'an xls whose FAT loops',
      fileName: 'loop.xls',
      bytes: () => office.corruptFatXls('cycle'),
      codes: ['corrupt'],
    },
    {
      name: 'an xls whose FAT points past the end of the file',
      fileName: 'past.xls',
      bytes: () => office.corruptFatXls('out-of-range'),
      codes: ['corrupt'],
    },
    {
      name: 'a PDF with a Word document appended, named .docx',
      fileName: 'both.docx',
      bytes: pdfZipPolyglot,
      codes: ['unsupported_type'],
    },
    {
      name: 'a workbook with a PDF appended, named .xlsx',
      fileName: 'both.xlsx',
      bytes: zipPdfPolyglot,
      codes: ['corrupt'],
      readable: true,
    },
    ...Object.entries(text.MALFORMED_TEXT).map(([problem, bytes]): QuestionnaireCase => ({
      name: `a CSV with ${problem}`,
      fileName: 'questions.csv',
      bytes,
      codes: ['unsupported_type'],
      // Invalid UTF-8 is read as Windows-1252 (what Excel writes in much of Europe): a result, not a refusal.
      readable: !/NUL|UTF-16/.test(problem),
    })),
    {
      name: 'a CSV whose quoted field never closes (20 MB)',
      fileName: 'open.csv',
      bytes: () => text.unclosedQuoteCsv(),
      codes: ['no_questions'],
      readable: true,
    },
    {
      name: 'a CSV row of 100,000 fields',
      fileName: 'wide.csv',
      bytes: () => text.wideCsv(),
      codes: [],
      readable: true,
    },
    { name: 'a CSV of one 20 MB line', fileName: 'line.csv', bytes: () => text.oneLineText(), codes: ['no_questions'] },
  ];
}
