import type { FastifyBaseLogger } from 'fastify';
import type { EmbeddingConfig } from '../config';
import type { LlmClient } from '../llm/client';
import { EmbedThread } from './embed-thread';
import { FairLanes } from '../engine/fair-lanes';
import { LocalEmbedder } from './local-embedder';
import { defaultModel, modelDir, ownModel, type EncoderSpec, type OwnModelSpec } from './model-spec';
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
  /** For admins, when this is not the model Verity meant to use (its own was refused): what happened and the fix. */
  readonly notice: string | null;
  /** `key` is whose question it is (the organization): questions of different keys are embedded in fair turns. */
  embedQuery(text: string, opts?: { key?: string }): Promise<ArrayLike<number>>;
  /** Several questions' vectors in one call (background answering embeds a claim's questions ahead of them). */
  embedQueries(texts: string[], opts?: { key?: string }): Promise<Array<ArrayLike<number>>>;
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
    notice: null,
    async embedQuery(text) {
      const [v] = await llm.embed([text]);
      if (!v) throw new Error('the endpoint returned no vector');
      return v;
    },
    embedQueries: (texts) => llm.embed(texts),
    embedPassages: (texts, opts) => llm.embed(texts, opts),
    close: async () => {},
  };
}

/** The stored model name of the built-in model: distinct from any endpoint model's name. */
export const localModelName = (spec: Pick<EncoderSpec, 'id'>) => `local:${spec.id}`;

/**
 * The built-in model: questions in one thread (a few milliseconds each, off the event loop), batches in another (a
 * 100-chunk batch takes a second or more of CPU). Null, with one log line saying why, when the files are missing
 * or fail their checksum, or onnxruntime cannot load them: Verity then answers with its lexical engine.
 */
export async function loadLocalEmbedder(
  modelsDir: string,
  log: FastifyBaseLogger,
  spec: EncoderSpec = defaultModel(),
): Promise<Embedder | null> {
  const opened = await openLocalEmbedder(modelDir(modelsDir, spec), spec, log);
  if (opened.ok) return opened.embedder;
  log.warn(
    opened.stage === 'verify'
      ? `The embedding model is not available (${opened.reason}); answering with the lexical engine only. Run \`npm run models\` (or set MODELS_SOURCE_DIR) and restart.`
      : `${opened.reason}; answering with the lexical engine only.`,
  );
  return null;
}

/**
 * Verity's own model from the repository's models/ folder; when it is missing, refused by its checksum or cannot
 * be loaded, the published model from MODELS_DIR, with a notice for admins saying so; neither: null (lexical).
 */
export async function loadBuiltInEmbedder(
  dirs: { ownModelsDir: string; modelsDir: string },
  log: FastifyBaseLogger,
  models: { own: OwnModelSpec; fallback: EncoderSpec } = { own: ownModel(), fallback: defaultModel() },
): Promise<Embedder | null> {
  const opened = await openLocalEmbedder(modelDir(dirs.ownModelsDir, models.own), models.own, log);
  if (opened.ok) return opened.embedder;
  log.warn(`Verity's own embedding model is not used (${opened.reason}); trying ${models.fallback.id} instead.`);
  const fallback = await loadLocalEmbedder(dirs.modelsDir, log, models.fallback);
  if (!fallback) return null;
  return {
    ...fallback,
    notice:
      `Verity's own embedding model (${models.own.id}) could not be used, so answers match questions with the ` +
      `general-purpose model ${models.fallback.id}, which finds the right entry less often. Restore the files in ` +
      `${modelDir(dirs.ownModelsDir, models.own)} from the release (git checkout -- models) and restart Verity.`,
  };
}

type Opened = { ok: true; embedder: Embedder } | { ok: false; stage: 'verify' | 'load'; reason: string };

/** The model in `dir` as an Embedder, or why not (nothing logged: the caller says what happens instead). */
async function openLocalEmbedder(dir: string, spec: EncoderSpec, log: FastifyBaseLogger): Promise<Opened> {
  const verified = await verifyModel(dir, spec);
  if (!verified.ok) return { ok: false, stage: 'verify', reason: verified.reason };
  let local: LocalEmbedder;
  try {
    local = await LocalEmbedder.load(dir, spec);
  } catch (err) {
    log.debug({ err }, 'embedding model load failed');
    return {
      ok: false,
      stage: 'load',
      reason: `The embedding model in ${dir} could not be loaded (${err instanceof Error ? err.message : String(err)})`,
    };
  }
  // The copy loaded here proved the files load; the threads below hold their own, so it is let go (each copy of a
  // MiniLM is ~80 MB of memory) and loaded again only if a thread fails.
  await local.release();
  let mainThreadCopy: Promise<LocalEmbedder> | null = null;
  const onMainThread = (texts: string[], kind: 'query' | 'passage') => {
    mainThreadCopy ??= LocalEmbedder.load(dir, spec).catch((err: unknown) => {
      mainThreadCopy = null;
      throw err;
    });
    return mainThreadCopy.then((copy) => copy.embed(texts, kind));
  };
  const thread = new EmbedThread(dir, spec);
  // onnxruntime-node runs a model synchronously on the calling thread: a question's embedding (up to ~20 ms for a
  // long one) on the event loop would hold every other request meanwhile. Questions go to threads of their own; a
  // copy on this thread answers only if a thread fails.
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
  const inThread = async (texts: string[]) => {
    // Never empty: the lanes run at most as many embeddings at once as there are threads.
    const q = free.pop();
    if (!q) throw new Error('no free question embedding thread');
    try {
      return await q.embed(texts, 'query');
    } finally {
      free.push(q);
    }
  };
  const queries = (texts: string[], key: string) =>
    turns
      .run(key, () => inThread(texts))
      .catch(async (err: unknown) => {
        log.warn({ err }, 'the question embedding thread failed; embedding on the main thread');
        return onMainThread(texts, 'query');
      });
  const embedder: Embedder = {
    model: localModelName(spec),
    notice: null,
    kind: 'local',
    log,
    async embedQuery(text, opts) {
      const [v] = await queries([text], opts?.key ?? '');
      if (!v) throw new Error('the model returned no vector');
      return v;
    },
    embedQueries: (texts, opts) => (texts.length === 0 ? Promise.resolve([]) : queries(texts, opts?.key ?? '')),
    embedPassages: (texts) => thread.embed(texts, 'passage'),
    close: async () => {
      await Promise.all([thread, ...threads].map((t) => t.close()));
    },
  };
  return { ok: true, embedder };
}

/** The embedder the configuration asks for (EMBEDDING_PROVIDER), or null for lexical retrieval only. */
export async function createEmbedder(
  config: EmbeddingConfig,
  llm: LlmClient | null,
  log: FastifyBaseLogger,
): Promise<Embedder | null> {
  if (config.provider === 'none') return null;
  if (config.provider === 'openai') return llm ? endpointEmbedder(llm) : null;
  return loadBuiltInEmbedder(config, log);
}
