import { TEXT_IMPORT_CONFIDENCE } from '../constants';
import { checkEntryCount, checkEntryLimits } from './limits';
import { ImportParseError, type ParsedEntry, type ParseOptions } from './types';
import { importSourceLabel, stripBom, toLf } from './text';

/** "Q:" / "A:" (any case), or "Q." / "A." followed by a space so "A.B. testing" is not taken for a prefix. */
const QUESTION_PREFIX = /^q(?::|\.(?=\s|$))\s*/i;
const ANSWER_PREFIX = /^a(?::|\.(?=\s|$))\s*/i;

/** Groups lines into blocks separated by blank (or whitespace-only) lines; each line trimmed. */
function blocksOf(text: string): string[][] {
  const blocks: string[][] = [];
  let current: string[] = [];
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    if (trimmed) {
      current.push(trimmed);
    } else if (current.length > 0) {
      blocks.push(current);
      current = [];
    }
  }
  if (current.length > 0) blocks.push(current);
  return blocks;
}

/** Splits a block into question and answer; empty strings when it has no answer part. */
function pairOf(lines: readonly string[]): { question: string; answer: string } {
  const answerAt = lines.findIndex((line, i) => i > 0 && ANSWER_PREFIX.test(line));
  // Without an "A:" line the first line is the question: questions are usually one line, answers often several.
  const split = answerAt > 0 ? answerAt : 1;
  const questionLines = lines.slice(0, split);
  const answerLines = lines.slice(split);
  if (questionLines[0] !== undefined) questionLines[0] = questionLines[0].replace(QUESTION_PREFIX, '');
  if (answerLines[0] !== undefined) answerLines[0] = answerLines[0].replace(ANSWER_PREFIX, '');
  // A bare "Q:" or "A:" line leaves an empty string that must not become a stray space or line break.
  const question = questionLines.filter(Boolean).join(' ');
  const answer = answerLines.filter(Boolean).join('\n');
  return { question, answer };
}

/** Parses pasted text (PRODUCT §5): pairs separated by blank lines, question first, optional Q:/A: prefixes. */
export function parsePlainText(content: string, opts: ParseOptions = {}): ParsedEntry[] {
  const blocks = blocksOf(toLf(stripBom(content)));
  checkEntryCount(blocks.length);
  const source = importSourceLabel('Text', opts.now);
  return blocks.map((lines, i) => {
    const where = `Pair ${i + 1}`;
    const { question, answer } = pairOf(lines);
    if (!question || !answer) throw new ImportParseError(`${where}: Must have both question and answer lines`);
    return checkEntryLimits({ question, answer, tags: [], source, confidence: TEXT_IMPORT_CONFIDENCE }, where);
  });
}
