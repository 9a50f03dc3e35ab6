import type { DocumentKind } from './types';

// Every sentence a user may see when a file is refused, in one place so the wording stays consistent.

/** The list of accepted formats, as a user reads it. */
export const SUPPORTED_FORMATS_SENTENCE =
  'Upload PDF, Word (.docx), Excel (.xlsx), CSV, text, Markdown, HTML or image (PNG, JPEG, WebP) files.';

export const UNSUPPORTED_TYPE_MESSAGE = `Files of this type are not supported. ${SUPPORTED_FORMATS_SENTENCE}`;
export const EMPTY_MESSAGE = 'The file is empty.';
export const ENCRYPTED_PDF_MESSAGE = 'This PDF is password-protected. Remove the password and upload it again.';
export const ENCRYPTED_OFFICE_MESSAGE = 'This file is password-protected. Remove the password and upload it again.';
export const NO_TEXT_MESSAGE =
  'No text could be extracted from this file. If it is a scan, upload it as an image (PNG or JPEG) so it can be read with OCR.';
export const NO_TEXT_IN_IMAGE_MESSAGE = 'No text could be read from this image.';
export const TIMED_OUT_MESSAGE =
  'The file took too long to process; it may be damaged or too complex. Split it into smaller files and upload them again.';
export const OUT_OF_MEMORY_MESSAGE =
  'The file needs more memory to process than is allowed. Split it into smaller files and upload them again.';

/** The most pages a PDF may have; see extract-pdf.ts for why. */
export const MAX_PDF_PAGES = 2_000;
/** The most bytes one stream of a PDF may decode to; see pdf-streams.ts for why. */
export const MAX_PDF_STREAM_BYTES = 128 * 1024 * 1024;
/** The most pixels an image may have for OCR; see extract-image.ts for why. */
export const MAX_IMAGE_PIXELS = 50_000_000;
/** The deepest element nesting an HTML file may have; see extract-html.ts for why. */
export const MAX_HTML_DEPTH = 1_000;

/** 'This PDF has 5,000 pages; …' */
export function tooManyPagesMessage(pages: number): string {
  return `This PDF has ${count(pages)} pages; PDFs of up to ${count(MAX_PDF_PAGES)} pages can be read. Split it into smaller files and upload them again.`;
}

export const PDF_STREAM_TOO_LARGE_MESSAGE = `This PDF holds a compressed part that expands to more than ${MAX_PDF_STREAM_BYTES / 1024 / 1024} MB when opened (it may be a "decompression bomb"). Print it to a new PDF or split it into smaller files, and upload it again.`;

/** 'The image is 50,000 × 50,000 pixels; …' */
export function imageTooLargeMessage(width: number, height: number): string {
  return `The image is ${count(width)} × ${count(height)} pixels; images of up to ${MAX_IMAGE_PIXELS / 1_000_000} megapixels can be read. Scale it down and upload it again.`;
}

export const HTML_TOO_DEEP_MESSAGE = `The file nests elements more than ${count(MAX_HTML_DEPTH)} levels deep and cannot be read. Save it as PDF or plain text and upload that instead.`;

function count(value: number): string {
  return value.toLocaleString('en-US');
}

/** "a PDF", "a Word document"…: what a file of this kind is called in a sentence. */
export const KIND_NOUN: Readonly<Record<DocumentKind, string>> = {
  pdf: 'a PDF',
  docx: 'a Word document (.docx)',
  xlsx: 'an Excel workbook (.xlsx)',
  csv: 'a CSV file',
  text: 'a text file',
  markdown: 'a Markdown file',
  html: 'an HTML file',
  image: 'a PNG, JPEG or WebP image',
};

/** 'The file is damaged or is not a valid PDF.' and its equivalent for the other kinds. */
export function corruptMessage(kind: DocumentKind): string {
  const noun = KIND_NOUN[kind].replace(/^an? /, '');
  return `The file is damaged or is not a valid ${noun}.`;
}

/** 'The file is not a PDF: its content looks like a Windows executable.' */
export function mismatchMessage(expected: DocumentKind, looksLike: string): string {
  return `The file is not ${KIND_NOUN[expected]}: its content looks like ${looksLike}.`;
}

/** For a name whose extension Verity does not read, when the content was recognised. */
export function unsupportedLooksLikeMessage(looksLike: string): string {
  return `This type of file is not supported: its content looks like ${looksLike}. ${SUPPORTED_FORMATS_SENTENCE}`;
}

/** A file named as text (.txt, .csv, .md, .html) that is not readable text. */
export function notTextMessage(expected: DocumentKind, problem: 'binary' | 'encoding'): string {
  return problem === 'binary'
    ? `The file is not ${KIND_NOUN[expected]}: it contains binary data.`
    : `The file is not ${KIND_NOUN[expected]} in UTF-8. Save it with UTF-8 encoding and upload it again.`;
}
