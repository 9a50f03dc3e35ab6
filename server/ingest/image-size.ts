/** An image's size in pixels as its header declares it. */
export type ImageSize = { width: number; height: number };

/**
 * The width and height a PNG, JPEG or WebP declares, read from its header without decoding anything; null when the
 * header cannot be found (the OCR engine then reports the file as damaged). A header may lie about the pixels that
 * follow, but the decoder allocates what the header says, which is the point of reading it first.
 */
export function imageSize(bytes: Uint8Array): ImageSize | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (isPng(bytes)) return bytes.length >= 24 ? { width: view.getUint32(16), height: view.getUint32(20) } : null;
  if (bytes[0] === 0xff && bytes[1] === 0xd8) return jpegSize(bytes, view);
  if (ascii(bytes, 0, 'RIFF') && ascii(bytes, 8, 'WEBP')) return webpSize(bytes, view);
  return null;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function isPng(bytes: Uint8Array): boolean {
  return PNG_SIGNATURE.every((byte, index) => bytes[index] === byte);
}

function ascii(bytes: Uint8Array, at: number, text: string): boolean {
  for (let index = 0; index < text.length; index += 1) {
    if (bytes[at + index] !== text.charCodeAt(index)) return false;
  }
  return true;
}

// Start-of-frame markers (baseline, progressive, lossless, arithmetic…): C0–CF except DHT (C4), JPG (C8), DAC (CC).
function isStartOfFrame(marker: number): boolean {
  return marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
}

function jpegSize(bytes: Uint8Array, view: DataView): ImageSize | null {
  let at = 2;
  while (at + 4 <= bytes.length) {
    if (bytes[at] !== 0xff) return null;
    const marker = bytes[at + 1] ?? 0;
    if (marker === 0xff) {
      at += 1; // fill byte
      continue;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2; // markers without a length
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) return null; // end of image, or the scan before any frame header
    const length = view.getUint16(at + 2);
    if (isStartOfFrame(marker)) {
      return at + 9 <= bytes.length ? { height: view.getUint16(at + 5), width: view.getUint16(at + 7) } : null;
    }
    at += 2 + length;
  }
  return null;
}

function webpSize(bytes: Uint8Array, view: DataView): ImageSize | null {
  if (bytes.length < 30) return null;
  if (ascii(bytes, 12, 'VP8X')) {
    // 24-bit little-endian "width minus one" and "height minus one".
    const width = 1 + view.getUint16(24, true) + ((bytes[26] ?? 0) << 16);
    const height = 1 + view.getUint16(27, true) + ((bytes[29] ?? 0) << 16);
    return { width, height };
  }
  if (ascii(bytes, 12, 'VP8L')) {
    const bits = view.getUint32(21, true);
    return { width: 1 + (bits & 0x3fff), height: 1 + ((bits >>> 14) & 0x3fff) };
  }
  if (ascii(bytes, 12, 'VP8 ')) {
    return { width: view.getUint16(26, true) & 0x3fff, height: view.getUint16(28, true) & 0x3fff };
  }
  return null;
}
