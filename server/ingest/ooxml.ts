// Recognising Office Open XML files that file-type cannot name from the bytes it is given.

const LOCAL_FILE_HEADER = Buffer.from([0x50, 0x4b, 0x03, 0x04]);

/**
 * The kind of Office file a ZIP is, judged from the names of the entries whose headers are present. file-type reads
 * `[Content_Types].xml` to tell a .docx from a plain ZIP, but some writers (the `docx` library, for one) put that
 * entry last, so in the first megabyte of a large document (what the upload check reads) it is missing; the main
 * part of the document (`word/document.xml`, `xl/workbook.xml`) comes first in practice.
 */
export function ooxmlKindFromEntries(bytes: Uint8Array): 'docx' | 'xlsx' | undefined {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // Scanning for signatures rather than walking entry sizes: sizes are often deferred to a data descriptor after
  // the data. A signature that happens to occur inside compressed data only yields a nonsense name, never a match.
  for (let at = buffer.indexOf(LOCAL_FILE_HEADER); at !== -1; at = buffer.indexOf(LOCAL_FILE_HEADER, at + 4)) {
    if (at + 30 > buffer.length) break;
    const nameLength = buffer.readUInt16LE(at + 26);
    const name = buffer.toString('latin1', at + 30, Math.min(buffer.length, at + 30 + nameLength));
    if (name === 'word/document.xml') return 'docx';
    if (name === 'xl/workbook.xml') return 'xlsx';
  }
  return undefined;
}

// A password-protected .docx/.xlsx is not a ZIP but an OLE compound file holding an "EncryptedPackage" stream;
// its directory stores stream names in UTF-16LE.
const ENCRYPTED_PACKAGE = Buffer.from('EncryptedPackage', 'utf16le');

/** True for an OLE compound file that is an encrypted Office Open XML document. */
export function isEncryptedOoxml(bytes: Uint8Array): boolean {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).includes(ENCRYPTED_PACKAGE);
}
