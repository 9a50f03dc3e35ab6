// Chunking collapses the whitespace inside a paragraph (server/ingest/chunk.ts), and a Markdown list is one
// paragraph: "- A\n- B\n- C" is stored as "- A - B - C". Stored chunks are what answers are chosen from and what
// search indexes, so they stay as they are; what shows them puts the items back on lines of their own.

// The bullets the chunker's sentence splitter knows (server/ingest/sentences.ts LIST_ITEM), set off by spaces.
const BULLET = '[-*+•‣◦▪–]';
// Where a run-together list may start: at the start of a line, or after a colon or the end of a sentence
// ("Passwords must: - be long", "Rules apply. - Passwords…"). A " - " anywhere else is a dash in a sentence.
const LIST_OPENING = new RegExp(`(^|[:.!?…]["'”’)\\]]* )(${BULLET}) (?=\\S)`, 'u');
const NUMBERED_OPENING = /(^|[:.!?…]["'”’)\]]* )1([.)]) (?=\S)/u;

/**
 * The text with the items of each run-together list on lines of their own: from where a list starts (a bullet or a
 * "1." at the start of a line, or after a colon or a full stop), every further same bullet set off by spaces, or
 * the next number ("2.", "3." …), starts a new line. Only spaces become line breaks: the words stay as they are.
 */
export function listItemsOnLines(text: string): string {
  return text
    .split('\n')
    .flatMap((line) => numberedItemsOnLines(line).split('\n'))
    .map(bulletItemsOnLines)
    .join('\n');
}

function bulletItemsOnLines(line: string): string {
  const opening = LIST_OPENING.exec(line);
  if (!opening) return line;
  const [, before = '', bullet = ''] = opening;
  const start = opening.index + before.length;
  // Every later " - " with the list's own bullet is its next item, to the end of the line.
  return lineBreakBefore(line, start, before) + line.slice(start).split(` ${bullet} `).join(`\n${bullet} `);
}

function numberedItemsOnLines(line: string): string {
  const opening = NUMBERED_OPENING.exec(line);
  if (!opening) return line;
  const [, before = '', delimiter = '.'] = opening;
  const start = opening.index + before.length;
  let out = lineBreakBefore(line, start, before);
  let rest = line.slice(start);
  for (let n = 2; ; n++) {
    const at = rest.indexOf(` ${String(n)}${delimiter} `);
    if (at === -1) break;
    out += `${rest.slice(0, at)}\n`;
    rest = rest.slice(at + 1);
  }
  return out + rest;
}

/** What comes before a list's first item, ending in a line break instead of its space (nothing at a line's start). */
function lineBreakBefore(line: string, start: number, before: string): string {
  return before === '' ? '' : `${line.slice(0, start - 1)}\n`;
}
