import { describe, expect, it } from 'vitest';
import { extractDocument } from './pipeline';
import { linuxExecutable, windowsExecutable, zipOf } from '../../test/fixtures/ingest/sample-files';
import { makeDocx, makePdf, policyPage } from '../../test/fixtures/ingest/make-documents';
import { ExtractionError } from './types';
import { rejectionOf } from '../../test/helpers/rejection';

const refusal = (bytes: Uint8Array, name: string) => rejectionOf(extractDocument(bytes, name), ExtractionError, name);

describe('extractDocument', () => {
  it('turns a PDF into chunks that keep their page and section', async () => {
    const result = await extractDocument(await makePdf(3), 'policy.pdf');
    expect(result).toMatchObject({ kind: 'pdf', mime: 'application/pdf', pageCount: 3 });
    expect(result.chunks.map((chunk) => chunk.ordinal)).toEqual(result.chunks.map((_, index) => index));
    for (const page of [1, 2, 3]) {
      const onPage = result.chunks.filter((chunk) => chunk.page === page);
      expect(onPage.length).toBeGreaterThan(0);
      expect(onPage.every((chunk) => chunk.section === policyPage(page - 1).heading)).toBe(true);
      // The page's first sentence is in its first chunk.
      const firstSentence = policyPage(page - 1).paragraphs[0]?.split('. ')[0] ?? '';
      expect(onPage[0]?.text.replace(/\s+/g, ' ')).toContain(firstSentence);
    }
  });

  it('turns a DOCX into chunks with sections and no page', async () => {
    const result = await extractDocument(await makeDocx(2), 'policy.docx');
    expect(result).toMatchObject({ kind: 'docx', pageCount: null });
    expect(new Set(result.chunks.map((chunk) => chunk.section))).toEqual(
      new Set([policyPage(0).heading, policyPage(1).heading]),
    );
    expect(result.chunks.every((chunk) => chunk.page === null)).toBe(true);
  });

  it('reads CSV rows through the whole chain', async () => {
    const csv = new TextEncoder().encode('Question,Answer\nDo you encrypt backups?,Yes\n');
    const result = await extractDocument(csv, 'answers.csv');
    expect(result).toEqual({
      kind: 'csv',
      mime: 'text/csv',
      pageCount: null,
      chunks: [{ ordinal: 0, page: null, section: null, text: 'Question: Do you encrypt backups?; Answer: Yes' }],
    });
  });

  it('refuses an empty file', async () => {
    expect(await refusal(new Uint8Array(0), 'empty.pdf')).toMatchObject({
      code: 'empty',
      message: 'The file is empty.',
    });
  });

  it('refuses executables renamed .pdf, naming what they are', async () => {
    expect(await refusal(windowsExecutable(), 'invoice.pdf')).toMatchObject({
      code: 'unsupported_type',
      message: 'The file is not a PDF: its content looks like a Windows executable.',
    });
    expect(await refusal(linuxExecutable(), 'policy.pdf')).toMatchObject({
      code: 'unsupported_type',
      message: 'The file is not a PDF: its content looks like a Linux executable.',
    });
  });

  it('refuses a .txt containing NUL bytes', async () => {
    const bytes = new Uint8Array([...new TextEncoder().encode('looks like text'), 0, 1, 2, 0]);
    expect(await refusal(bytes, 'notes.txt')).toMatchObject({ code: 'unsupported_type' });
  });

  it('refuses a text file with only whitespace as having no text', async () => {
    expect(await refusal(new TextEncoder().encode(' \n\t\n '), 'blank.txt')).toMatchObject({ code: 'no_text' });
  });

  it('refuses a password-protected PDF and a damaged one', async () => {
    expect(await refusal(await makePdf(1, { userPassword: 'pw' }), 'locked.pdf')).toMatchObject({
      code: 'encrypted',
      message: 'This PDF is password-protected. Remove the password and upload it again.',
    });
    const pdf = await makePdf(1);
    expect(await refusal(pdf.slice(0, 200), 'cut.pdf')).toMatchObject({
      code: 'corrupt',
      message: 'The file is damaged or is not a valid PDF.',
    });
  });

  it('reports a library failure on a damaged file as corrupt, keeping the cause', async () => {
    // A ZIP that claims to be a Word document in its content types, but has no document in it.
    const fake = zipOf({
      '[Content_Types].xml':
        '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
        '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
      'word/styles.xml': '<x/>',
    });
    const error = await refusal(fake, 'policy.docx');
    expect(error.code).toBe('corrupt');
    expect(error.message).toBe('The file is damaged or is not a valid Word document (.docx).');
    expect(error.cause).toBeDefined();
  });
});
