import {
  ANSWER_MAX_LENGTH,
  IMPORT_MAX_ENTRIES,
  QUESTION_MAX_LENGTH,
  SOURCE_MAX_LENGTH,
  TAG_MAX_LENGTH,
  TAGS_MAX,
} from '../constants';
import { ImportParseError, type ParsedEntry } from './types';

const count = (n: number): string => n.toLocaleString('en-US');

/** How much of an over-long tag the message quotes: enough to find it in the file, short enough for a toast. */
const TAG_QUOTE_LENGTH = 20; // counted in code points, so an emoji is never cut in half

/**
 * Refuses an import with more entries than one import call may hold. Parsers call it before checking entries one
 * by one, so a huge file gets the "split it" advice first rather than a row error the user would fix in vain.
 */
export function checkEntryCount(entries: number): void {
  if (entries > IMPORT_MAX_ENTRIES) {
    throw new ImportParseError(
      `An import can hold at most ${count(IMPORT_MAX_ENTRIES)} entries (this one has ${count(entries)}). ` +
        'Split the file and import it in parts.',
    );
  }
}

/**
 * Holds one entry to the ImportEntry limits, so the preview never shows an entry the server would refuse.
 * `where` names the entry as the user counts it: "Row 5", "Entry 3", "Pair 2".
 */
export function checkEntryLimits(entry: ParsedEntry, where: string): ParsedEntry {
  if (entry.question.length > QUESTION_MAX_LENGTH) {
    throw new ImportParseError(`${where}: Question is longer than ${count(QUESTION_MAX_LENGTH)} characters`);
  }
  if (entry.answer.length > ANSWER_MAX_LENGTH) {
    throw new ImportParseError(`${where}: Answer is longer than ${count(ANSWER_MAX_LENGTH)} characters`);
  }
  if (entry.tags.length > TAGS_MAX) {
    throw new ImportParseError(`${where}: At most ${TAGS_MAX} tags per entry`);
  }
  const longTag = entry.tags.find((tag) => tag.length > TAG_MAX_LENGTH);
  if (longTag !== undefined) {
    throw new ImportParseError(
      `${where}: Tag "${Array.from(longTag).slice(0, TAG_QUOTE_LENGTH).join('')}…" is longer than ${TAG_MAX_LENGTH} characters`,
    );
  }
  if (entry.source.length > SOURCE_MAX_LENGTH) {
    throw new ImportParseError(`${where}: Source is longer than ${SOURCE_MAX_LENGTH} characters`);
  }
  return entry;
}
