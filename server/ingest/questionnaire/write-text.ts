import { EXCEL_LIMITS } from './write-types';
import { escapeXmlText } from './write-xml';

// Characters XML 1.0 cannot carry at all (a parser rejects the whole part), and UTF-16 halves without their pair,
// which cannot be encoded as UTF-8. U+FFFE/U+FFFF are excluded by XML 1.0's Char production too.
const ILLEGAL_IN_XML =
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

const ELLIPSIS = '…';

/**
 * The text a cell will hold for `value`, which is what reading it back returns:
 * - line breaks become `\n` (Excel's in-cell break; a raw CR would be normalised away by any XML parser),
 * - characters illegal in XML 1.0 and unpaired surrogates are removed,
 * - text over Excel's 32,767-character limit is cut to fit, ending with "…" (never splitting an emoji's pair).
 * Lengths are UTF-16 code units, as Excel counts them.
 */
export function cleanCellText(value: string): string {
  const text = value.replace(/\r\n?/g, '\n').replace(ILLEGAL_IN_XML, '');
  const limit = EXCEL_LIMITS.cellCharacters;
  if (text.length <= limit) return text;
  let cut = limit - ELLIPSIS.length;
  const last = text.charCodeAt(cut - 1);
  if (last >= 0xd800 && last <= 0xdbff) cut -= 1;
  return text.slice(0, cut) + ELLIPSIS;
}

// OOXML strings use `_xHHHH_` to escape characters; Excel decodes any such sequence it reads, so text that
// happens to contain one literally must have its underscore escaped as `_x005F_` (what Excel itself writes). A
// lookahead, not a match, so overlapping look-alikes ("_x0041_x0042_") each get their underscore escaped.
const OOXML_ESCAPE_LOOKALIKE = /_(?=x[0-9A-Fa-f]{4}_)/g;

/** The content of a `<t>` element holding `cleanText` (already passed through {@link cleanCellText}). */
export function encodeCellText(cleanText: string): string {
  return escapeXmlText(cleanText.replace(OOXML_ESCAPE_LOOKALIKE, '_x005F_'));
}
