import type { LexemeFrequency } from './lexeme-stats';
import { snowballStem } from '../text/words';
import { tsqueryGroups } from '../text/thesaurus';

/** Most terms a query is built from: the rest of a long question adds cost, not precision. */
const MAX_GROUPS = 8;
/** A concept found in more than this share of rows is too common to select by alone (see below). */
const COMMON = 0.05;

/**
 * The full-text queries retrieval tries in turn, most selective first: every concept (AND), then any two, then
 * any (OR); a concept is a group of spellings ORed together (mfa | multifactor | 2fa). Each is a `to_tsquery('english', …)` string over [a-z0-9] lexemes only.
 *
 * Ranking every row an OR query matches is what makes naive retrieval slow on a big workspace (common words match
 * most chunks); a selective query keeps the set to rank small, and the looser ones only run when it finds too few.
 */
export function stagedQueries(text: string, frequency: LexemeFrequency = () => 0): string[] {
  const groups = tsqueryGroups(text)
    .filter((g) => g.length > 0)
    .slice(0, MAX_GROUPS);
  if (groups.length === 0) return [];
  const group = (g: string[]) => (g.length === 1 ? (g[0] ?? '') : `(${g.join(' | ')})`);
  const stages: string[] = [];
  // Every concept: cheap whatever the words, because PostgreSQL's GIN scan of an AND skips ahead on the rarest.
  stages.push(groups.map(group).join(' & '));
  // The looser stages OR their parts, and an OR over a word most rows contain is a bitmap of most of the table:
  // they use only the rarer concepts (or, when every concept is common, the two rarest).
  // The statistics count PostgreSQL's lexemes: stemmed words, as its english configuration (our Snowball port) makes.
  const share = (g: string[]) =>
    Math.min(
      1,
      g.reduce((sum, word) => sum + frequency(snowballStem(word)), 0),
    );
  const byRarity = [...groups].sort((a, b) => share(a) - share(b));
  const rare = groups.filter((g) => share(g) <= COMMON);
  const loose = rare.length > 0 ? rare : byRarity.slice(0, 2);
  if (loose.length > 2) {
    const pairs: string[] = [];
    for (let i = 0; i < loose.length; i += 1) {
      for (let j = i + 1; j < loose.length; j += 1) {
        const a = loose[i];
        const b = loose[j];
        if (a && b) pairs.push(`(${group(a)} & ${group(b)})`);
      }
    }
    stages.push(pairs.join(' | '));
  }
  if (loose.length > 1) stages.push(loose.map(group).join(' | '));
  else if (loose.length === 1 && groups.length > 1) stages.push(group(loose[0] ?? []));
  return [...new Set(stages)];
}
