import type { FastifyBaseLogger } from 'fastify';
import type { EmbeddingConfig } from '../config';
import type { LlmClient } from '../llm/client';
import { EmbedThread } from './embed-thread';
import { FairLanes } from '../engine/fair-lanes';
import { LocalEmbedder } from './local-embedder';
import { defaultModel, modelDir, type ModelSpec } from './model-spec';
import { verifyModel } from './setup';

/**
 * Whoever turns text into vectors for retrieval: the built-in local model or the OpenAI-compatible endpoint. The
 * engine asks for one question's vector while a user waits; the background sweep asks for batches of entries and
 * chunks. `model` is stored beside every vector, so rows embedded by another model are embedded again.
 */
export type Embedder = {
  readonly model: string;
  readonly kind: 'local' | 'openai';
  readonly log: FastifyBaseLogger;
  /** `key` is whose question it is (the organization): questions of different keys are embedded in fair turns. */
  embedQuery(text: string, opts?: { key?: string }): Promise<ArrayLike<number>>;
  embedPassages(texts: string[], opts?: { signal?: AbortSignal }): Promise<Array<ArrayLike<number>>>;
  close(): Promise<void>;
};

/** The endpoint's embeddings (EMBEDDING_MODEL on LLM_BASE_URL) as an Embedder. */
export function endpointEmbedder(llm: LlmClient): Embedder | null {
  const model = llm.embeddingModel;
  if (!model) return null;
  return {
    model,
    kind: 'openai',
    log: llm.log,
    async embedQuery(text) {
      const [v] = await llm.embed([text]);
      if (!v) throw new Error('the endpoint returned no vector');
      return v;
    },
    embedPassages: (texts, opts) => llm.embed(texts, opts),
    close: async () => {},
  };
}

/** The stored model name of the built-in model: distinct from any endpoint model's name. */
export const localModelName = (spec: Pick<ModelSpec, 'id'>) => `local:${spec.id}`;

/**
 * The built-in model: questions in one thread (a few milliseconds each, off the event loop), batches in another (a
 * 100-chunk batch takes a second or more of CPU). Null, with one log line saying why, when the files are missing
 * or fail their checksum, or onnxruntime cannot load them: Verity then answers with its lexical engine.
 */
export async function loadLocalEmbedder(
  modelsDir: string,
  log: FastifyBaseLogger,
  spec: ModelSpec = defaultModel(),
): Promise<Embedder | null> {
  const dir = modelDir(modelsDir, spec);
  const verified = await verifyModel(dir, spec);
  if (!verified.ok) {
    log.warn(
      `The embedding model is not available (${verified.reason}); answering with the lexical engine only. Run \`npm run models\` (or set MODELS_SOURCE_DIR) and restart.`,
    );
    return null;
  }
  let local: LocalEmbedder;
  try {
    local = await LocalEmbedder.load(dir, spec);
  } catch (err) {
    log.warn(
      { err },
      `The embedding model in ${dir} could not be loaded (${err instanceof Error ? err.message : String(err)}); answering with the lexical engine only.`,
    );
    return null;
  }
  const thread = new EmbedThread(dir, spec);
  // onnxruntime-node runs a model synchronously on the calling thread: a question's embedding (up to ~20 ms for a
  // long one) on the event loop would hold every other request meanwhile. Questions go to threads of their own; the
  // copy loaded here (which proved the files load) answers if a thread fails.
  // Two question threads, and one organization holds at most one of them: a thread embeds one text at a time, so
  // with a single thread another organization's question waited behind every long question queued before it
  // (bench:scale's noisy neighbour: 50-220 ms of its ask beside a flood of 2,000-character questions). They
  // are both kept warm: a thread started on demand loads the model first, half a second or more on a busy machine.
  const free = [
    new EmbedThread(dir, spec, Number.POSITIVE_INFINITY),
    new EmbedThread(dir, spec, Number.POSITIVE_INFINITY),
  ];
  const threads = [...free];
  // An embedding is a message to a thread: no turn of the event loop is needed before one.
  const turns = new FairLanes(free.length, { yieldAlways: false });
  for (const t of threads) void t.embed(['warm-up'], 'query').catch(() => {});
  const inThread = async (text: string) => {
    // Never empty: the lanes run at most as many embeddings at once as there are threads.
    const q = free.pop();
    if (!q) throw new Error('no free question embedding thread');
    try {
      return await q.embed([text], 'query');
    } finally {
      free.push(q);
    }
  };
  return {
    model: localModelName(spec),
    kind: 'local',
    log,
    async embedQuery(text, opts) {
      const [v] = await turns
        .run(opts?.key ?? '', () => inThread(text))
        .catch(async (err: unknown) => {
          log.warn({ err }, 'the question embedding thread failed; embedding on the main thread');
          return local.embed([text], 'query');
        });
      if (!v) throw new Error('the model returned no vector');
      return v;
    },
    embedPassages: (texts) => thread.embed(texts, 'passage'),
    close: async () => {
      await Promise.all([thread, ...threads].map((t) => t.close()));
    },
  };
}

/** The embedder the configuration asks for (EMBEDDING_PROVIDER), or null for lexical retrieval only. */
export async function createEmbedder(
  config: EmbeddingConfig,
  llm: LlmClient | null,
  log: FastifyBaseLogger,
): Promise<Embedder | null> {
  if (config.provider === 'none') return null;
  if (config.provider === 'openai') return llm ? endpointEmbedder(llm) : null;
  return loadLocalEmbedder(config.modelsDir, log);
}
