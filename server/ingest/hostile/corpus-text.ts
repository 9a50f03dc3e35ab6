// Hostile text for the corpus: broken encodings, NUL bytes, fields and lines of tens of megabytes, inputs that make
// backtracking regular expressions quadratic, and JSON nested or sized to hurt a parser. Test-only: never import
// from production code.

const utf8 = (text: string) => Buffer.from(text, 'utf8');

/** Ways a file that claims to be text is not valid UTF-8, each around a line of ordinary CSV. */
export const MALFORMED_TEXT: Readonly<Record<string, () => Uint8Array>> = {
  'an invalid UTF-8 sequence': () => withMiddle(Buffer.from([0xc3, 0x28])),
  'a UTF-8-encoded lone surrogate (CESU-8)': () => withMiddle(Buffer.from([0xed, 0xa0, 0x80])),
  'an overlong encoding of "/"': () => withMiddle(Buffer.from([0xc0, 0xaf])),
  'a sequence cut off at the end': () => Buffer.concat([csvLines(), Buffer.from([0xe2, 0x82])]),
  'NUL bytes': () => withMiddle(Buffer.from([0x00, 0x00, 0x00])),
  'UTF-16 with a lone surrogate': () =>
    Buffer.concat([
      Buffer.from([0xff, 0xfe]),
      Buffer.from('Question\nDo you ', 'utf16le'),
      Buffer.from([0x00, 0xd8]),
      Buffer.from(' encrypt?\n', 'utf16le'),
    ]),
  'UTF-16 with an odd number of bytes': () =>
    Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('Question\n', 'utf16le'), Buffer.from([0x41])]),
};

function csvLines(): Buffer {
  return utf8('Question,Answer\nDo you encrypt customer data at rest?,Yes\n');
}

function withMiddle(bad: Buffer): Uint8Array {
  return new Uint8Array(Buffer.concat([csvLines(), utf8('Is access '), bad, utf8(' reviewed quarterly?,No\n')]));
}

/** A CSV whose second record opens a quote that never closes: `megabytes` (default 20) of one field. */
export function unclosedQuoteCsv(megabytes = 20): Uint8Array {
  const filler = 'access review, key rotation\n'.repeat(Math.ceil((megabytes * 1024 * 1024) / 28));
  return new Uint8Array(Buffer.concat([utf8('Question,Answer\n"Do you encrypt data?,'), utf8(filler)]));
}

/** One line of `megabytes` (default 20) with no line break and no space: a word longer than any chunk. */
export function oneLineText(megabytes = 20, unit = 'abcdefghij'): Uint8Array {
  return utf8(unit.repeat(Math.ceil((megabytes * 1024 * 1024) / unit.length)));
}

/** A CSV of `megabytes` (default 40) of two-letter rows: ten million rows, each an array and two strings. */
export function tinyRowsCsv(megabytes = 40): Uint8Array {
  return utf8(`Question,Answer\n${'a,b\n'.repeat(Math.floor((megabytes * 1024 * 1024) / 4))}`);
}

/** A CSV whose data row has `columns` fields (default 100,000). */
export function wideCsv(columns = 100_000): Uint8Array {
  const row = Array.from({ length: columns }, (_, index) => `v${index}`).join(',');
  return utf8(`Question,Answer\nDo you encrypt customer data at rest?,Yes\n${row}\n`);
}

/**
 * Markdown lines built to make backtracking patterns quadratic or worse: openers that never close (`[`, `![`, `**`),
 * long runs of spaces inside a heading, a front-matter fence that never closes. `kilobytes` each (default 200).
 */
export const PATHOLOGICAL_MARKDOWN: Readonly<Record<string, (kilobytes?: number) => Uint8Array>> = {
  'brackets that never close': (kb = 200) => utf8(`# Title\n\n${'['.repeat(kb * 1024)}\n`),
  'image openers that never close': (kb = 200) => utf8(`${'!['.repeat(kb * 512)}\n`),
  'link text without a target': (kb = 200) => utf8(`${'[a]'.repeat(Math.floor((kb * 1024) / 3))}x\n`),
  'bold markers that never close': (kb = 200) => utf8(`${'**a '.repeat(kb * 256)}\n`),
  'backticks that never close': (kb = 200) => utf8(`${'`a'.repeat(kb * 512)}\n`),
  'a heading of spaces': (kb = 200) => utf8(`# a${' \t'.repeat(kb * 512)}x\n`),
  'a heading of closing hashes': (kb = 200) => utf8(`# a${' #'.repeat(kb * 512)} x\n`),
  'a front-matter fence that never closes': (kb = 200) =>
    utf8(`---\n${'key: value\n'.repeat(Math.floor((kb * 1024) / 11))}`),
  'list markers without a break': (kb = 200) => utf8(`${'\n- '.repeat(Math.floor((kb * 1024) / 3))}x\n`),
  'sentence ends without spaces': (kb = 200) => utf8(`${'.)"'.repeat(Math.floor((kb * 1024) / 3))} X\n`),
  'tags that never close': (kb = 200) => utf8(`${'<a'.repeat(kb * 512)}\n`),
};

/** HTML built to make a parser or our visible-text walk work hard: deep nesting, endless attributes. */
export const PATHOLOGICAL_HTML: Readonly<Record<string, (kilobytes?: number) => Uint8Array>> = {
  'elements nested 100,000 deep': () => utf8(`<p>start${'<div>'.repeat(100_000)}deep${'</div>'.repeat(100_000)}</p>`),
  'hidden elements nested 100,000 deep': () => utf8(`<p>start</p>${'<div hidden>'.repeat(100_000)}x`),
  'an attribute that never closes': (kb = 200) => utf8(`<p title="${'a'.repeat(kb * 1024)}`),
  'a comment that never closes': (kb = 200) => utf8(`<p>visible</p><!--${'-'.repeat(kb * 1024)}`),
  'entities by the thousand': (kb = 200) =>
    utf8(`<p>${'&amp;&#x41;&#65;&nbsp;'.repeat(Math.floor((kb * 1024) / 22))}</p>`),
};

/** JSON nested `depth` levels deep (default 100,000) in the place a request body has a string. */
export function deeplyNestedJson(depth = 100_000, key = 'question'): string {
  return `{"${key}":${'['.repeat(depth)}${']'.repeat(depth)}}`;
}

/** JSON objects nested `depth` levels deep: `{"a":{"a":…}}`. */
export function deeplyNestedObjects(depth = 100_000): string {
  return `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

/** A JSON body whose `key` is an array of about `megabytes` (default 30) of small numbers. */
export function hugeJsonArray(megabytes = 30, key = 'entries'): string {
  const items = Math.floor((megabytes * 1024 * 1024) / 2);
  return `{"${key}":[${'0,'.repeat(items - 1)}0]}`;
}

/** JSON text with an invalid UTF-8 byte inside a string value. */
export function malformedUtf8Json(key = 'question'): Uint8Array {
  return new Uint8Array(
    Buffer.concat([utf8(`{"${key}":"Do you encrypt `), Buffer.from([0xff, 0xfe, 0xc3]), utf8(' data?"}')]),
  );
}

/** A JSON string value holding escaped lone surrogates (and with `nul`, a NUL): valid JSON, unusual text. */
export function loneSurrogateJson(key = 'question', options: { nul?: boolean } = {}): string {
  return `{"${key}":"Do you encrypt \\ud800 data${options.nul ? ' \\u0000' : ''} at \\udfff rest?"}`;
}
