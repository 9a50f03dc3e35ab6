import { Parser } from 'htmlparser2';
import { HTML_TOO_DEEP_MESSAGE, MAX_HTML_DEPTH, notTextMessage } from './messages';
import { decodeTextOrThrow } from './text-decode';
import { type ExtractedBlock, type Extraction, ExtractionError } from './types';

// Elements whose content a reader never sees as prose.
const HIDDEN = new Set(
  'head title script style noscript template svg math iframe object canvas select button datalist'.split(' '),
);
const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
// Elements that start a new paragraph; everything else is inline and flows into the surrounding text.
const BLOCKS = new Set(
  (
    'address article aside blockquote caption dd details dialog div dl dt fieldset figcaption figure ' +
    'footer form header hr li main nav ol p pre section summary table tbody tfoot thead tr ul'
  ).split(' '),
);
const CELLS = new Set(['td', 'th']);

/** HTML: visible text only, headings start sections, block elements separate paragraphs. */
export function extractHtml(bytes: Uint8Array): Extraction {
  const html = decodeTextOrThrow(
    bytes,
    (problem) => new ExtractionError('unsupported_type', notTextMessage('html', problem)),
  );
  return { blocks: htmlToBlocks(html), pageCount: null };
}

/**
 * The visible text of an HTML document (or fragment, such as mammoth's rendering of a docx) as one block per
 * section: script, style, head, template and `hidden` elements are skipped, entities are decoded, each h1–h6 starts
 * a section named after it whose text begins with the heading. Elements nested more than MAX_HTML_DEPTH deep throw
 * ExtractionError 'too_large': htmlparser2 keeps its open elements in an array it inserts at the front of, so each
 * level costs as much as all the levels above it, and 100,000 nested divs (1 MB) took half a minute.
 */
export function htmlToBlocks(html: string): ExtractedBlock[] {
  const blocks: ExtractedBlock[] = [];
  let section: string | null = null;
  let parts: string[] = [];
  let depth = 0; // elements open; htmlparser2 reports a close for every open
  let hiddenDepth = 0; // > 0 inside an element whose content is not shown
  let heading: string[] | null = null; // the text of the heading being read

  const flush = () => {
    const text = parts.join('');
    if (/\S/.test(text)) blocks.push({ text, page: null, section });
    parts = [];
  };

  const parser = new Parser(
    {
      onopentag(name, attributes) {
        // htmlparser2 reports a close for every open (void and unclosed elements included), so counting is exact.
        depth += 1;
        if (depth > MAX_HTML_DEPTH) throw new ExtractionError('too_large', HTML_TOO_DEEP_MESSAGE);
        if (hiddenDepth > 0 || HIDDEN.has(name) || 'hidden' in attributes || attributes['aria-hidden'] === 'true') {
          hiddenDepth += 1;
          return;
        }
        if (HEADINGS.has(name) && heading === null) {
          heading = [];
          return;
        }
        if (name === 'br') (heading ?? parts).push('\n');
        else if (BLOCKS.has(name)) parts.push('\n\n');
        else if (name === 'img' && attributes.alt) (heading ?? parts).push(` ${attributes.alt} `);
      },
      ontext(text) {
        if (hiddenDepth === 0) (heading ?? parts).push(text);
      },
      onclosetag(name) {
        depth -= 1;
        if (hiddenDepth > 0) {
          hiddenDepth -= 1;
          return;
        }
        if (HEADINGS.has(name) && heading !== null) {
          const title = heading.join('').replace(/\s+/g, ' ').trim();
          heading = null;
          if (title === '') return;
          flush();
          section = title;
          parts.push(title, '\n\n');
        } else if (BLOCKS.has(name)) parts.push('\n\n');
        else if (CELLS.has(name)) parts.push(' \t ');
      },
    },
    { decodeEntities: true },
  );
  parser.write(html);
  parser.end();
  flush();
  return blocks;
}
