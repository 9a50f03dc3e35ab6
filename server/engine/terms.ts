import { contentWords } from '../modules/knowledge/similarity';

/**
 * The words of a text the engine compares: question words and filler dropped, endings folded, security synonyms
 * merged. One function for questions, entries and chunks, so both sides are always treated alike.
 */
export function termsOf(text: string): string[] {
  return contentWords(text);
}

/**
 * Lexemes for PostgreSQL's `to_tsquery('english', …)`, to be joined with ` | ` (an OR query: a paraphrase rarely
 * shares every word). Only [a-z0-9], so nothing the user typed can change the query's syntax.
 */
export function tsqueryTerms(text: string): string[] {
  const words = text.toLowerCase().match(/[a-z0-9]+/g) ?? [];
  const out = new Set<string>();
  for (const w of words) if (w.length > 1 && !TS_STOP.has(w)) out.add(w);
  for (const t of termsOf(text)) if (/^[a-z0-9]+$/.test(t) && t.length > 1) out.add(t);
  return [...out].slice(0, 40);
}

const TS_STOP = new Set(
  'a an the and or of to in on at for by with from as is are was were be been do does did you your we our it its this that these those there which what who how when where why if any all can could should would will may must please describe provide explain'.split(
    ' ',
  ),
);
