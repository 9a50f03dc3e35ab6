/** The text of a file, or why it is not text. */
export type DecodedText = { ok: true; text: string } | { ok: false; problem: 'binary' | 'encoding' };

/**
 * Decodes a file that should be text. UTF-8 (with or without a BOM) is the rule; UTF-16 is accepted only with its
 * BOM, because that is what Excel's "Unicode text" and Windows Notepad write, and without a BOM its NUL bytes are
 * indistinguishable from a binary file's. Fatal decoding: a file in a legacy code page is refused with a sentence
 * rather than indexed as mojibake. With `partial`, the bytes may be the first part of a file: a character cut off at
 * the end is ignored (detection reads only a prefix of large uploads).
 */
export function decodeText(bytes: Uint8Array, options: { partial?: boolean } = {}): DecodedText {
  const partial = options.partial ?? false;
  const utf16 = utf16Encoding(bytes);
  if (utf16) {
    const text = decode(bytes, utf16, partial);
    if (text === null) return { ok: false, problem: 'encoding' };
    return text.includes('\u0000') ? { ok: false, problem: 'binary' } : { ok: true, text };
  }
  if (bytes.includes(0)) return { ok: false, problem: 'binary' };
  const text = decode(bytes, 'utf-8', partial);
  return text === null ? { ok: false, problem: 'encoding' } : { ok: true, text };
}

/** Like decodeText, for extractors that run after detection has already accepted the file. */
export function decodeTextOrThrow(bytes: Uint8Array, onError: (problem: 'binary' | 'encoding') => Error): string {
  const decoded = decodeText(bytes);
  if (!decoded.ok) throw onError(decoded.problem);
  return decoded.text;
}

/**
 * True when the bytes start with a UTF-16 byte order mark: they claim to be text, whatever a type sniffer makes of
 * their first bytes (0xFF 0xFE also starts an MP1 audio frame).
 */
export function hasUtf16Bom(bytes: Uint8Array): boolean {
  return utf16Encoding(bytes) !== null;
}

function utf16Encoding(bytes: Uint8Array): 'utf-16le' | 'utf-16be' | null {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  return null;
}

function decode(bytes: Uint8Array, encoding: string, partial: boolean): string | null {
  try {
    // The decoder drops the BOM itself (ignoreBOM defaults to false). In streaming mode an incomplete character at
    // the end waits for more bytes instead of failing, which is what a prefix needs; invalid bytes still fail.
    return new TextDecoder(encoding, { fatal: true }).decode(bytes, { stream: partial });
  } catch {
    return null;
  }
}
