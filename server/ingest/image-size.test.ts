import { describe, expect, it } from 'vitest';
import { pngPixelBomb, tinyJpeg, truncatedPng } from '../../test/fixtures/hostile/corpus-image';
import { imageSize } from './image-size';
import { whitePng } from '../../test/fixtures/ingest/sample-files';

/** A WebP container holding only the start of one chunk: enough for its header, which is all imageSize reads. */
function webp(chunk: 'VP8 ' | 'VP8L' | 'VP8X', header: number[]): Uint8Array {
  const bytes = new Uint8Array(40);
  bytes.set(Buffer.from('RIFF'), 0);
  bytes.set(Buffer.from('WEBP'), 8);
  bytes.set(Buffer.from(chunk), 12);
  bytes.set(header, 20);
  return bytes;
}

describe('imageSize', () => {
  it('reads what a PNG, a JPEG and each kind of WebP declare', () => {
    expect(imageSize(whitePng(31, 7))).toEqual({ width: 31, height: 7 });
    expect(imageSize(pngPixelBomb())).toEqual({ width: 50_000, height: 50_000 });
    expect(imageSize(tinyJpeg(640, 480))).toEqual({ width: 640, height: 480 });
    // Lossy: a frame tag, the start code 9d 01 2a, then 14-bit width and height.
    expect(imageSize(webp('VP8 ', [0, 0, 0, 0x9d, 0x01, 0x2a, 0x80, 0x02, 0xe0, 0x01]))).toEqual({
      width: 640,
      height: 480,
    });
    // Lossless: the signature 2f, then width − 1 and height − 1 in 14 bits each: 16384 × 16384.
    expect(imageSize(webp('VP8L', [0x2f, 0xff, 0xff, 0xff, 0x0f]))).toEqual({
      width: 16_384,
      height: 16_384,
    });
    // Extended: 24-bit width − 1 and height − 1 after four bytes of flags.
    expect(imageSize(webp('VP8X', [0, 0, 0, 0, 0x3f, 0x42, 0x0f, 0x3f, 0x42, 0x0f]))).toEqual({
      width: 1_000_000,
      height: 1_000_000,
    });
  });

  it('says nothing when the header is missing or cut off', () => {
    expect(imageSize(truncatedPng().slice(0, 12))).toBeNull();
    expect(imageSize(tinyJpeg().slice(0, 10))).toBeNull();
    expect(imageSize(new TextEncoder().encode('not an image'))).toBeNull();
  });
});
