import { JSON_IMPORT_CONFIDENCE } from '../constants';
import { checkEntryCount, checkEntryLimits } from './limits';
import { ImportParseError, type ParsedEntry, type ParseOptions } from './types';
import { cleanTags, importSourceLabel, stripBom } from './text';

type JsonObject = Record<string, unknown>;

const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const filledString = (value: unknown): string => (typeof value === 'string' ? value.trim() : '');

/** The list of candidate entries: an array, `{ entries: [...] }` (what an export wrapper tends to look like), or one. */
function entryList(data: unknown): unknown[] {
  if (Array.isArray(data)) return data;
  if (isObject(data)) return Array.isArray(data.entries) ? data.entries : [data];
  throw new ImportParseError('JSON must be an object or an array of Q&A objects');
}

/** PRODUCT §5: tags that are not an array are ignored; so are items of it that are not text. */
function stringsIn(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item: unknown): item is string => typeof item === 'string') : [];
}

function confidenceOf(value: unknown): number {
  return typeof value === 'number' && value >= 0 && value <= 100 ? Math.round(value) : JSON_IMPORT_CONFIDENCE;
}

/** Parses JSON Q&A objects (PRODUCT §5): `question` and `answer` required; `tags`, `confidence`, `source` optional. */
export function parseJson(content: string, opts: ParseOptions = {}): ParsedEntry[] {
  let data: unknown;
  try {
    data = JSON.parse(stripBom(content));
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ImportParseError(`Invalid JSON: ${reason}`);
  }
  const list = entryList(data);
  checkEntryCount(list.length);
  const defaultSource = importSourceLabel('JSON', opts.now);
  return list.map((item, i) => {
    const where = `Entry ${i + 1}`;
    const question = isObject(item) ? filledString(item.question) : '';
    const answer = isObject(item) ? filledString(item.answer) : '';
    if (!isObject(item) || !question || !answer) {
      throw new ImportParseError(`${where}: Missing required question or answer field`);
    }
    const tags = cleanTags(stringsIn(item.tags));
    return checkEntryLimits(
      {
        question,
        answer,
        tags,
        source: filledString(item.source) || defaultSource,
        confidence: confidenceOf(item.confidence),
      },
      where,
    );
  });
}
