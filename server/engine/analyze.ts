import { composeExtractive, type Extract } from './ranking/compose';
import { passageCoverage } from './ranking/score';
import {
  ENTRY_CANDIDATES,
  hasChunks,
  retrieveChunks,
  type ChunkCandidate,
  type EntryCandidate,
  type Scope,
} from './retrieval/retrieve';
import { libraryIndex, searchIndex, type TermWeights } from './retrieval/library-index';
import { vectorMatches, withVectorChunks, withVectorEntries } from './retrieval/vector-candidates';
import type { Embedder } from '../embedding/embedder';
import { inLane } from './fair-lanes';
import { workspaceChanges } from './retrieval/change-count';

/**
 * Everything the decision looks at for one question, before any fitted model is applied: the library candidates
 * (lexical and, with an embedder, nearest by meaning), the documents' passages and the extractive answer composed
 * from them. bench:quality and bench:fit collect these once and refit the models on them, so what they measure is
 * exactly what the engine decides.
 */
export type Analysis = {
  question: string;
  weights: TermWeights;
  entries: EntryCandidate[];
  chunks: ChunkCandidate[];
  extract: Extract;
  passage: number;
  /** Similarity by meaning of the question to the extractive answer itself (embeddings only). */
  extractVector?: number;
  /** Whether every candidate has its embedding similarity (the dense models apply), or not (the lexical ones). */
  dense: boolean;
};

export async function analyzeQuestion(
  scope: Scope,
  question: string,
  ai: { embedder?: Embedder | null; queryEmbedding?: Promise<ArrayLike<number> | null> } = {},
  opts: { libraryFreshWithinMs?: number; bannedTokens?: string[] } = {},
): Promise<Analysis> {
  // Each step below is up to tens of milliseconds of this thread's time on a big workspace (the embedded database
  // runs here too): each takes a turn of the engine's lanes, shared fairly between organizations (fair-lanes.ts).
  // The question's embedding runs in the model's own thread; the vector search (onnxruntime, synchronous) here.
  const lane = <T>(step: () => Promise<T> | T) => inLane(scope.organizationId, step);
  // One look at what changed in the workspace per question (one indexed lookup) tells the library index, the vector
  // index and the chunk search whether what they hold is current; the library index carries the term weights too.
  const changes = await lane(() => workspaceChanges(scope));
  const index = await lane(() =>
    libraryIndex(scope, { freshWithinMs: opts.libraryFreshWithinMs, changes: changes.library }),
  );
  const weights = index.weights;
  const vm = await lane(() => vectorMatches(scope, question, ai.embedder, changes.vectors, ai.queryEmbedding));
  const entries = await lane(() =>
    withVectorEntries(index, question, searchIndex(index, question, ENTRY_CANDIDATES), vm),
  );
  // The documents' best passage is looked at before the library decides: a question the library only nearly
  // covers ("How many vendor tiers?" beside the vendor review entry) is often one the documents answer exactly.
  const chunks = (await lane(() => hasChunks(scope, changes.chunks)))
    ? await lane(async () => withVectorChunks(scope, await retrieveChunks(scope, question), vm))
    : [];
  const extract = await lane(() => composeExtractive(question, chunks, opts.bannedTokens ?? [], weights));
  // Whether the sentences chosen say what was asked, by meaning: the words of a question that nothing answers often
  // still occur in some passage, but the sentences then mean something else.
  const extractVector = vm && extract.text ? await lane(() => vm.similarityTo(extract.text)) : undefined;
  return {
    question,
    weights,
    entries,
    chunks,
    extract,
    passage: passageCoverage(question, extract, weights),
    extractVector,
    // The dense models read a missing similarity as "far in meaning": while the library or the documents are still
    // being embedded (just imported, or an edit waiting for the sweep), the lexical models decide instead.
    dense: vm !== null && entries.every((c) => c.vector !== undefined) && chunks.every((c) => c.vector !== undefined),
  };
}
