import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chooseAllowedValue } from './write-choice';
import { columnLetters, columnNumber, parseRange } from './write-ref';
import { cleanCellText, encodeCellText } from './write-text';

describe('cleanCellText', () => {
  it('keeps ordinary text, emoji and tabs as they are', () => {
    expect(cleanCellText('Yes — AES-256 🔐\tsee §4')).toBe('Yes — AES-256 🔐\tsee §4');
  });

  it('turns CR and CRLF into LF and drops what XML 1.0 cannot hold', () => {
    expect(cleanCellText('a\r\nb\rc\u0000\u0008\u000B\u000C\u001F\uFFFE\uFFFFd')).toBe('a\nb\ncd');
    expect(cleanCellText('x\uD800y\uDC00z')).toBe('xyz');
  });

  it('cuts at 32,767 UTF-16 units with an ellipsis, never between the halves of an emoji', () => {
    expect(cleanCellText('a'.repeat(32_767))).toHaveLength(32_767);
    const cut = cleanCellText('a'.repeat(32_765) + '😀'.repeat(10));
    expect(cut).toHaveLength(32_766);
    expect(cut.endsWith('a…')).toBe(true);
    fc.assert(
      // Long strings built by repeating a short mix (generating 32,000 random characters per run is slow).
      fc.property(
        fc
          .array(fc.constantFrom('a', 'é', '😀', '\uD800', '\uDC00', '\u0000', '\r\n', '\r'), {
            minLength: 1,
            maxLength: 6,
          })
          .map((parts) => parts.join('').repeat(Math.ceil(32_800 / parts.join('').length))),
        (text) => {
          const cleaned = cleanCellText(text);
          expect(cleaned.length).toBeLessThanOrEqual(32_767);
          expect(cleaned).toBe(cleanCellText(cleaned)); // idempotent: nothing left to clean
          expect(cleaned).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
        },
      ),
      { numRuns: 20 },
    );
  });
});

describe('encodeCellText', () => {
  it('escapes markup and OOXML escape look-alikes', () => {
    expect(encodeCellText('<a href="x">&</a> ]]>')).toBe('&lt;a href="x"&gt;&amp;&lt;/a&gt; ]]&gt;');
    expect(encodeCellText('_x0041_x0042_ and _x12')).toBe('_x005F_x0041_x005F_x0042_ and _x12');
  });
});

describe('chooseAllowedValue', () => {
  it.each([
    ['Yes', ['Yes', 'No', 'N/A'], 'Yes'],
    ['No', ['yes', 'no', 'n/a'], 'no'],
    ['N/A', ['Yes', 'No', 'Not Applicable'], 'Not Applicable'],
    ['N/A', ['Y', 'N', 'NA'], 'NA'],
    ['Yes', ['Y', 'N', 'NA'], 'Y'],
    ['No', ['Y', 'N', 'N/A'], 'N'],
    ['N/A', [' n / a ', 'Yes'], ' n / a '],
    ['Yes', ['Yes - fully implemented', 'No - not implemented'], 'Yes - fully implemented'],
    ['No', ['Yes', 'No, planned'], 'No, planned'],
  ] as const)('%s in %j → %s', (short, allowed, expected) => {
    expect(chooseAllowedValue(short, allowed)).toBe(expected);
  });

  it.each([
    ['Yes', ['Compliant', 'Non-compliant']],
    ['Yes', ['Yes, fully', 'Yes, partially', 'No']],
    ['No', ['Not applicable', 'Yes']],
    ['No', ['N/A', 'Yes']],
    ['N/A', ['Yes', 'No']],
    ['Yes', []],
  ] as const)('%s in %j → none', (short, allowed) => {
    expect(chooseAllowedValue(short, allowed)).toBeNull();
  });
});

describe('cell references', () => {
  it('converts columns to letters and back', () => {
    expect([1, 26, 27, 52, 702, 703, 16_384].map(columnLetters)).toEqual(['A', 'Z', 'AA', 'AZ', 'ZZ', 'AAA', 'XFD']);
    fc.assert(fc.property(fc.integer({ min: 1, max: 16_384 }), (n) => columnNumber(columnLetters(n)) === n));
  });

  it('parses ranges in either order and single cells', () => {
    expect(parseRange('C3:A1')).toEqual({ top: 1, left: 1, bottom: 3, right: 3 });
    expect(parseRange('$B$2')).toEqual({ top: 2, left: 2, bottom: 2, right: 2 });
    expect(parseRange('A:A')).toBeNull();
  });
});
