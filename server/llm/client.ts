import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import type { LlmConfig } from '../config';

export type ChatMessage = { role: 'system' | 'user' | 'assistant'; content: string };

/** Why a call to the endpoint gave nothing usable; logged, never shown to users. */
export type LlmFailure = 'timeout' | 'network' | 'http' | 'garbage' | 'empty' | 'not_configured';

export class LlmError extends Error {
  constructor(
    readonly reason: LlmFailure,
    message: string,
    /** HTTP status of an 'http' failure. */
    readonly status?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'LlmError';
  }
}

/**
 * The OpenAI-compatible endpoint (OpenAI, Azure, Ollama, vLLM, LM Studio…) behind two calls. Every reply is
 * checked: a wrong shape, empty content or wrong vectors are an LlmError, never a crash or a silently bad value.
 */
export type LlmClient = {
  readonly model: string;
  /** null when EMBEDDING_MODEL is unset: `embed` then throws LlmError('not_configured'). */
  readonly embeddingModel: string | null;
  /** Where callers log failures they recover from (the process logger). */
  readonly log: FastifyBaseLogger;
  /** The assistant's reply text; with `json`, the endpoint is asked for a JSON object (response_format). */
  chat(messages: ChatMessage[], opts?: { json?: boolean; maxTokens?: number }): Promise<string>;
  /** One vector per text, in order, all of one dimension; sent in batches of EMBED_BATCH texts per call. */
  embed(texts: string[], opts?: { signal?: AbortSignal }): Promise<number[][]>;
};

/** Texts per embeddings call: well under every provider's limit (OpenAI takes 2,048), small enough to retry. */
export const EMBED_BATCH = 64;
/**
 * Characters of one text sent for embedding. A chunk is ~1,000 characters, so this only cuts a very long library
 * answer; ~8,000 characters stay under the 8,192-token input limit of common embedding models.
 */
export const EMBED_MAX_CHARS = 8000;
const MAX_DIMENSION = 16_384;

const ChatReply = z.object({
  choices: z.array(z.object({ message: z.object({ content: z.string().nullable().optional() }) })).min(1, 'no choices'),
});

const EmbeddingsReply = z.object({
  data: z.array(
    z.object({
      index: z.number().int().min(0).optional(),
      embedding: z.array(z.number().finite()).min(1, 'empty vector').max(MAX_DIMENSION, 'vector too long'),
    }),
  ),
});

function describeZod(err: z.ZodError): string {
  const first = err.issues[0];
  return first ? `${first.path.join('.') || 'reply'}: ${first.message}` : 'unexpected reply';
}

/** Turns whatever the SDK threw into an LlmError with a reason worth logging. */
function toLlmError(err: unknown): LlmError {
  if (err instanceof LlmError) return err;
  if (err instanceof APIConnectionTimeoutError)
    return new LlmError('timeout', 'the endpoint did not answer in time', undefined, { cause: err });
  if (err instanceof APIUserAbortError)
    return new LlmError('timeout', 'the request was aborted', undefined, { cause: err });
  if (err instanceof APIConnectionError)
    return new LlmError('network', `could not reach the endpoint (${err.message})`, undefined, { cause: err });
  if (err instanceof APIError)
    return new LlmError('http', `the endpoint answered HTTP ${err.status ?? '?'}`, err.status, { cause: err });
  if (err instanceof SyntaxError)
    return new LlmError('garbage', 'the reply was not valid JSON', undefined, { cause: err });
  return new LlmError('network', err instanceof Error ? err.message : String(err), undefined, { cause: err });
}

/** Checks one embeddings reply for `count` texts; returns the vectors in input order. */
export function parseEmbeddings(reply: unknown, count: number, expectedDimension: number | null): number[][] {
  const parsed = EmbeddingsReply.safeParse(reply);
  if (!parsed.success) throw new LlmError('garbage', `embeddings reply: ${describeZod(parsed.error)}`);
  const data = parsed.data.data;
  if (data.length !== count)
    throw new LlmError('garbage', `embeddings reply has ${data.length} vectors for ${count} texts`);
  let ordered = data;
  if (data.every((d) => d.index !== undefined)) {
    ordered = [...data].sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
    if (ordered.some((d, i) => d.index !== i)) throw new LlmError('garbage', 'embeddings reply has wrong indexes');
  }
  const dimension = expectedDimension ?? ordered[0]?.embedding.length ?? 0;
  const vectors: number[][] = [];
  for (const d of ordered) {
    if (d.embedding.length !== dimension)
      throw new LlmError(
        'garbage',
        `embeddings reply has a ${d.embedding.length}-dimension vector, expected ${dimension}`,
      );
    if (d.embedding.every((x) => x === 0)) throw new LlmError('garbage', 'embeddings reply has a zero vector');
    vectors.push(d.embedding);
  }
  return vectors;
}

/** Checks a chat completion; returns its non-empty content. */
export function parseChat(reply: unknown): string {
  const parsed = ChatReply.safeParse(reply);
  if (!parsed.success) throw new LlmError('garbage', `chat reply: ${describeZod(parsed.error)}`);
  const content = parsed.data.choices[0]?.message.content ?? '';
  if (!content.trim()) throw new LlmError('empty', 'the chat reply was empty');
  return content;
}

/** The client for LLM_* settings, or null when LLM_BASE_URL is unset (the engine then works without one). */
export function createLlmClient(config: LlmConfig | null, log: FastifyBaseLogger): LlmClient | null {
  if (!config) return null;
  const sdk = new OpenAI({
    baseURL: config.baseUrl,
    // Local servers (Ollama, vLLM) need no key, but the SDK insists on one; they ignore the header.
    apiKey: config.apiKey ?? 'no-key',
    timeout: config.timeoutMs,
    maxRetries: config.maxRetries,
    logLevel: 'warn',
    logger: {
      error: (message, ...rest) => log.warn({ details: rest }, `openai sdk: ${message}`),
      warn: (message, ...rest) => log.warn({ details: rest }, `openai sdk: ${message}`),
      info: (message, ...rest) => log.info({ details: rest }, `openai sdk: ${message}`),
      debug: (message, ...rest) => log.debug({ details: rest }, `openai sdk: ${message}`),
    },
  });
  // The model's dimension, learnt from its first reply: a reply of another size afterwards is garbage.
  let dimension: number | null = null;
  const embeddingModel = config.embeddingModel;

  return {
    model: config.model,
    embeddingModel,
    log,
    async chat(messages, opts = {}) {
      let reply: unknown;
      try {
        reply = await sdk.chat.completions.create({
          model: config.model,
          messages,
          temperature: 0,
          max_tokens: opts.maxTokens ?? 800,
          ...(opts.json && { response_format: { type: 'json_object' as const } }),
        });
      } catch (err) {
        throw toLlmError(err);
      }
      return parseChat(reply);
    },
    async embed(texts, opts = {}) {
      if (!embeddingModel) throw new LlmError('not_configured', 'EMBEDDING_MODEL is not set');
      const out: number[][] = [];
      for (let i = 0; i < texts.length; i += EMBED_BATCH) {
        // Empty input is refused by most providers; a single space embeds as "nothing" instead.
        const batch = texts.slice(i, i + EMBED_BATCH).map((t) => t.slice(0, EMBED_MAX_CHARS).trim() || ' ');
        let reply: unknown;
        // The SDK never removes the listener it adds to a caller's signal: give it a signal of its own per call,
        // linked to the caller's, so a long-lived one (the worker's) does not collect a listener per request.
        const call = new AbortController();
        const abort = () => call.abort();
        opts.signal?.addEventListener('abort', abort, { once: true });
        if (opts.signal?.aborted) call.abort();
        try {
          // 'float' explicitly: the SDK's default (base64) is not understood by every compatible server.
          reply = await sdk.embeddings.create(
            { model: embeddingModel, input: batch, encoding_format: 'float' },
            { signal: call.signal },
          );
        } catch (err) {
          throw toLlmError(err);
        } finally {
          opts.signal?.removeEventListener('abort', abort);
        }
        const vectors = parseEmbeddings(reply, batch.length, dimension);
        dimension ??= vectors[0]?.length ?? null;
        out.push(...vectors);
      }
      return out;
    },
  };
}
