import { parseCsv } from './csv';
import { parseJson } from './json';
import { parsePlainText } from './plain-text';
import { IMPORT_FORMATS, ImportParseError, type ImportFormat, type ParsedEntry, type ParseOptions } from './types';

const PARSERS: Record<ImportFormat, (content: string, opts?: ParseOptions) => ParsedEntry[]> = {
  csv: parseCsv,
  json: parseJson,
  manual: parsePlainText,
};

/** Prefix of the message for a failure no parser anticipated; tests assert it never shows up. */
export const UNEXPECTED_PARSE_FAILURE = 'Could not read this content';

/**
 * Parses the import form's content in the chosen format (PRODUCT §5: 'manual' is plain text). Throws only
 * ImportParseError, whose message the 'Parse Error' toast shows as is; returns at least one entry.
 */
export function parseImport(format: ImportFormat, content: string, opts: ParseOptions = {}): ParsedEntry[] {
  if (typeof content !== 'string' || content.trim() === '') throw new ImportParseError('Content is required');
  // The format may come from an untyped caller (a form value, a request body).
  if (!(IMPORT_FORMATS as readonly string[]).includes(format)) {
    throw new ImportParseError(`Format must be one of ${IMPORT_FORMATS.join(', ')}`);
  }
  let entries: ParsedEntry[];
  try {
    entries = PARSERS[format](content, opts);
  } catch (error) {
    if (error instanceof ImportParseError) throw error;
    // A safety net, not a code path: the property tests feed arbitrary input and expect never to get here.
    const reason = error instanceof Error ? error.message : String(error);
    throw new ImportParseError(`${UNEXPECTED_PARSE_FAILURE}: ${reason}`, { cause: error });
  }
  if (entries.length === 0) throw new ImportParseError('No valid Q&A entries found');
  return entries;
}
