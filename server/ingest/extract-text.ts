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

const ATX_HEADING = /^ {0,3}#{1,6}(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
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
    const atx = ATX_HEADING.exec(line);
    if (atx) {
      const heading = inlineText(atx[1] ?? '');
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

/** Drops inline Markdown syntax that would otherwise show up in snippets: links, images, bold, code, quotes. */
function inlineText(line: string): string {
  return line
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]+)\](?:\([^)]*\)|\[[^\]]*\])/g, '$1')
    .replace(/(\*\*|__)(?=\S)(.+?)(?<=\S)\1/g, '$2')
    .replace(/`([^`]+)`/g, '$1')
    .replace(/^ {0,3}(?:> ?)+/, '')
    .replace(/<\/?[a-zA-Z][^>]*>/g, '')
    .trim();
}
