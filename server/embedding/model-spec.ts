import path from 'node:path';
import { z } from 'zod';
import models from './models.json' with { type: 'json' };

/**
 * The embedding models Verity knows, as data (models.json): where each file can be had and the SHA-256 it must
 * have. Pinned hashes are what makes "obtained from whatever source answered" safe: a file that differs by one
 * byte from the pinned one is never used.
 */
const FileSpec = z.object({
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  bytes: z.number().int().positive(),
  /** Path under the Hugging Face Hub's URL (`{repo}/resolve/{revision}/{file}`). */
  huggingface: z.string().min(1),
  /** The same file inside the Maven artifact's jar. */
  jarEntry: z.string().min(1),
});

const ModelSpec = z.object({
  title: z.string(),
  licence: z.string(),
  dimension: z.number().int().positive(),
  pooling: z.enum(['mean', 'cls']),
  /** Tokens per text, [CLS] and [SEP] included; longer texts are cut. */
  maxTokens: z.number().int().min(8),
  /** Prepended to questions / to entries and chunks (e5 and bge want one; MiniLM none). */
  queryPrefix: z.string(),
  passagePrefix: z.string(),
  files: z.object({ 'model.onnx': FileSpec, 'tokenizer.json': FileSpec }),
  maven: z.object({
    group: z.string(),
    artifact: z.string(),
    version: z.string(),
    sha256: z.string().regex(/^[0-9a-f]{64}$/),
    bytes: z.number().int().positive(),
  }),
});

export type ModelFileSpec = z.infer<typeof FileSpec>;
export type ModelSpec = z.infer<typeof ModelSpec> & { id: string };
export type ModelFileName = keyof ModelSpec['files'];
export const MODEL_FILE_NAMES: ModelFileName[] = ['model.onnx', 'tokenizer.json'];

const Catalog = z.object({ default: z.string(), models: z.record(z.string(), ModelSpec) });
const catalog = Catalog.parse(models);

/** The model Verity uses by default (the one `npm run models` obtains). */
export function defaultModel(): ModelSpec {
  const spec = catalog.models[catalog.default];
  if (!spec) throw new Error(`models.json: default model ${catalog.default} is not listed`);
  return { ...spec, id: catalog.default };
}

/** Where a model's files live: MODELS_DIR/<model id>/<file>. */
export function modelDir(modelsDir: string, spec: Pick<ModelSpec, 'id'>): string {
  return path.join(modelsDir, spec.id);
}
