// Random damage for the property tests: byte-level edits of a whole file (what a bad disk, a cut-off download or a
// fuzzer does) and token-level edits of the XML inside a package (what a careless or hostile writer does).
// Test-only: never import from production code.
import fc from 'fast-check';

/** A byte-level edit, placed at a fraction of the file's length so it applies to a file of any size. */
export type ByteEdit =
  | { kind: 'flip'; at: number; bit: number }
  | { kind: 'truncate'; at: number }
  | { kind: 'overwrite' | 'insert'; at: number; bytes: Uint8Array }
  | { kind: 'delete' | 'duplicate'; at: number; length: number };

const position = fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true });
const someBytes = fc.uint8Array({ minLength: 1, maxLength: 24 });

/** One to four byte-level edits. */
export const byteEdits: fc.Arbitrary<ByteEdit[]> = fc.array(
  fc.oneof(
    fc.record({ kind: fc.constant('flip' as const), at: position, bit: fc.integer({ min: 0, max: 7 }) }),
    fc.record({ kind: fc.constant('truncate' as const), at: position }),
    fc.record({ kind: fc.constantFrom('overwrite' as const, 'insert' as const), at: position, bytes: someBytes }),
    fc.record({
      kind: fc.constantFrom('delete' as const, 'duplicate' as const),
      at: position,
      length: fc.integer({ min: 1, max: 512 }),
    }),
  ),
  { minLength: 1, maxLength: 4 },
);

/** The file with the edits applied in order (a copy; the original is left alone). */
export function applyByteEdits(original: Uint8Array, edits: readonly ByteEdit[]): Uint8Array {
  let bytes = Buffer.from(original);
  for (const edit of edits) {
    const at = Math.floor(edit.at * bytes.length);
    switch (edit.kind) {
      case 'flip':
        if (at < bytes.length) bytes[at] = (bytes[at] ?? 0) ^ (1 << edit.bit);
        break;
      case 'truncate':
        bytes = bytes.subarray(0, at);
        break;
      case 'overwrite':
        bytes = Buffer.concat([bytes.subarray(0, at), edit.bytes, bytes.subarray(at + edit.bytes.length)]);
        break;
      case 'insert':
        bytes = Buffer.concat([bytes.subarray(0, at), edit.bytes, bytes.subarray(at)]);
        break;
      case 'delete':
        bytes = Buffer.concat([bytes.subarray(0, at), bytes.subarray(at + edit.length)]);
        break;
      case 'duplicate':
        bytes = Buffer.concat([bytes.subarray(0, at + edit.length), bytes.subarray(at)]);
        break;
    }
  }
  return new Uint8Array(bytes);
}

/** Pieces of markup and text that trip XML and spreadsheet readers: unbalanced tags, odd references, bad numbers. */
const XML_TOKENS = [
  '<',
  '>',
  '&',
  '&amp;',
  '&#0;',
  '&#xD800;',
  '&#x110000;',
  '&undefined;',
  ']]>',
  '<![CDATA[',
  '"',
  '</c>',
  '</row>',
  '<row>',
  '<row r="0">',
  '<row r="99999999999">',
  '<c r="XFD1048577">',
  '<c r="A1" t="s"><v>99999</v></c>',
  '<c t="n"><v>1e400</v></c>',
  '<c t="d"><v>not a date</v></c>',
  '<mergeCell ref="A1:XFD1048576"/>',
  '<w:tbl>',
  '</w:tc>',
  '<w:gridSpan w:val="99999"/>',
  '<w:vMerge/>',
  '<!DOCTYPE x>',
  '<?xml version="1.0"?>',
  '\u0000',
  '\ud800',
  '\u2028',
  '💥',
  'x'.repeat(10_000),
];

/** A token-level edit of XML (or any text): insert a token, or delete a run of characters. */
export type TextEdit = { at: number; insert: string } | { at: number; delete: number };

/** One to six token-level edits. */
export const textEdits: fc.Arbitrary<TextEdit[]> = fc.array(
  fc.oneof(
    fc.record({ at: position, insert: fc.oneof(fc.constantFrom(...XML_TOKENS), fc.string({ maxLength: 8 })) }),
    fc.record({ at: position, delete: fc.integer({ min: 1, max: 64 }) }),
  ),
  { minLength: 1, maxLength: 6 },
);

/** The text with the edits applied in order. */
export function applyTextEdits(original: string, edits: readonly TextEdit[]): string {
  let text = original;
  for (const edit of edits) {
    const at = Math.floor(edit.at * text.length);
    text =
      'insert' in edit
        ? text.slice(0, at) + edit.insert + text.slice(at)
        : text.slice(0, at) + text.slice(at + edit.delete);
  }
  return text;
}
