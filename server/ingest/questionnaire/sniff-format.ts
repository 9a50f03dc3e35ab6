import path from 'node:path';
import { fileTypeFromBuffer } from 'file-type';
import { decodeText, hasUtf16Bom } from '../text-decode';
import { corrupt, emptyFile, notWhatItsNameSays, passwordProtected, unsupported } from './messages';
import { QuestionnaireError, type QuestionnaireFormat } from './types';
import { isCfb, isEncryptedOfficeContainer, readCentralDirectory } from './zip-guard';

/** What the bytes are, and for an .xls that is really an HTML or XML export, its text. */
export type SniffedFormat = { format: QuestionnaireFormat; text?: string };

const FORMAT_BY_EXTENSION: Readonly<Record<string, QuestionnaireFormat>> = {
  xlsx: 'xlsx',
  xlsm: 'xlsx',
  xls: 'xls',
  docx: 'docx',
  docm: 'docx',
  csv: 'csv',
  tsv: 'csv',
  txt: 'csv',
};

// What a recognised but unreadable file looks like, in words a user understands.
const LOOKS_LIKE: Readonly<Record<string, string>> = {
  pdf: 'a PDF',
  exe: 'a Windows executable',
  elf: 'a Linux executable',
  zip: 'a ZIP archive',
  rar: 'a RAR archive',
  '7z': 'a 7-Zip archive',
  gz: 'a gzip archive',
  pptx: 'a PowerPoint presentation',
  odt: 'an OpenDocument text file',
  ods: 'an OpenDocument spreadsheet',
  rtf: 'an RTF document',
  png: 'a PNG image',
  jpg: 'a JPEG image',
  gif: 'a GIF image',
  webp: 'a WebP image',
  sqlite: 'a SQLite database',
};

// Stream names in an OLE directory are UTF-16LE; a BIFF workbook keeps its cells in "Workbook" (or "Book" for
// Excel 5), a Word 97 document in "WordDocument".
const WORKBOOK_STREAM = Buffer.from('Workbook', 'utf16le');
const BOOK_STREAM = Buffer.from('Book', 'utf16le');

/**
 * Decides the format from the content; the name only says which text format a text file is and what the user
 * expected, for the message when the content is something else. A supported format wins over a misleading name
 * (an .xls that is really .xlsx is common); a ".xlsx" that is a PDF or plain text is refused with a sentence.
 */
export async function sniffFormat(bytes: Uint8Array, fileName: string): Promise<SniffedFormat> {
  if (bytes.byteLength === 0) throw emptyFile();
  const extension = path.extname(fileName.trim()).slice(1).toLowerCase();
  const expected = Object.hasOwn(FORMAT_BY_EXTENSION, extension) ? FORMAT_BY_EXTENSION[extension] : undefined;

  if (isCfb(bytes)) {
    if (isEncryptedOfficeContainer(bytes)) {
      throw passwordProtected(expected === 'docx' ? 'docx' : 'xlsx');
    }
    const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (buffer.includes(WORKBOOK_STREAM) || buffer.includes(BOOK_STREAM)) return { format: 'xls' };
    throw refuse(expected, 'an older Word or PowerPoint file (.doc or .ppt)');
  }

  if (isZip(bytes)) {
    let names: string[];
    try {
      names = readCentralDirectory(bytes).map((entry) => entry.name);
    } catch (error) {
      if (error instanceof QuestionnaireError && error.reason !== 'corrupt') throw error;
      throw corrupt(expected === 'docx' ? 'docx' : 'xlsx', error);
    }
    if (names.includes('xl/workbook.xml')) return { format: 'xlsx' };
    if (names.includes('word/document.xml')) return { format: 'docx' };
    if (names.includes('xl/workbook.bin')) throw refuse(expected, 'an Excel binary workbook (.xlsb); save it as .xlsx');
    const sniffed = await sniff(bytes);
    throw refuse(expected, (sniffed && LOOKS_LIKE[sniffed]) ?? 'a ZIP archive');
  }

  // A UTF-16 byte order mark says "text" more surely than a sniffer that takes it for an audio frame; damaged UTF-16
  // cannot be read as another encoding the way damaged UTF-8 is (as Windows-1252), so it is refused here.
  if (hasUtf16Bom(bytes)) {
    if (!decodeText(bytes).ok) throw refuse(expected, 'text in a damaged UTF-16 encoding');
  } else {
    const sniffed = await sniff(bytes);
    if (sniffed && sniffed !== 'xml') throw refuse(expected, LOOKS_LIKE[sniffed] ?? `a ${sniffed.toUpperCase()} file`);
  }

  const decoded = decodeText(bytes);
  if (!decoded.ok && decoded.problem === 'binary') {
    // A truncated workbook has lost its signature with its end; say "damaged" when the name promised one.
    if (expected === 'xlsx' || expected === 'xls' || expected === 'docx') throw corrupt(expected);
    throw refuse(expected, 'binary data');
  }
  if (expected === 'xls' && decoded.ok && looksLikeSpreadsheetMarkup(decoded.text)) {
    return { format: 'xls', text: decoded.text };
  }
  if (expected === 'xlsx' || expected === 'xls' || expected === 'docx') throw refuse(expected, 'plain text');
  const markup = decoded.ok ? structuredText(decoded.text, extension) : null;
  if (markup) throw unsupported(markup);
  return { format: 'csv' };
}

function refuse(expected: QuestionnaireFormat | undefined, looksLike: string): QuestionnaireError {
  return expected ? notWhatItsNameSays(expected, looksLike) : unsupported(looksLike);
}

/**
 * JSON, XML or HTML text: a questionnaire tool's own template or a web page, not rows of questions. Read as CSV each
 * of its lines would become a junk question.
 */
function structuredText(text: string, extension: string): string | null {
  if (extension === 'json' || extension === 'jsonc') return 'JSON data';
  if (extension === 'xml' || extension === 'html' || extension === 'htm') return 'an XML or HTML file';
  // Comment lines first (JSON with comments, as template languages use), then the first character that counts.
  const start = text
    .slice(0, 65_536)
    .replace(/^\uFEFF/, '')
    .replace(/^(\s*(\/\/[^\n]*|\/\*[\s\S]*?\*\/))*\s*/, '');
  if (start.startsWith('{')) return 'JSON data';
  if (start.startsWith('<')) return 'an XML or HTML file';
  return start.startsWith('[') && isJson(text) ? 'JSON data' : null;
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function isZip(bytes: Uint8Array): boolean {
  // A local file header, or the end record of an empty archive.
  return bytes[0] === 0x50 && bytes[1] === 0x4b && (bytes[2] === 0x03 || bytes[2] === 0x05);
}

/** An HTML table or SpreadsheetML 2003 saved with an .xls name, which Excel (and SheetJS) open as a workbook. */
function looksLikeSpreadsheetMarkup(text: string): boolean {
  const head = text.slice(0, 4_096).toLowerCase();
  return (
    head.includes('<table') || head.includes('urn:schemas-microsoft-com:office:spreadsheet') || head.includes('<html')
  );
}

async function sniff(bytes: Uint8Array): Promise<string | undefined> {
  try {
    return (await fileTypeFromBuffer(bytes))?.ext;
  } catch {
    // file-type throws on some malformed containers: that is "unrecognised", not a bug.
    return undefined;
  }
}
