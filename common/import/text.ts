/** Small text helpers every import parser shares. */

/** Drops the byte-order mark Excel and Notepad put at the start of UTF-8 files; it would glue onto the first header. */
export function stripBom(text: string): string {
  return text.startsWith('\uFEFF') ? text.slice(1) : text;
}

/**
 * Turns Windows (CRLF) and old Mac (CR) line breaks into `\n`, so stored answers use one kind of line break
 * whichever tool saved the file, and a file that mixes kinds still splits into the right lines.
 */
export function toLf(text: string): string {
  return text.replace(/\r\n?/g, '\n');
}

/** Trims each tag and drops empty and repeated ones, keeping first-seen order. */
export function cleanTags(tags: readonly string[]): string[] {
  const seen = new Set<string>();
  for (const raw of tags) {
    const tag = raw.trim();
    if (tag) seen.add(tag);
  }
  return [...seen];
}

/** The default source of an import, e.g. "CSV import 2025-01-31 14:05" (UTC, so every viewer sees the same label). */
export function importSourceLabel(kind: 'CSV' | 'JSON' | 'Text', now: Date | undefined): string {
  // An invalid Date would make toISOString throw a RangeError, and parsers only ever throw ImportParseError.
  const at = now && !Number.isNaN(now.getTime()) ? now : new Date();
  const iso = at.toISOString();
  return `${kind} import ${iso.slice(0, 10)} ${iso.slice(11, 16)}`;
}
