import path from 'node:path';
import { fileTypeFromBuffer } from 'file-type';
import {
  EMPTY_MESSAGE,
  ENCRYPTED_OFFICE_MESSAGE,
  UNSUPPORTED_TYPE_MESSAGE,
  corruptMessage,
  mismatchMessage,
  notTextMessage,
  unsupportedLooksLikeMessage,
} from './messages';
import { isEncryptedOoxml, ooxmlKindFromEntries } from './ooxml';
import { decodeText, hasUtf16Bom } from './text-decode';
import { type DocumentKind, ExtractionError } from './types';

/** Canonical MIME types of the formats Verity reads. */
export const MIME = {
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  docm: 'application/vnd.ms-word.document.macroenabled.12',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  xlsm: 'application/vnd.ms-excel.sheet.macroenabled.12',
  csv: 'text/csv',
  text: 'text/plain',
  markdown: 'text/markdown',
  html: 'text/html',
  png: 'image/png',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
} as const;

/** The MIME types each kind may be reported with; the first is the canonical one. */
export const MIME_BY_KIND: Readonly<Record<DocumentKind, readonly string[]>> = {
  pdf: [MIME.pdf],
  docx: [MIME.docx, MIME.docm],
  xlsx: [MIME.xlsx, MIME.xlsm],
  csv: [MIME.csv],
  text: [MIME.text],
  markdown: [MIME.markdown],
  html: [MIME.html],
  image: [MIME.png, MIME.jpeg, MIME.webp],
};

/** File name extensions Verity accepts (for an upload widget's accept list), each with the kind it names. */
export const KIND_BY_EXTENSION: Readonly<Record<string, DocumentKind>> = {
  pdf: 'pdf',
  docx: 'docx',
  docm: 'docx',
  xlsx: 'xlsx',
  xlsm: 'xlsx',
  csv: 'csv',
  txt: 'text',
  text: 'text',
  md: 'markdown',
  markdown: 'markdown',
  html: 'html',
  htm: 'html',
  png: 'image',
  jpg: 'image',
  jpeg: 'image',
  webp: 'image',
};

const TEXT_KINDS: ReadonlySet<DocumentKind> = new Set(['csv', 'text', 'markdown', 'html']);

// file-type's `ext` for the binary formats we read. Macro-enabled Office files are read like the plain ones: the
// macros are never run, and SIG-style questionnaires and policy templates are often distributed that way.
const KIND_BY_SNIFFED: Readonly<Record<string, DocumentKind>> = {
  pdf: 'pdf',
  docx: 'docx',
  docm: 'docx',
  xlsx: 'xlsx',
  xlsm: 'xlsx',
  png: 'image',
  jpg: 'image',
  webp: 'image',
};

// What a recognised but unsupported file looks like, in words a user understands.
const LOOKS_LIKE: Readonly<Record<string, string>> = {
  exe: 'a Windows executable',
  elf: 'a Linux executable',
  macho: 'a macOS executable',
  dll: 'a Windows library',
  msi: 'a Windows installer',
  zip: 'a ZIP archive',
  rar: 'a RAR archive',
  '7z': 'a 7-Zip archive',
  gz: 'a gzip archive',
  bz2: 'a bzip2 archive',
  xz: 'an xz archive',
  tar: 'a tar archive',
  cfb: 'an older Microsoft Office file (.doc, .xls or .ppt)',
  pptx: 'a PowerPoint presentation',
  odt: 'an OpenDocument text file',
  ods: 'an OpenDocument spreadsheet',
  rtf: 'an RTF document',
  epub: 'an e-book (EPUB)',
  xml: 'an XML file',
  gif: 'a GIF image',
  bmp: 'a BMP image',
  tif: 'a TIFF image',
  heic: 'a HEIC photo',
  sqlite: 'a SQLite database',
};

/**
 * Decides what a file is from its bytes, using the name only where the content cannot say (text formats).
 * Binary formats are recognised by their magic numbers (a docx is a ZIP whose content types say it is a Word
 * document); a supported format wins over a misleading extension. Text formats are accepted when the extension
 * names one and the content is text (no NUL bytes, valid UTF-8). Throws ExtractionError 'empty' or
 * 'unsupported_type' (or 'corrupt'/'encrypted' when the extension names a format and the content is a broken or
 * password-protected one) with a sentence for the user. Works on the first bytes of a file as well (the upload check
 * reads only the first megabyte), including a text prefix that ends inside a character.
 */
export async function detectDocumentType(
  bytes: Uint8Array,
  originalName: string,
): Promise<{ kind: DocumentKind; mime: string }> {
  if (bytes.byteLength === 0) throw new ExtractionError('empty', EMPTY_MESSAGE);
  const named = kindFromName(originalName);
  const sniffed = await sniff(bytes);

  const sniffedKind = sniffed ? KIND_BY_SNIFFED[sniffed.ext] : undefined;
  if (sniffed && sniffedKind) return { kind: sniffedKind, mime: sniffed.mime };
  if (sniffed?.ext === 'zip' && (named === 'docx' || named === 'xlsx')) {
    const office = ooxmlKindFromEntries(bytes);
    if (office) return { kind: office, mime: MIME[office] };
  }

  // Text has no magic number: the extension says which text format, the content only whether it is text. This comes
  // before refusing a sniffed type because some text is sniffed too (an XHTML page is "xml").
  if (named && TEXT_KINDS.has(named)) {
    const decoded = decodeText(bytes, { partial: true });
    if (decoded.ok) return { kind: named, mime: MIME_BY_KIND[named][0] ?? MIME.text };
    // A UTF-16 byte order mark says "text" more surely than a sniffer that takes it for an audio frame.
    if (!sniffed || hasUtf16Bom(bytes))
      throw new ExtractionError('unsupported_type', notTextMessage(named, decoded.problem));
  }

  if (sniffed) {
    if (sniffed.ext === 'cfb' && (named === 'docx' || named === 'xlsx') && isEncryptedOoxml(bytes))
      throw new ExtractionError('encrypted', ENCRYPTED_OFFICE_MESSAGE);
    const looksLike = describe(sniffed);
    throw new ExtractionError(
      'unsupported_type',
      named ? mismatchMessage(named, looksLike) : unsupportedLooksLikeMessage(looksLike),
    );
  }
  // Named as a binary format we read, but unrecognisable: most likely a truncated or damaged file.
  if (named) throw new ExtractionError('corrupt', corruptMessage(named));
  throw new ExtractionError('unsupported_type', UNSUPPORTED_TYPE_MESSAGE);
}

function kindFromName(originalName: string): DocumentKind | undefined {
  const extension = path.extname(originalName.trim()).slice(1).toLowerCase();
  return Object.hasOwn(KIND_BY_EXTENSION, extension) ? KIND_BY_EXTENSION[extension] : undefined;
}

async function sniff(bytes: Uint8Array): Promise<{ ext: string; mime: string } | undefined> {
  try {
    return await fileTypeFromBuffer(bytes);
  } catch {
    // file-type throws on some malformed containers (a ZIP with a broken entry): that is "unrecognised", not a bug.
    return undefined;
  }
}

function describe(type: { ext: string; mime: string }): string {
  const known = LOOKS_LIKE[type.ext];
  if (known) return known;
  const name = type.ext.toUpperCase();
  if (type.mime.startsWith('image/')) return `a ${name} image`;
  if (type.mime.startsWith('video/')) return `a video (${name})`;
  if (type.mime.startsWith('audio/')) return `an audio file (${name})`;
  return `a ${name} file`;
}
