import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config';
import type { Db } from './db/client';
import type { LlmClient } from './llm/client';
import type { Embedder } from './embedding/embedder';
import type { Mailer } from './mail/mailer';
import type { ObjectStorage } from './storage/types';

/** What the app is built from; tests build it with a fresh database and their own config. */
export type AppDeps = {
  db: Db;
  config: Config;
  mailer: Mailer;
  log: FastifyBaseLogger;
  storage: ObjectStorage;
  /** Nudges this process's background worker (absent when none runs here: it polls on its own). */
  wakeWorker?: () => void;
  /** The OpenAI-compatible endpoint (server/llm/), absent or null when LLM_BASE_URL is unset. */
  llm?: LlmClient | null;
  /** Retrieval by meaning (server/embedding/): the built-in model or the endpoint; null: lexical only. */
  embedder?: Embedder | null;
};

declare module 'fastify' {
  interface FastifyInstance {
    deps: AppDeps;
  }
}
