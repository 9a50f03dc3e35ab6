import { listItemsOnLines } from '../../../common/list-lines';

const folded = (text: string) => text.replace(/\s+/g, ' ').trim().toLowerCase();

/**
 * A chunk's text as the document viewer shows it under its section's heading: without the heading's own line, which
 * a section's first chunk starts with (the heading is already shown above it), and with the items of a list the
 * chunker ran together ("- A - B - C") on lines of their own.
 */
export function readableChunkText(text: string, section: string | null): string {
  let body = text;
  if (section !== null) {
    const lineEnd = text.indexOf('\n');
    const firstLine = lineEnd === -1 ? text : text.slice(0, lineEnd);
    if (folded(firstLine) === folded(section)) body = lineEnd === -1 ? '' : text.slice(lineEnd + 1);
  }
  return listItemsOnLines(body);
}
