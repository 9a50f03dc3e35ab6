// Just enough XML to patch OOXML parts in place. A DOM round trip would re-serialise every element (namespace
// declarations, attribute quoting, mc:Ignorable extensions) and risk losing what Excel put there; splicing strings
// at known offsets changes only the elements we mean to change.

/** One attribute as written: its raw (still escaped) value and the quote it used, so it is re-emitted unchanged. */
export type XmlAttribute = { name: string; raw: string; quote: '"' | "'" };

/** The attribute list of a start tag; `>` may legally appear inside quoted values, so this is quote-aware. */
export const ATTRIBUTES_PATTERN = `(?:\\s+[^\\s=/>]+\\s*=\\s*(?:"[^"]*"|'[^']*'))*`;

const ATTRIBUTE = /([^\s=/>]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;

export function parseAttributes(text: string): XmlAttribute[] {
  const attributes: XmlAttribute[] = [];
  // exec in a loop rather than matchAll: this runs for every row and cell of a sheet, and the iterator costs.
  ATTRIBUTE.lastIndex = 0;
  for (let match = ATTRIBUTE.exec(text); match; match = ATTRIBUTE.exec(text)) {
    const [, name = '', double, single] = match;
    attributes.push(double !== undefined ? { name, raw: double, quote: '"' } : { name, raw: single ?? '', quote: "'" });
  }
  return attributes;
}

export function serializeAttributes(attributes: readonly XmlAttribute[]): string {
  return attributes.map((a) => ` ${a.name}=${a.quote}${a.raw}${a.quote}`).join('');
}

/** The decoded value of an attribute, or null when absent. */
export function attributeValue(attributes: readonly XmlAttribute[], name: string): string | null {
  const found = attributes.find((a) => a.name === name);
  return found ? decodeXmlEntities(found.raw) : null;
}

/** Sets (or adds) an attribute to an already-escaped value, keeping the others in place. */
export function withAttribute(attributes: readonly XmlAttribute[], name: string, raw: string): XmlAttribute[] {
  const existing = attributes.some((a) => a.name === name);
  if (!existing) return [...attributes, { name, raw, quote: '"' }];
  return attributes.map((a) => (a.name === name ? { name, raw, quote: '"' } : a));
}

export function withoutAttributes(attributes: readonly XmlAttribute[], names: readonly string[]): XmlAttribute[] {
  return attributes.filter((a) => !names.includes(a.name));
}

/** An xsd:boolean attribute: Excel writes "1", LibreOffice "true". */
export function isTrue(value: string | null): boolean {
  return value === '1' || value === 'true';
}

const NAMED_ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

export function decodeXmlEntities(text: string): string {
  if (!text.includes('&')) return text; // the common case, on every attribute of every cell
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-zA-Z]+);/g, (whole, body: string) => {
    if (body.startsWith('#x')) return String.fromCodePoint(Number.parseInt(body.slice(2), 16));
    if (body.startsWith('#')) return String.fromCodePoint(Number.parseInt(body.slice(1), 10));
    return NAMED_ENTITIES[body] ?? whole;
  });
}

/** Escapes element text; `>` too, so that a `]]>` in the text can never be read as markup. */
export function escapeXmlText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function escapeXmlAttribute(text: string): string {
  return escapeXmlText(text).replace(/"/g, '&quot;');
}

/** Escapes a string for use inside a RegExp. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The namespace prefix (with its colon, or '') of a part's root element, e.g. 'x:' for `<x:worksheet>`. */
export function rootPrefix(xml: string, localName: string): string | null {
  const match = new RegExp(`<([A-Za-z_][\\w.-]*:)?${localName}[\\s/>]`).exec(xml);
  return match ? (match[1] ?? '') : null;
}

/** Where an element sits in a string: its whole extent and, unless self-closing, its content. */
export type ElementSpan = {
  start: number;
  end: number;
  openTagEnd: number;
  contentEnd: number;
  selfClosing: boolean;
  attributes: XmlAttribute[];
};

const startTagPatterns = new Map<string, RegExp>();

function startTagPattern(qualifiedName: string): RegExp {
  let pattern = startTagPatterns.get(qualifiedName);
  if (!pattern) {
    pattern = new RegExp(`<${escapeRegExp(qualifiedName)}(${ATTRIBUTES_PATTERN})\\s*(/?)>`, 'y');
    startTagPatterns.set(qualifiedName, pattern);
  }
  return pattern;
}

/**
 * The first `<{prefix}{name}>` element at or after `from` (and before `until`), for elements that never nest in
 * themselves (row, c, cols, sheetData…). Text cannot contain a raw `<`, so searching for the closing tag is safe.
 */
export function findElement(xml: string, qualifiedName: string, from = 0, until = xml.length): ElementSpan | null {
  // indexOf first, then a sticky match: a global regex would scan the rest of a large sheet whenever a row has no
  // further cell, making a scan of every row quadratic.
  const open = startTagPattern(qualifiedName);
  const needle = `<${qualifiedName}`;
  for (let at = xml.indexOf(needle, from); at !== -1 && at < until; at = xml.indexOf(needle, at + 1)) {
    open.lastIndex = at;
    const match = open.exec(xml);
    if (!match) continue; // a longer name sharing the prefix (`<color` when looking for `<c`)
    const openTagEnd = at + match[0].length;
    const attributes = parseAttributes(match[1] ?? '');
    if (match[2] === '/') {
      return { start: at, end: openTagEnd, openTagEnd, contentEnd: openTagEnd, selfClosing: true, attributes };
    }
    const close = `</${qualifiedName}>`;
    const contentEnd = xml.indexOf(close, openTagEnd);
    if (contentEnd === -1) return null;
    return { start: at, end: contentEnd + close.length, openTagEnd, contentEnd, selfClosing: false, attributes };
  }
  return null;
}

/** A replacement of xml[start, end) by text (an insertion when start === end). */
export type Splice = { start: number; end: number; text: string };

/** Applies non-overlapping splices; at one position an insertion goes before a replacement. */
export function applySplices(xml: string, splices: Splice[]): string {
  const ordered = [...splices].sort((a, b) => a.start - b.start || a.end - b.end);
  const parts: string[] = [];
  let cursor = 0;
  for (const splice of ordered) {
    if (splice.start < cursor) throw new Error('Overlapping XML edits');
    parts.push(xml.slice(cursor, splice.start), splice.text);
    cursor = splice.end;
  }
  parts.push(xml.slice(cursor));
  return parts.join('');
}
