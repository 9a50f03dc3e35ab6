import v8 from 'node:v8';
import vm from 'node:vm';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { doubleFlateBombPdf, flateBombPdf, lzwBombPdf, pdfOf } from '../../test/fixtures/hostile/corpus-pdf';
import { extractPdf } from './extract-pdf';
import { measurePdfStreams } from './pdf-streams';
import { makePdf } from '../../test/fixtures/ingest/make-documents';

const MB = 1024 * 1024;

/** A full collection, with the gc function V8 exposes once the flag is set (tests run without --expose-gc). */
function collectGarbage(): void {
  v8.setFlagsFromString('--expose-gc');
  (vm.runInNewContext('gc') as () => void)();
}
const CONTENT = Buffer.from('BT /F1 12 Tf 72 720 Td (Encryption keys are rotated yearly.) Tj ET\n'.repeat(2_000));

/** A one-page PDF whose content stream is `data` with the given filter entry. */
function pageWith(data: Uint8Array, filter: string, length: string = String(data.length)): Uint8Array {
  return pdfOf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>',
    Buffer.concat([Buffer.from(`<< /Length ${length}${filter} >>\nstream\n`), data, Buffer.from('\nendstream')]),
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ]);
}

/** ASCII85 as PDF writes it: groups of four bytes as five characters, "z" for four zeros, "~>" at the end. */
function ascii85(bytes: Uint8Array): Buffer {
  let text = '';
  for (let at = 0; at < bytes.length; at += 4) {
    const count = Math.min(4, bytes.length - at);
    let value = 0;
    for (let index = 0; index < 4; index += 1) value = value * 256 + (index < count ? (bytes[at + index] ?? 0) : 0);
    if (value === 0 && count === 4) {
      text += 'z';
      continue;
    }
    let group = '';
    for (let index = 0; index < 5; index += 1) {
      group = String.fromCharCode(33 + (value % 85)) + group;
      value = Math.floor(value / 85);
    }
    text += group.slice(0, count + 1);
  }
  return Buffer.from(`${text}~>`, 'latin1');
}

/** True when the largest stream of the PDF decodes to between `low` and `high` bytes (inclusive). */
function decodesTo(pdf: Uint8Array, low: number, high = low): boolean {
  return !measurePdfStreams(pdf, low - 1).ok && measurePdfStreams(pdf, high).ok;
}

describe('measurePdfStreams', () => {
  it('passes real PDFs, whose streams are small', async () => {
    expect(measurePdfStreams(await makePdf(20), 8 * MB)).toEqual({ ok: true });
  });

  it('measures through each filter that can expand, alone and chained, exactly as pdf.js decodes', async () => {
    const flate = zlib.deflateSync(CONTENT);
    const hex = Buffer.from(`${flate.toString('hex')}>`);
    const runLength = Buffer.from([256 - 9, 0x41, 3, 0x42, 0x43, 0x44, 0x45, 128]); // 10 × "A", then "BCDE"
    const cases: [Uint8Array, number, number][] = [
      [pageWith(flate, ' /Filter /FlateDecode'), CONTENT.length, 0],
      [pageWith(flate, ' /Filter /Fl'), CONTENT.length, 0],
      [pageWith(hex, ' /Filter [/ASCIIHexDecode /FlateDecode]'), CONTENT.length, 0],
      [pageWith(ascii85(flate), ' /Filter [/A85 /Fl]'), CONTENT.length, 0],
      [pageWith(ascii85(Buffer.alloc(4096)), ' /Filter /ASCII85Decode'), 4096, 0],
      [pageWith(runLength, ' /Filter /RunLengthDecode'), 14, 0],
      [lzwBombPdf(3_000_000), 3_000_000, 10_000],
    ];
    // lzwBombPdf stops at the end of an LZW code, a little past the size asked for.
    for (const [pdf, size, slack] of cases) expect(decodesTo(pdf, size, size + slack)).toBe(true);
    // The same Flate data through pdf.js: the text is read whole, so the measure saw what pdf.js sees.
    const { blocks } = await extractPdf(pageWith(flate, ' /Filter /FlateDecode'));
    expect(
      blocks
        .map((block) => block.text)
        .join(' ')
        .match(/rotated yearly/g),
    ).toHaveLength(2_000);
  });

  it('finds the data when /Length is wrong or indirect, as pdf.js does', () => {
    const flate = zlib.deflateSync(CONTENT);
    expect(decodesTo(pageWith(flate, ' /Filter /FlateDecode', '12'), CONTENT.length)).toBe(true);
    expect(decodesTo(pageWith(flate, ' /Filter /FlateDecode', '9 0 R'), CONTENT.length)).toBe(true);
  });

  it('stops at the limit: a gigabyte from Flate, Flate in Flate, or LZW is refused without being decoded', () => {
    for (const bomb of [flateBombPdf(), doubleFlateBombPdf(), lzwBombPdf()]) {
      collectGarbage();
      const before = process.memoryUsage().arrayBuffers;
      const verdict = measurePdfStreams(bomb, 128 * MB);
      expect(verdict.ok).toBe(false);
      // Decoded pieces are dropped as they are counted; what must hold is that nothing more than the limit is still
      // held afterwards, not the gigabyte the bomb inflates to. Collected first, as what the collector has not yet
      // reached depends on the load of the machine and the Node version (175 MB on Node 24 in a full run).
      collectGarbage();
      expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(128 * MB);
    }
  });

  it('takes one pass over a file of a million fake streams with no end', () => {
    // Each "stream" keyword after ">>" starts a search for "endstream" and a dictionary: both must be bounded.
    const junk = Buffer.from('<< /Filter /FlateDecode >> stream\n'.repeat(1_000_000));
    expect(measurePdfStreams(junk, MB)).toEqual({ ok: true });
  });
});
