import { Inflate } from 'fflate';
import { isEncryptedOoxml } from '../ooxml';
import { QuestionnaireError } from './types';

// An .xlsx or .docx is a ZIP that exceljs / mammoth inflate entirely in memory, trusting what it says about itself.
// A few kilobytes can declare (or really hold) gigabytes, so the archive is checked before any reader touches it.

export type ZipLimits = {
  /** Sum of the declared uncompressed sizes of all entries. */
  maxTotalBytes: number;
  maxEntryBytes: number;
  maxEntries: number;
  /** Uncompressed / compressed, for entries larger than ratioAppliesAbove. Real workbooks stay well under 100. */
  maxRatio: number;
  ratioAppliesAbove: number;
};

export const DEFAULT_ZIP_LIMITS: Readonly<ZipLimits> = {
  maxTotalBytes: 200 * 1024 * 1024,
  maxEntryBytes: 100 * 1024 * 1024,
  maxEntries: 10_000,
  maxRatio: 200,
  ratioAppliesAbove: 1024 * 1024,
};

export const PASSWORD_PROTECTED_MESSAGE =
  'This workbook is password-protected. Remove the password and upload it again.';
const NOT_A_ZIP_MESSAGE = 'The file is damaged or is not a valid Excel workbook (.xlsx).';
const TOO_LARGE_MESSAGE =
  'This file expands to too much data when opened (it may be a "zip bomb"). Remove unneeded sheets or images, or split it into smaller files, and upload it again.';
/** For an OOXML part with a DOCTYPE: the door to entity expansion ("billion laughs") and external entities (XXE). */
export const DOCTYPE_MESSAGE =
  'This file contains an XML document type declaration, which Excel and Word never write and which can be used to attack the server, so it was not opened. Open it in Excel or Word, save it again and upload the saved copy.';

const CFB_SIGNATURE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
// Stream names in an OLE directory are UTF-16LE. An encrypted .xlsx/.docx holds "EncryptionInfo" and
// "EncryptedPackage"; a legacy .xls never does.
const ENCRYPTION_INFO = Buffer.from('EncryptionInfo', 'utf16le');

/** True for an OLE compound file (legacy .xls/.doc, or an encrypted .xlsx/.docx). */
export function isCfb(bytes: Uint8Array): boolean {
  return bytes.length >= 8 && CFB_SIGNATURE.every((byte, index) => bytes[index] === byte);
}

/** True for an OLE compound file that wraps a password-protected Office Open XML file. */
export function isEncryptedOfficeContainer(bytes: Uint8Array): boolean {
  if (!isCfb(bytes)) return false;
  if (isEncryptedOoxml(bytes)) return true;
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).includes(ENCRYPTION_INFO);
}

export type ZipEntry = {
  name: string;
  method: number;
  compressedSize: number;
  uncompressedSize: number;
  localHeaderOffset: number;
  encrypted: boolean;
};

/**
 * Throws a QuestionnaireError unless the bytes are a ZIP that is safe to open: not encrypted, at most
 * `maxEntries` entries, no entry over `maxEntryBytes` or with an absurd compression ratio, at most `maxTotalBytes`
 * in all. The declared sizes are judged from the central directory alone (nothing is inflated for that), then each
 * entry is inflated as a stream, discarding the output, to prove it really is no larger than it declares: exceljs
 * and mammoth trust the data rather than the directory. While inflating, XML parts are searched for a DOCTYPE
 * (422 'corrupt' with DOCTYPE_MESSAGE): Office never writes one, and it is what entity-expansion and external-entity
 * attacks need, whichever XML parser reads the part later. A CFB file is reported as password-protected when it is an
 * encrypted Office file, and as not a workbook otherwise. Returns the entries for callers that want their names.
 */
export function assertSafeZip(bytes: Uint8Array, limits: Partial<ZipLimits> = {}): ZipEntry[] {
  const limit = { ...DEFAULT_ZIP_LIMITS, ...limits };
  if (isCfb(bytes)) {
    if (isEncryptedOfficeContainer(bytes)) throw new QuestionnaireError(422, 'encrypted', PASSWORD_PROTECTED_MESSAGE);
    throw corrupt();
  }
  const entries = readCentralDirectory(bytes, limit.maxEntries);
  checkDeclaredSizes(entries, limit);
  checkNoOverlap(entries, bytes.length);
  for (const entry of entries) verifyEntryData(bytes, entry);
  return entries;
}

function corrupt(cause?: unknown): QuestionnaireError {
  return new QuestionnaireError(422, 'corrupt', NOT_A_ZIP_MESSAGE, { cause });
}

function tooLarge(detail: string): QuestionnaireError {
  return new QuestionnaireError(413, 'too_large', TOO_LARGE_MESSAGE, { details: { reason: detail } });
}

const EOCD_SIGNATURE = 0x06054b50;
const ZIP64_LOCATOR_SIGNATURE = 0x07064b50;
const ZIP64_EOCD_SIGNATURE = 0x06064b50;
const CENTRAL_SIGNATURE = 0x02014b50;
const LOCAL_SIGNATURE = 0x04034b50;
const MAX_COMMENT = 0xffff;

/** Reads every central-directory record; throws 'corrupt' for anything that does not add up. */
export function readCentralDirectory(bytes: Uint8Array, maxEntries = DEFAULT_ZIP_LIMITS.maxEntries): ZipEntry[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const eocd = findEndOfCentralDirectory(view);
  if (eocd < 0) throw corrupt();
  let count = view.getUint16(eocd + 10, true);
  let directorySize = view.getUint32(eocd + 12, true);
  let directoryOffset = view.getUint32(eocd + 16, true);
  if (count === 0xffff || directorySize === 0xffffffff || directoryOffset === 0xffffffff) {
    const zip64 = readZip64End(view, eocd);
    count = zip64.count;
    directorySize = zip64.size;
    directoryOffset = zip64.offset;
  }
  if (count > maxEntries) {
    throw new QuestionnaireError(
      413,
      'too_large',
      `This file holds ${count.toLocaleString('en-US')} parts; the limit is ${maxEntries.toLocaleString('en-US')}. Save it again from Excel or Word, or split it into smaller files.`,
    );
  }
  if (count === 0 || directoryOffset + directorySize > bytes.length) throw corrupt();

  const entries: ZipEntry[] = [];
  const decoder = new TextDecoder();
  let at = directoryOffset;
  for (let index = 0; index < count; index += 1) {
    if (at + 46 > bytes.length || view.getUint32(at, true) !== CENTRAL_SIGNATURE) throw corrupt();
    const flags = view.getUint16(at + 8, true);
    const method = view.getUint16(at + 10, true);
    let compressedSize = view.getUint32(at + 20, true);
    let uncompressedSize = view.getUint32(at + 24, true);
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const commentLength = view.getUint16(at + 32, true);
    let localHeaderOffset = view.getUint32(at + 42, true);
    const end = at + 46 + nameLength + extraLength + commentLength;
    if (end > bytes.length) throw corrupt();
    const name = decoder.decode(bytes.subarray(at + 46, at + 46 + nameLength));
    if (uncompressedSize === 0xffffffff || compressedSize === 0xffffffff || localHeaderOffset === 0xffffffff) {
      // ZIP64 sizes live in extra field 0x0001, in this order, each present only when its 32-bit field is saturated.
      const extra = findExtra(view, at + 46 + nameLength, extraLength, 0x0001);
      if (!extra) throw corrupt();
      let field = extra.start;
      const next = (): number => {
        if (field + 8 > extra.end) throw corrupt();
        const value = Number(view.getBigUint64(field, true));
        field += 8;
        return value;
      };
      if (uncompressedSize === 0xffffffff) uncompressedSize = next();
      if (compressedSize === 0xffffffff) compressedSize = next();
      if (localHeaderOffset === 0xffffffff) localHeaderOffset = next();
    }
    // Bit 0: traditional encryption; bit 6: strong encryption; method 99: WinZip AES.
    const encrypted = (flags & 0x0001) !== 0 || (flags & 0x0040) !== 0 || method === 99;
    entries.push({ name, method, compressedSize, uncompressedSize, localHeaderOffset, encrypted });
    at = end;
  }
  return entries;
}

function findEndOfCentralDirectory(view: DataView): number {
  const lowest = Math.max(0, view.byteLength - 22 - MAX_COMMENT);
  for (let at = view.byteLength - 22; at >= lowest; at -= 1) {
    if (view.getUint32(at, true) === EOCD_SIGNATURE) return at;
  }
  return -1;
}

function readZip64End(view: DataView, eocd: number): { count: number; size: number; offset: number } {
  const locator = eocd - 20;
  if (locator < 0 || view.getUint32(locator, true) !== ZIP64_LOCATOR_SIGNATURE) throw corrupt();
  const record = Number(view.getBigUint64(locator + 8, true));
  if (record + 56 > view.byteLength || view.getUint32(record, true) !== ZIP64_EOCD_SIGNATURE) throw corrupt();
  return {
    count: Number(view.getBigUint64(record + 32, true)),
    size: Number(view.getBigUint64(record + 40, true)),
    offset: Number(view.getBigUint64(record + 48, true)),
  };
}

function findExtra(view: DataView, start: number, length: number, id: number): { start: number; end: number } | null {
  let at = start;
  const end = start + length;
  while (at + 4 <= end) {
    const fieldId = view.getUint16(at, true);
    const size = view.getUint16(at + 2, true);
    if (fieldId === id) return { start: at + 4, end: Math.min(end, at + 4 + size) };
    at += 4 + size;
  }
  return null;
}

function checkDeclaredSizes(entries: readonly ZipEntry[], limit: ZipLimits): void {
  let total = 0;
  for (const entry of entries) {
    if (entry.encrypted) throw new QuestionnaireError(422, 'encrypted', PASSWORD_PROTECTED_MESSAGE);
    if (entry.uncompressedSize > limit.maxEntryBytes) throw tooLarge(`entry ${entry.name} is too large`);
    const ratio = entry.uncompressedSize / Math.max(1, entry.compressedSize);
    if (entry.uncompressedSize > limit.ratioAppliesAbove && ratio > limit.maxRatio) {
      throw tooLarge(`entry ${entry.name} is compressed ${Math.round(ratio)} to 1`);
    }
    total += entry.uncompressedSize;
    if (total > limit.maxTotalBytes) throw tooLarge('the entries are too large in total');
  }
}

// Entries that share compressed data multiply one small payload many times over (the "overlapping" zip bomb); in a
// genuine archive every entry owns its own bytes.
function checkNoOverlap(entries: readonly ZipEntry[], fileLength: number): void {
  const spans = entries
    .map((entry) => ({ start: entry.localHeaderOffset, end: entry.localHeaderOffset + 30 + entry.compressedSize }))
    .sort((a, b) => a.start - b.start);
  let previousEnd = 0;
  for (const span of spans) {
    if (span.start < previousEnd || span.end > fileLength) throw corrupt();
    previousEnd = span.end;
  }
}

const INFLATE_CHUNK = 16 * 1024;

function verifyEntryData(bytes: Uint8Array, entry: ZipEntry): void {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const at = entry.localHeaderOffset;
  if (at + 30 > bytes.length || view.getUint32(at, true) !== LOCAL_SIGNATURE) throw corrupt();
  const dataStart = at + 30 + view.getUint16(at + 26, true) + view.getUint16(at + 28, true);
  const dataEnd = dataStart + entry.compressedSize;
  if (dataEnd > bytes.length) throw corrupt();
  const scan = isXmlPart(entry.name) ? new DoctypeScanner() : null;
  if (entry.method === 0) {
    if (entry.compressedSize !== entry.uncompressedSize) throw corrupt();
    if (scan?.push(bytes.subarray(dataStart, dataEnd))) throw doctype();
    return;
  }
  // Deflate64, bzip2, LZMA…: no reader of ours can open them, so the file is as good as broken.
  if (entry.method !== 8) throw corrupt();

  // Each pushed chunk inflates to at most ~1,000 times its size, so memory stays at a few megabytes however much
  // the entry really holds; inflation stops as soon as it exceeds what the directory declared.
  let produced = 0;
  let declaresDoctype = false;
  const inflater = new Inflate((chunk) => {
    produced += chunk.length;
    if (scan?.push(chunk)) declaresDoctype = true;
  });
  try {
    for (let offset = dataStart; offset < dataEnd; offset += INFLATE_CHUNK) {
      const stop = Math.min(dataEnd, offset + INFLATE_CHUNK);
      inflater.push(bytes.subarray(offset, stop), stop === dataEnd);
      if (produced > entry.uncompressedSize) throw tooLarge(`entry ${entry.name} holds more than it declares`);
      if (declaresDoctype) throw doctype();
    }
  } catch (error) {
    if (error instanceof QuestionnaireError) throw error;
    throw corrupt(error);
  }
}

function doctype(): QuestionnaireError {
  return new QuestionnaireError(422, 'corrupt', DOCTYPE_MESSAGE);
}

/** The parts an Office reader parses as XML; media and embedded files are left alone. */
function isXmlPart(name: string): boolean {
  return /\.(?:xml|rels|vml)$/i.test(name);
}

const DOCTYPE = Buffer.from('<!DOCTYPE', 'latin1');
const ENTITY = Buffer.from('<!ENTITY', 'latin1');

/** Finds `<!DOCTYPE` or `<!ENTITY` in data that arrives in chunks, including across a chunk boundary. */
class DoctypeScanner {
  #tail = Buffer.alloc(0);

  /** True once either marker has been seen. */
  push(chunk: Uint8Array): boolean {
    const data = Buffer.concat([this.#tail, Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)]);
    if (data.includes(DOCTYPE) || data.includes(ENTITY)) return true;
    // A copy, so the (possibly megabytes long) chunk is not kept alive by its last few bytes.
    this.#tail = Buffer.from(data.subarray(Math.max(0, data.length - DOCTYPE.length + 1)));
    return false;
  }
}
