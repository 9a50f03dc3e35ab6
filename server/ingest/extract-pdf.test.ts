import { describe, expect, it } from 'vitest';
import { extractPdf } from './extract-pdf';
import { linesOf, pageBlocks } from './pdf-layout';
import { extractDocument } from './pipeline';
import { makePdf, renderPdf } from '../../test/fixtures/ingest/make-documents';
import { ExtractionError } from './types';
import { rejectionOf } from '../../test/helpers/rejection';

const PAGES = [
  {
    heading: 'Access Control',
    body: 'All employees use multi-factor authentication. Access rights are reviewed every quarter.',
  },
  { heading: 'Encryption', body: 'Customer data is encrypted at rest with AES-256. Keys are rotated every year.' },
  {
    heading: 'Incident Response',
    body: 'Incidents are triaged within one hour. Customers hear of a breach within 72 hours.',
  },
];

function threePagePdf(): Promise<Uint8Array> {
  return renderPdf((doc) => {
    PAGES.forEach((page, index) => {
      if (index > 0) doc.addPage();
      doc.fontSize(18).text(page.heading);
      doc.moveDown();
      doc.fontSize(11).text(page.body);
    });
  });
}

const failure = (promise: Promise<unknown>) => rejectionOf(promise, ExtractionError);

describe('extractPdf', () => {
  it('gives each page its text, its page number and its heading as section', async () => {
    const { blocks, pageCount } = await extractPdf(await threePagePdf());
    expect(pageCount).toBe(3);
    expect(blocks.map((block) => [block.page, block.section])).toEqual([
      [1, 'Access Control'],
      [2, 'Encryption'],
      [3, 'Incident Response'],
    ]);
    PAGES.forEach((page, index) => {
      const text = blocks[index]?.text.replace(/\s+/g, ' ');
      expect(text).toContain(page.heading);
      expect(text).toContain(page.body);
    });
  });

  it('leaves the caller’s bytes intact (pdf.js would detach them)', async () => {
    const bytes = await threePagePdf();
    const length = bytes.byteLength;
    await extractPdf(bytes);
    expect(bytes.byteLength).toBe(length);
  });

  it('continues a section across pages until the next heading', async () => {
    const bytes = await renderPdf((doc) => {
      doc.fontSize(18).text('Backups');
      doc.fontSize(11).text('Backups are taken every day.');
      doc.addPage();
      doc.fontSize(11).text('Restores are tested every quarter.');
    });
    const { blocks } = await extractPdf(bytes);
    expect(blocks.map((block) => [block.page, block.section])).toEqual([
      [1, 'Backups'],
      [2, 'Backups'],
    ]);
  });

  it('refuses a password-protected PDF', async () => {
    const error = await failure(extractPdf(await makePdf(1, { userPassword: 'secret' })));
    expect(error.code).toBe('encrypted');
    expect(error.message).toBe('This PDF is password-protected. Remove the password and upload it again.');
  });

  it('calls a truncated or garbled PDF damaged', async () => {
    const bytes = await makePdf(2);
    const truncated = await failure(extractPdf(bytes.slice(0, 400)));
    expect(truncated.code).toBe('corrupt');
    expect(truncated.message).toBe('The file is damaged or is not a valid PDF.');
    const garbled = new Uint8Array(4000).map((_, index) => (index * 7919) % 251);
    garbled.set(new TextEncoder().encode('%PDF-1.7\n'));
    expect((await failure(extractPdf(garbled))).code).toBe('corrupt');
  });

  it('reports a PDF with no text (a drawing, or a scan) as having none', async () => {
    const bytes = await renderPdf((doc) => {
      doc.rect(100, 100, 200, 120).fill('#336699');
    });
    expect((await extractPdf(bytes)).blocks).toEqual([]);
    const error = await failure(extractDocument(bytes, 'scan.pdf'));
    expect(error.code).toBe('no_text');
    expect(error.message).toBe(
      'No text could be extracted from this file. If it is a scan, upload it as an image (PNG or JPEG) so it can be read with OCR.',
    );
  });
});

describe('pdf layout', () => {
  const item = (str: string, size: number, y: number, hasEOL = true) => ({
    str,
    hasEOL,
    transform: [size, 0, 0, size, 72, y],
  });

  it('treats a larger, short line as a heading and a wide gap as a paragraph break', () => {
    const lines = linesOf([
      item('Data Retention', 16, 700),
      item('Customer data is kept for the length of the', 11, 670),
      item('contract.', 11, 657),
      item('Logs are kept for one year.', 11, 620),
    ]);
    const { blocks, section } = pageBlocks(lines, 4, 'Earlier');
    expect(section).toBe('Data Retention');
    expect(blocks).toEqual([
      {
        page: 4,
        section: 'Data Retention',
        text: 'Data Retention\n\nCustomer data is kept for the length of the\ncontract.\n\nLogs are kept for one year.',
      },
    ]);
  });

  it('ends a line at a baseline change even without an end-of-line mark', () => {
    const lines = linesOf([item('First line', 11, 700, false), item('Second line', 11, 686, false)]);
    expect(lines.map((line) => line.text)).toEqual(['First line', 'Second line']);
  });

  it('keeps text before the first heading in the section carried from the previous page', () => {
    const lines = linesOf([item('continued text.', 11, 700), item('Next Topic', 16, 650), item('Body.', 11, 620)]);
    expect(pageBlocks(lines, 2, 'Previous Topic').blocks.map((block) => block.section)).toEqual([
      'Previous Topic',
      'Next Topic',
    ]);
  });
});
