import { tsqueryGroups } from './terms';

/** Most terms a query is built from: the rest of a long question adds cost, not precision. */
const MAX_GROUPS = 8;

/**
 * The full-text queries retrieval tries in turn, most selective first: every concept (AND), then any two, then
 * any (OR); a concept is a group of spellings ORed together (mfa | multifactor | 2fa). Each is a `to_tsquery('english', …)` string over [a-z0-9] lexemes only.
 *
 * Ranking every row an OR query matches is what makes naive retrieval slow on a big workspace (common words match
 * most chunks); a selective query keeps the set to rank small, and the looser ones only run when it finds too few.
 */
export function stagedQueries(text: string): string[] {
  const groups = tsqueryGroups(text)
    .filter((g) => g.length > 0)
    .slice(0, MAX_GROUPS);
  if (groups.length === 0) return [];
  const group = (g: string[]) => (g.length === 1 ? (g[0] ?? '') : `(${g.join(' | ')})`);
  const stages: string[] = [];
  stages.push(groups.map(group).join(' & '));
  if (groups.length > 2) {
    const pairs: string[] = [];
    for (let i = 0; i < groups.length; i += 1) {
      for (let j = i + 1; j < groups.length; j += 1) {
        const a = groups[i];
        const b = groups[j];
        if (a && b) pairs.push(`(${group(a)} & ${group(b)})`);
      }
    }
    stages.push(pairs.join(' | '));
  }
  if (groups.length > 1) stages.push(groups.map(group).join(' | '));
  return stages;
}
