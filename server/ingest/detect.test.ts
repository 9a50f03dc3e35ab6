import { describe, expect, it } from 'vitest';
import { MIME, detectDocumentType } from './detect';
import {
  encryptedOfficeFile,
  linuxExecutable,
  whitePng,
  windowsExecutable,
  zipOf,
} from '../../test/fixtures/ingest/sample-files';
import { makeDocx, makePdf } from '../../test/fixtures/ingest/make-documents';
import { ExtractionError } from './types';
import { rejectionOf } from '../../test/helpers/rejection';

const text = (value: string) => new TextEncoder().encode(value);

const refusal = (bytes: Uint8Array, name: string) =>
  rejectionOf(detectDocumentType(bytes, name), ExtractionError, name);

describe('detectDocumentType', () => {
  it('recognises binary formats by their content', async () => {
    expect(await detectDocumentType(await makePdf(1), 'policy.pdf')).toEqual({ kind: 'pdf', mime: MIME.pdf });
    expect(await detectDocumentType(await makeDocx(1), 'policy.docx')).toEqual({ kind: 'docx', mime: MIME.docx });
    expect(await detectDocumentType(whitePng(), 'scan.PNG')).toEqual({ kind: 'image', mime: MIME.png });
    const jpeg = new Uint8Array([
      0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0,
    ]);
    expect(await detectDocumentType(jpeg, 'photo.jpg')).toEqual({ kind: 'image', mime: MIME.jpeg });
    const webp = new Uint8Array(32);
    webp.set(text('RIFF'));
    webp.set(text('WEBPVP8 '), 8);
    expect(await detectDocumentType(webp, 'photo.webp')).toEqual({ kind: 'image', mime: MIME.webp });
  });

  it('believes the content over a misleading name when the content is a format it reads', async () => {
    expect(await detectDocumentType(await makeDocx(1), 'really-a-word-file.pdf')).toMatchObject({ kind: 'docx' });
    expect(await detectDocumentType(await makePdf(1), 'no-extension')).toMatchObject({ kind: 'pdf' });
  });

  it('recognises a .docx from its first bytes even when its content types entry comes last', async () => {
    // The docx library writes [Content_Types].xml as the last ZIP entry; the upload check reads only a prefix.
    const start = (await makeDocx(50)).subarray(0, 2000);
    expect(await detectDocumentType(start, 'large.docx')).toEqual({ kind: 'docx', mime: MIME.docx });
    expect(await detectDocumentType(zipOf({ 'xl/workbook.xml': '<x/>' }), 'book.xlsx')).toMatchObject({ kind: 'xlsx' });
  });

  it('takes text formats from the extension when the content is text', async () => {
    expect(await detectDocumentType(text('a,b\n1,2\n'), 'answers.csv')).toEqual({ kind: 'csv', mime: MIME.csv });
    expect(await detectDocumentType(text('Plain words.'), 'notes.txt')).toEqual({ kind: 'text', mime: MIME.text });
    expect(await detectDocumentType(text('# Title'), 'README.md')).toEqual({ kind: 'markdown', mime: MIME.markdown });
    expect(await detectDocumentType(text('<p>Hi</p>'), 'page.htm')).toEqual({ kind: 'html', mime: MIME.html });
    // file-type calls XHTML "xml"; the name and the text content still make it an HTML page.
    const xhtml = text('<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><body>Hi</body></html>');
    expect(await detectDocumentType(xhtml, 'page.xhtml.html')).toMatchObject({ kind: 'html' });
    const utf16 = new Uint8Array(
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('Excel Unicode text', 'utf16le')]),
    );
    expect(await detectDocumentType(utf16, 'export.txt')).toMatchObject({ kind: 'text' });
    // The first bytes of a larger file may end inside a character.
    expect(await detectDocumentType(utf16.subarray(0, 7), 'export.txt')).toMatchObject({ kind: 'text' });
    expect(await detectDocumentType(text('Café').subarray(0, 4), 'menu.csv')).toMatchObject({ kind: 'csv' });
  });

  it('refuses an empty file', async () => {
    const error = await refusal(new Uint8Array(0), 'policy.pdf');
    expect(error.code).toBe('empty');
    expect(error.message).toBe('The file is empty.');
  });

  it('names what a renamed executable or archive looks like', async () => {
    const exe = await refusal(windowsExecutable(), 'policy.pdf');
    expect(exe.code).toBe('unsupported_type');
    expect(exe.message).toBe('The file is not a PDF: its content looks like a Windows executable.');
    expect((await refusal(linuxExecutable(), 'policy.pdf')).message).toBe(
      'The file is not a PDF: its content looks like a Linux executable.',
    );
    expect((await refusal(zipOf({ 'a.txt': 'hello' }), 'policy.docx')).message).toBe(
      'The file is not a Word document (.docx): its content looks like a ZIP archive.',
    );
    const gif = await refusal(text('GIF89a\u0001\u0000\u0001\u0000'), 'scan.png');
    expect(gif.message).toBe('The file is not a PNG, JPEG or WebP image: its content looks like a GIF image.');
    const unnamed = await refusal(windowsExecutable(), 'setup.exe');
    expect(unnamed.code).toBe('unsupported_type');
    expect(unnamed.message).toMatch(
      /^This type of file is not supported: its content looks like a Windows executable\. Upload PDF/,
    );
  });

  it('refuses text files that are not text', async () => {
    const nul = await refusal(new Uint8Array([0x68, 0x69, 0x00, 0x21]), 'notes.txt');
    expect(nul.code).toBe('unsupported_type');
    expect(nul.message).toBe('The file is not a text file: it contains binary data.');
    const latin1 = await refusal(new Uint8Array(Buffer.from('caf\u00e9;cr\u00e8me', 'latin1')), 'prices.csv');
    expect(latin1.code).toBe('unsupported_type');
    expect(latin1.message).toBe(
      'The file is not a CSV file in UTF-8. Save it with UTF-8 encoding and upload it again.',
    );
  });

  it('refuses formats it does not read, with the list of those it does', async () => {
    const error = await refusal(text('{"a": 1}'), 'data.json');
    expect(error.code).toBe('unsupported_type');
    expect(error.message).toBe(
      'Files of this type are not supported. Upload PDF, Word (.docx), Excel (.xlsx), CSV, text, Markdown, HTML or image (PNG, JPEG, WebP) files.',
    );
  });

  it('calls an unrecognisable file named as a binary format damaged', async () => {
    const error = await refusal(text('this was never a PDF'), 'policy.pdf');
    expect(error.code).toBe('corrupt');
    expect(error.message).toBe('The file is damaged or is not a valid PDF.');
  });

  it('recognises a password-protected Office file', async () => {
    const error = await refusal(encryptedOfficeFile(), 'policy.docx');
    expect(error.code).toBe('encrypted');
    expect(error.message).toBe('This file is password-protected. Remove the password and upload it again.');
  });
});
