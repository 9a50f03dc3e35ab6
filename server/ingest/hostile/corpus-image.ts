// Hostile images for the corpus: headers that declare billions of pixels over a few bytes of data, and files cut off
// mid-stream. Test-only: never import from production code.
import zlib from 'node:zlib';

function pngChunk(type: string, data: Uint8Array): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(body));
  return Buffer.concat([length, body, crc]);
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * A PNG whose header declares `width` × `height` (default 50,000 × 50,000: 7.5 GB of RGB) and whose data is one
 * compressed row: a decoder that allocates the image before reading the data asks for gigabytes.
 */
export function pngPixelBomb(width = 50_000, height = 50_000): Uint8Array {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // RGB
  const row = Buffer.alloc(1 + Math.min(width, 100_000) * 3, 0xff);
  row[0] = 0; // filter: none
  return new Uint8Array(
    Buffer.concat([
      PNG_SIGNATURE,
      pngChunk('IHDR', header),
      pngChunk('IDAT', zlib.deflateSync(row)),
      pngChunk('IEND', new Uint8Array(0)),
    ]),
  );
}

/**
 * A valid 8 × 8 grey baseline JPEG, written marker by marker: one component, a quantisation table of ones, and
 * Huffman tables with a single one-bit code each (DC difference 0, end of block), so the whole scan is two bits.
 * `width`/`height` only change what the frame header declares.
 */
export function tinyJpeg(width = 8, height = 8): Uint8Array {
  const segment = (marker: number, body: number[]) => [
    0xff,
    marker,
    ((body.length + 2) >> 8) & 0xff,
    (body.length + 2) & 0xff,
    ...body,
  ];
  // A Huffman table's code counts per length 1…16: `count` codes of length 1, none longer.
  const bits = (count: number) => [count, ...Array.from({ length: 15 }, () => 0)];
  const bytes = [
    0xff,
    0xd8, // SOI
    ...segment(0xdb, [0x00, ...Array.from({ length: 64 }, () => 1)]), // DQT: table 0, 8-bit, all ones
    ...segment(0xc0, [8, (height >> 8) & 0xff, height & 0xff, (width >> 8) & 0xff, width & 0xff, 1, 1, 0x11, 0]), // SOF0
    ...segment(0xc4, [0x00, ...bits(1), 0x00]), // DHT: DC table 0, one code of length 1 for category 0
    ...segment(0xc4, [0x10, ...bits(1), 0x00]), // DHT: AC table 0, one code of length 1 for end of block
    ...segment(0xda, [1, 1, 0x00, 0, 63, 0]), // SOS: component 1 with tables 0/0, full spectral range
    0x3f, // DC "0", AC end of block "0", then padding ones
    0xff,
    0xd9, // EOI
  ];
  return new Uint8Array(bytes);
}

/** A JPEG whose frame header declares 65,000 × 65,000 pixels (4 gigapixels) over a few bytes of data. */
export function jpegPixelBomb(): Uint8Array {
  return tinyJpeg(65_000, 65_000);
}

/** A JPEG cut off in its entropy-coded data: no end-of-image marker. */
export function truncatedJpeg(): Uint8Array {
  const whole = tinyJpeg(640, 480);
  return whole.slice(0, whole.length - 3);
}

/** A PNG cut off in its header chunk. */
export function truncatedPng(): Uint8Array {
  return pngPixelBomb(64, 64).slice(0, 20);
}
