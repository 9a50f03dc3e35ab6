// Hostile PDFs for the corpus, written object by object: thousands of pages, page trees that are deep, cyclic or
// claim billions of pages, an xref that refers to itself, a content stream that inflates to a gigabyte, and files
// that are cut off or are another format too. Test-only: never import from production code.
import crypto from 'node:crypto';
import zlib from 'node:zlib';
import { repeatedDeflate } from './corpus-zip';

const HEADER = '%PDF-1.7\n%\u00e2\u00e3\u00cf\u00d3\n';
const FONT = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>';

/**
 * A PDF of the given objects (object n is `objects[n - 1]`, the catalog is object 1) with a classic xref table.
 * `prevSelf` adds `/Prev` pointing at this very xref table, the self-referencing chain some damaged files have.
 */
export function pdfOf(objects: readonly (string | Uint8Array)[], options: { prevSelf?: boolean } = {}): Uint8Array {
  const parts: Buffer[] = [Buffer.from(HEADER, 'latin1')];
  let length = parts[0]?.length ?? 0;
  const offsets: number[] = [];
  objects.forEach((body, index) => {
    offsets.push(length);
    const part = Buffer.concat([
      Buffer.from(`${index + 1} 0 obj\n`, 'latin1'),
      typeof body === 'string' ? Buffer.from(body, 'latin1') : Buffer.from(body),
      Buffer.from('\nendobj\n', 'latin1'),
    ]);
    parts.push(part);
    length += part.length;
  });
  const xrefAt = length;
  const rows = offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('');
  const prev = options.prevSelf ? ` /Prev ${xrefAt}` : '';
  const tail =
    `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${rows}` +
    `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R${prev} >>\nstartxref\n${xrefAt}\n%%EOF\n`;
  parts.push(Buffer.from(tail, 'latin1'));
  return new Uint8Array(Buffer.concat(parts));
}

/** A stream object with the given (already encoded) data and extra dictionary entries. */
function stream(data: Uint8Array | string, dictionary = ''): Uint8Array {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'latin1') : Buffer.from(data);
  return Buffer.concat([
    Buffer.from(`<< /Length ${bytes.length}${dictionary} >>\nstream\n`, 'latin1'),
    bytes,
    Buffer.from('\nendstream', 'latin1'),
  ]);
}

function textContent(text: string): string {
  return `BT /F1 12 Tf 72 720 Td (${text}) Tj ET`;
}

function page(parent: number, contents: number, font: number): string {
  return (
    `<< /Type /Page /Parent ${parent} 0 R /MediaBox [0 0 612 792] ` +
    `/Resources << /Font << /F1 ${font} 0 R >> >> /Contents ${contents} 0 R >>`
  );
}

/**
 * `pages` pages (default 5,000) of one short line each ("Page 17 of the manual."), in a flat page tree: a file a
 * few hundred kilobytes long that a careless reader spends minutes on and stores thousands of chunks for.
 */
export function manyPagesPdf(pages = 5_000): Uint8Array {
  // 1 catalog, 2 page tree, 3 font, then each page and its content stream.
  const objects: (string | Uint8Array)[] = ['<< /Type /Catalog /Pages 2 0 R >>', '', FONT];
  const kids: string[] = [];
  for (let index = 0; index < pages; index += 1) {
    const pageObject = objects.length + 1;
    kids.push(`${pageObject} 0 R`);
    objects.push(page(2, pageObject + 1, 3), stream(textContent(`Page ${index + 1} of the manual.`)));
  }
  objects[1] = `<< /Type /Pages /Kids [${kids.join(' ')}] /Count ${pages} >>`;
  return pdfOf(objects);
}

/** A one-page PDF whose page sits under `depth` (default 100,000) nested page-tree nodes. */
export function deepPageTreePdf(depth = 100_000): Uint8Array {
  // 1 catalog, 2 font, 3 … depth+2 the nested nodes, then the page and its content.
  const objects: (string | Uint8Array)[] = ['<< /Type /Catalog /Pages 3 0 R >>', FONT];
  const first = 3;
  const leaf = first + depth;
  for (let level = 0; level < depth; level += 1) {
    const self = first + level;
    const parent = level === 0 ? '' : ` /Parent ${self - 1} 0 R`;
    objects.push(`<< /Type /Pages /Kids [${self + 1} 0 R] /Count 1${parent} >>`);
  }
  objects.push(page(leaf - 1, leaf + 1, 2), stream(textContent('The deepest page.')));
  return pdfOf(objects);
}

/** A page tree whose root lists itself among its kids: a reader walking it naively never ends. */
export function cyclicPageTreePdf(): Uint8Array {
  return pdfOf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [2 0 R 3 0 R] /Count 2 >>',
    page(2, 4, 5),
    stream(textContent('A page inside a loop.')),
    FONT,
  ]);
}

/**
 * A page tree that shares its nodes: each of `levels` (default 9) levels lists the next one 10 times, so a 2 kB
 * file claims 10^levels pages that all are one page.
 */
export function sharedKidsPdf(levels = 9): Uint8Array {
  // 1 catalog, 2 font, 3 … levels+2 the tree nodes, then the page and its content.
  const objects: (string | Uint8Array)[] = ['<< /Type /Catalog /Pages 3 0 R >>', FONT];
  const leaf = 3 + levels;
  for (let level = 0; level < levels; level += 1) {
    const self = 3 + level;
    const kid = `${self + 1} 0 R `.repeat(10).trim();
    objects.push(`<< /Type /Pages /Kids [${kid}] /Count ${10 ** (levels - level)} >>`);
  }
  objects.push(page(leaf - 1, leaf + 1, 2), stream(textContent('The same page, a billion times.')));
  return pdfOf(objects);
}

/** A one-page PDF whose page tree says it holds a billion pages. */
export function lyingPageCountPdf(): Uint8Array {
  return pdfOf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1000000000 >>',
    page(2, 4, 5),
    stream(textContent('One page only.')),
    FONT,
  ]);
}

/** A valid one-page PDF whose xref section names itself as the previous one (/Prev), an endless chain. */
export function selfReferencingXrefPdf(): Uint8Array {
  return pdfOf(
    [
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      page(2, 4, 5),
      stream(textContent('Self referencing cross-reference table.')),
      FONT,
    ],
    { prevSelf: true },
  );
}

const FILL_LINES = {
  comments: '% lol lol lol lol lol lol lol lol lol lol lol lol lol\n',
  text: '(lol) Tj\n',
} as const;

/**
 * One page whose content stream inflates to `bytes` (default 1 GiB) from ~3 MB. `fill` picks what it holds:
 * `comments` (lines a content parser skips: memory without work) or `text` (a show-text operator per line).
 */
export function flateBombPdf(options: { bytes?: number; fill?: keyof typeof FILL_LINES } = {}): Uint8Array {
  const line = FILL_LINES[options.fill ?? 'comments'];
  const unit = line.repeat(Math.floor((1024 * 1024) / line.length));
  const units = Math.max(1, Math.round((options.bytes ?? 1024 * 1024 * 1024) / (1024 * 1024)));
  const deflated = repeatedDeflate('BT /F1 12 Tf 72 720 Td\n', unit, units, 'ET\n');
  return onePage(zlibWrap(deflated.data), ' /Filter /FlateDecode');
}

/** One page whose content is `inner` compressed twice (/Filter [/FlateDecode /FlateDecode]). */
export function doubleFlateBombPdf(bytes = 1024 * 1024 * 1024): Uint8Array {
  const inner = zlibWrap(repeatedDeflate('', '% lol\n'.repeat(174_762), Math.round(bytes / (1024 * 1024)), '').data);
  return onePage(zlib.deflateSync(inner), ' /Filter [/FlateDecode /FlateDecode]');
}

/**
 * One page whose content stream is LZW data that decodes to `bytes` (default 1 GiB) of zero bytes from ~1 MB: the
 * codes are written directly (0, then each new code naming the previous string plus one more zero), so nothing of
 * the gigabyte is ever built.
 */
export function lzwBombPdf(bytes = 1024 * 1024 * 1024): Uint8Array {
  const out: number[] = [];
  let accumulator = 0;
  let pending = 0;
  let width = 9;
  const emit = (code: number) => {
    accumulator = (accumulator << width) | code;
    pending += width;
    while (pending >= 8) {
      out.push((accumulator >>> (pending - 8)) & 0xff);
      pending -= 8;
    }
    accumulator &= (1 << pending) - 1;
  };
  let produced = 0;
  while (produced < bytes) {
    emit(256); // clear the table
    width = 9;
    emit(0);
    produced += 1;
    // As PDF's LZW encoder grows the code width: one code early ("early change").
    for (let next = 259; next < 4094 && produced < bytes; next += 1) {
      if (next >= 1 << width && width < 12) width += 1;
      emit(next - 1);
      produced += next - 257;
    }
  }
  emit(257); // end of data
  if (pending > 0) out.push((accumulator << (8 - pending)) & 0xff);
  return onePage(new Uint8Array(out), ' /Filter /LZWDecode');
}

/**
 * flateBombPdf's page (a content stream of comments inflating to `bytes`, default 1 GiB), encrypted with the
 * standard security handler (RC4, 40-bit, revision 2) and an empty user password, as a PDF restricted by an owner
 * password is: it opens without a password, but no one can measure its streams without decrypting them first.
 */
export function encryptedFlateBombPdf(bytes = 1024 * 1024 * 1024): Uint8Array {
  // The padding string of the PDF specification (7.6.3.3), which an empty password becomes.
  const padding = Buffer.from('28bf4e5e4e758a4164004e56fffa01082e2e00b6d0683e802f0ca9fe6453697a', 'hex');
  const owner = Buffer.alloc(32, 0x4f);
  const id = Buffer.alloc(16, 0x49);
  const permissions = Buffer.alloc(4);
  permissions.writeInt32LE(-4);
  const key = md5(padding, owner, permissions, id).subarray(0, 5);
  const objectKey = (object: number) =>
    md5(key, Buffer.from([object & 0xff, (object >> 8) & 0xff, 0, 0, 0])).subarray(0, 10);
  const line = FILL_LINES.comments;
  const deflated = repeatedDeflate(
    'BT\n',
    line.repeat(Math.floor(MB_UNIT / line.length)),
    Math.round(bytes / MB_UNIT),
    'ET\n',
  );
  const content = rc4(objectKey(4), zlibWrap(deflated.data));
  const encryption =
    `<< /Filter /Standard /V 1 /R 2 /O <${owner.toString('hex')}> ` +
    `/U <${rc4(key, padding).toString('hex')}> /P -4 >>`;
  const file = pdfOf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    page(2, 4, 5),
    stream(content, ' /Filter /FlateDecode'),
    FONT,
    encryption,
  ]);
  const trailer = `/Root 1 0 R /Encrypt 6 0 R /ID [<${id.toString('hex')}> <${id.toString('hex')}>]`;
  return new Uint8Array(Buffer.from(Buffer.from(file).toString('latin1').replace('/Root 1 0 R', trailer), 'latin1'));
}

const MB_UNIT = 1024 * 1024;

function md5(...parts: Buffer[]): Buffer {
  return crypto.createHash('md5').update(Buffer.concat(parts)).digest();
}

/** RC4, written out: OpenSSL 3 no longer offers it by default, and only a test file needs it. */
function rc4(key: Uint8Array, data: Uint8Array): Buffer {
  const state = Uint8Array.from({ length: 256 }, (_, index) => index);
  let j = 0;
  for (let i = 0; i < 256; i += 1) {
    j = (j + (state[i] ?? 0) + (key[i % key.length] ?? 0)) & 0xff;
    [state[i], state[j]] = [state[j] ?? 0, state[i] ?? 0];
  }
  const out = Buffer.alloc(data.length);
  let i = 0;
  j = 0;
  for (let at = 0; at < data.length; at += 1) {
    i = (i + 1) & 0xff;
    j = (j + (state[i] ?? 0)) & 0xff;
    [state[i], state[j]] = [state[j] ?? 0, state[i] ?? 0];
    out[at] = (data[at] ?? 0) ^ (state[((state[i] ?? 0) + (state[j] ?? 0)) & 0xff] ?? 0);
  }
  return out;
}

function zlibWrap(raw: Uint8Array): Buffer {
  // PDF's FlateDecode wants the zlib wrapper: a 2-byte header and an Adler-32 that no reader gets to check before
  // the memory is spent, so a placeholder will do.
  return Buffer.concat([Buffer.from([0x78, 0x9c]), Buffer.from(raw), Buffer.alloc(4)]);
}

function onePage(content: Uint8Array, filter: string): Uint8Array {
  return pdfOf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    page(2, 4, 5),
    stream(content, filter),
    FONT,
  ]);
}

/** A small well-formed PDF with a line of text on each of `pages` pages: the seed of the mutation properties. */
export function validPdf(pages = 2): Uint8Array {
  return manyPagesPdf(pages);
}

/** The first `fraction` of a valid PDF: a download that stopped half way. */
export function truncatedPdf(fraction = 0.5): Uint8Array {
  const whole = validPdf(3);
  return whole.slice(0, Math.floor(whole.length * fraction));
}

/** A PDF header followed by junk: nothing after the first line is PDF. */
export function corruptPdf(): Uint8Array {
  const junk = Buffer.alloc(64 * 1024);
  let state = 7;
  for (let index = 0; index < junk.length; index += 1) {
    state = (state * 1103515245 + 12345) >>> 0;
    junk[index] = state >>> 24;
  }
  return new Uint8Array(Buffer.concat([Buffer.from(HEADER, 'latin1'), junk]));
}

/** A PDF with a stream whose FlateDecode data is not deflate at all. */
export function badFlatePdf(): Uint8Array {
  const garbage = zlib.deflateSync(Buffer.from(textContent('Hello'))).subarray(0, 8);
  return pdfOf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    page(2, 4, 5),
    stream(Buffer.concat([garbage, Buffer.from('not deflate data at all')]), ' /Filter /FlateDecode'),
    FONT,
  ]);
}
