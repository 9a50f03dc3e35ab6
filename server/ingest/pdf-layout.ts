import type { ExtractedBlock } from './types';

/** The parts of a pdf.js text item this module reads. */
export type PdfTextItem = { str: string; hasEOL: boolean; transform: readonly number[] };

/** A line of a page as laid out: its text, the largest font size in it, its baseline, and the gap above it. */
export type PdfLine = { text: string; fontSize: number; y: number; paragraphBreak: boolean };

// A line is a heading when its font is this much larger than the page's body text…
const HEADING_SCALE = 1.15;
// …and it is short enough to be a title rather than a paragraph set in a large font.
const HEADING_MAX_LENGTH = 150;
// A vertical gap above a line larger than this many font sizes is a paragraph break (normal leading is ~1.2).
const PARAGRAPH_GAP = 1.8;

/**
 * Groups pdf.js text items into lines. pdf.js marks most line ends (`hasEOL`), but not always when a new line
 * starts at a different baseline, so a baseline change also ends a line.
 */
export function linesOf(items: readonly PdfTextItem[]): PdfLine[] {
  const lines: PdfLine[] = [];
  let text = '';
  let fontSize = 0;
  let y: number | null = null;
  let previous: { y: number; fontSize: number } | null = null;

  const endLine = () => {
    if (y !== null && /\S/.test(text)) {
      const gap = previous ? previous.y - y : 0;
      const size = Math.max(fontSize, previous?.fontSize ?? 0);
      // A jump upwards is a new column or a text box: also a paragraph boundary.
      const paragraphBreak = previous !== null && (gap > PARAGRAPH_GAP * size || gap < -size);
      lines.push({ text: text.trim(), fontSize, y, paragraphBreak });
      previous = { y, fontSize };
    }
    text = '';
    fontSize = 0;
    y = null;
  };

  for (const item of items) {
    const size = Math.hypot(item.transform[2] ?? 0, item.transform[3] ?? 0);
    const baseline = item.transform[5] ?? 0;
    const visible = /\S/.test(item.str);
    if (visible && y !== null && Math.abs(baseline - y) > Math.max(size, fontSize) * 0.5) endLine();
    if (visible) {
      y ??= baseline;
      fontSize = Math.max(fontSize, size);
    }
    text += item.str;
    if (item.hasEOL) endLine();
  }
  endLine();
  return lines;
}

/**
 * Turns one page's lines into blocks: a heading-looking line (clearly larger than the page's body text, short)
 * starts a block whose section is that heading; text before the first heading continues the section of the previous
 * page (`carriedSection`), since sections run across pages. Paragraph gaps become blank lines for the chunker.
 */
export function pageBlocks(
  lines: readonly PdfLine[],
  page: number,
  carriedSection: string | null,
): { blocks: ExtractedBlock[]; section: string | null } {
  const bodySize = dominantFontSize(lines);
  const blocks: ExtractedBlock[] = [];
  let section = carriedSection;
  let text = '';
  let headingSize: number | null = null; // set while the previous line was a heading

  for (const line of lines) {
    const isHeading =
      line.fontSize >= bodySize * HEADING_SCALE && line.text.length <= HEADING_MAX_LENGTH && /\p{L}/u.test(line.text);
    // A heading set on two lines (same size, no gap) is one heading.
    const continuesHeading =
      headingSize !== null && Math.abs(line.fontSize - headingSize) < 0.5 && !line.paragraphBreak;
    if (isHeading && continuesHeading && section !== null) {
      section = `${section} ${line.text}`;
      text += ` ${line.text}`;
      continue;
    }
    if (isHeading) {
      if (/\S/.test(text)) blocks.push({ text, page, section });
      section = line.text;
      text = line.text;
      headingSize = line.fontSize;
      continue;
    }
    const separator = text === '' ? '' : headingSize !== null || line.paragraphBreak ? '\n\n' : '\n';
    text += separator + line.text;
    headingSize = null;
  }
  if (/\S/.test(text)) blocks.push({ text, page, section });
  return { blocks, section };
}

/** The font size set in the most characters on the page: its body text. */
function dominantFontSize(lines: readonly PdfLine[]): number {
  const characters = new Map<number, number>();
  for (const line of lines) {
    const size = Math.round(line.fontSize * 10) / 10;
    characters.set(size, (characters.get(size) ?? 0) + line.text.length);
  }
  let best = 0;
  let bestCount = -1;
  for (const [size, count] of characters) {
    if (count > bestCount) {
      best = size;
      bestCount = count;
    }
  }
  return best;
}
