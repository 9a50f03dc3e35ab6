import { notTextMessage } from './messages';
import { decodeTextOrThrow } from './text-decode';
import { type DocumentKind, type ExtractedBlock, type Extraction, ExtractionError } from './types';

/** Plain text: one block, no page, no section. */
export function extractPlainText(bytes: Uint8Array): Extraction {
  return { blocks: [{ text: decode(bytes, 'text'), page: null, section: null }], pageCount: null };
}

/** Markdown: `#` (and underlined) headings start sections; link and emphasis syntax is dropped. */
export function extractMarkdown(bytes: Uint8Array): Extraction {
  return { blocks: markdownToBlocks(decode(bytes, 'markdown')), pageCount: null };
}

function decode(bytes: Uint8Array, kind: DocumentKind): string {
  return decodeTextOrThrow(bytes, (problem) => new ExtractionError('unsupported_type', notTextMessage(kind, problem)));
}

// Every pattern here runs on lines of user text (a 50 MB file may be one line): none may backtrack more than a
// bounded distance. A heading's text and closing hashes are therefore cut by atxHeading(), not by one pattern.
const ATX_OPENING = /^ {0,3}#{1,6}(?=[ \t]|$)/;
const SETEXT_UNDERLINE = /^ {0,3}(?:=+|-+)[ \t]*$/;
const THEMATIC_BREAK = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const LIST_MARKER = /^ {0,3}(?:[-*+]|\d{1,9}[.)])[ \t]/;

/** Splits Markdown into one block per section; the heading line opens its section's text. */
export function markdownToBlocks(markdown: string): ExtractedBlock[] {
  const blocks: ExtractedBlock[] = [];
  let section: string | null = null;
  let body: string[] = [];
  let fence: string | null = null; // the opening fence while inside a fenced code block

  const flush = () => {
    const text = body.join('\n');
    if (/\S/.test(text)) blocks.push({ text, page: null, section });
    body = [];
  };
  const openSection = (heading: string) => {
    flush();
    section = heading;
    body = [heading, ''];
  };

  for (const line of withoutFrontMatter(markdown).split(/\r\n?|\n/)) {
    const fenceMatch = FENCE.exec(line);
    if (fence !== null) {
      // A closing fence uses the same character and is at least as long; code stays verbatim (it is still text).
      const closes =
        fenceMatch?.[1] !== undefined && fenceMatch[1][0] === fence[0] && fenceMatch[1].length >= fence.length;
      if (closes) fence = null;
      else body.push(line);
      continue;
    }
    if (fenceMatch?.[1] !== undefined) {
      fence = fenceMatch[1];
      body.push('');
      continue;
    }
    const atx = atxHeading(line);
    if (atx !== null) {
      const heading = inlineText(atx);
      if (heading !== '') openSection(heading);
      continue;
    }
    const previous = body.at(-1);
    const beforePrevious = body.at(-2);
    const isSetext =
      SETEXT_UNDERLINE.test(line) &&
      previous !== undefined &&
      previous.trim() !== '' &&
      !LIST_MARKER.test(previous) &&
      (beforePrevious === undefined || beforePrevious.trim() === '');
    if (isSetext) {
      body.pop();
      openSection(previous);
      continue;
    }
    // A horizontal rule separates paragraphs and has no words of its own.
    body.push(THEMATIC_BREAK.test(line) ? '' : inlineText(line));
  }
  flush();
  return blocks;
}

/** YAML front matter (between `---` lines at the very top) is metadata, not prose. */
function withoutFrontMatter(markdown: string): string {
  const match = /^---[ \t]*\r?\n[\s\S]*?\r?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/.exec(markdown);
  return match ? markdown.slice(match[0].length) : markdown;
}

/** The text of an ATX heading line ("## Title ##" → "Title"), or null when the line is not one. */
function atxHeading(line: string): string | null {
  const opening = ATX_OPENING.exec(line);
  if (!opening) return null;
  let text = line.slice(opening[0].length).trim();
  // A closing run of hashes counts only when it is the whole text or follows a space ("C#" keeps its hash).
  let end = text.length;
  while (end > 0 && text[end - 1] === '#') end -= 1;
  if (end === 0) return '';
  if (end < text.length && (text[end - 1] === ' ' || text[end - 1] === '\t')) text = text.slice(0, end).trimEnd();
  return text;
}

/**
 * Drops inline Markdown syntax that would otherwise show up in snippets: images, links, bold, code, quotes, tags, in
 * that order. Each is one left-to-right scan: the regular expressions these replace (`\[([^\]]+)\]\(…\)` and the
 * like) rescanned the rest of the line from every opener that never closed, so a 200 kB line of "[" took minutes.
 */
function inlineText(line: string): string {
  let text = replaceSpans(line, '![', (at, next) => {
    const close = next(']', at + 2);
    const end = close !== -1 && line[close + 1] === '(' ? next(')', close + 2) : -1;
    return end === -1 ? null : { text: line.slice(at + 2, close), end: end + 1 };
  });
  const linked = text;
  text = replaceSpans(linked, '[', (at, next) => {
    const close = next(']', at + 1);
    if (close <= at + 1) return null; // a link needs its text
    const after = linked[close + 1];
    const end = after === '(' ? next(')', close + 2) : after === '[' ? next(']', close + 2) : -1;
    return end === -1 ? null : { text: linked.slice(at + 1, close), end: end + 1 };
  });
  for (const marker of ['**', '__']) {
    const emphasised = text;
    text = replaceSpans(emphasised, marker, (at, next) => {
      const opens = /\S/.test(emphasised[at + 2] ?? ' ');
      const close = opens ? next(marker, at + 3, closesEmphasis) : -1;
      return close === -1 ? null : { text: emphasised.slice(at + 2, close), end: close + 2 };
    });
  }
  const coded = text;
  text = replaceSpans(coded, '`', (at, next) => {
    const close = next('`', at + 1);
    return close > at + 1 ? { text: coded.slice(at + 1, close), end: close + 1 } : null;
  });
  const quoted = text.replace(/^ {0,3}(?:> ?)+/, '');
  text = replaceSpans(quoted, '<', (at, next) => {
    const name = quoted[at + 1] === '/' ? at + 2 : at + 1;
    if (!/[a-zA-Z]/.test(quoted[name] ?? '')) return null;
    const close = next('>', name + 1);
    return close === -1 ? null : { text: '', end: close + 1 };
  });
  return text.trim();
}

type Finder = (needle: string, from: number, accept?: (text: string, at: number) => boolean) => number;

/**
 * Copies `text`, letting `span` replace what starts at each `opener` (it returns the replacement and the index after
 * the span, or null to keep the opener). `next` finds the next occurrence of a needle, remembering its last answer
 * per needle, so that openers that never close cost one search in all rather than one each.
 */
function replaceSpans(
  text: string,
  opener: string,
  span: (at: number, next: Finder) => { text: string; end: number } | null,
): string {
  if (!text.includes(opener)) return text;
  const finders = new Map<string, NextIndex>();
  const next: Finder = (needle, from, accept) => {
    let finder = finders.get(needle);
    if (!finder) {
      finder = new NextIndex(text, needle, accept);
      finders.set(needle, finder);
    }
    return finder.from(from);
  };
  let out = '';
  let copied = 0;
  for (let at = text.indexOf(opener); at !== -1;) {
    const replaced = span(at, next);
    if (replaced) {
      out += text.slice(copied, at) + replaced.text;
      copied = replaced.end;
      at = text.indexOf(opener, replaced.end);
    } else {
      at = text.indexOf(opener, at + 1);
    }
  }
  return out + text.slice(copied);
}

/** A "**" or "__" at `at` can close emphasis when it follows a non-space character. */
function closesEmphasis(text: string, at: number): boolean {
  return !/\s/.test(text[at - 1] ?? ' ');
}

/**
 * `text.indexOf(needle, from)` (skipping occurrences `accept` rejects) for mostly non-decreasing `from`, remembering
 * the last answer, so that a line of openers that never close costs one search instead of one per opener.
 */
class NextIndex {
  #from = -1;
  #found = -1;

  constructor(
    readonly text: string,
    readonly needle: string,
    readonly accept: (text: string, at: number) => boolean = () => true,
  ) {}

  from(position: number): number {
    const stillValid = this.#from >= 0 && position >= this.#from && (this.#found === -1 || position <= this.#found);
    if (!stillValid) {
      this.#from = position;
      let found = this.text.indexOf(this.needle, position);
      while (found !== -1 && !this.accept(this.text, found)) found = this.text.indexOf(this.needle, found + 1);
      this.#found = found;
    }
    return this.#found;
  }
}
