import { libraryIndex, type Scope, type TermWeights } from './library-index';

export type { TermWeights };

/**
 * How rare each term is in the workspace's library (document frequency over entry questions and tags), so that
 * "encrypt" and "at rest" count for more than "data" when matching a paraphrase. Kept with the library index.
 */
export async function termWeights(s: Scope): Promise<TermWeights> {
  return (await libraryIndex(s)).weights;
}
