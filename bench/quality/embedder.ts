import type { FastifyBaseLogger } from 'fastify';
import type { EmbeddingConfig } from '../../server/config';
import { loadBuiltInEmbedder, loadLocalEmbedder, type Embedder } from '../../server/embedding/embedder';

/**
 * The embedding model a quality run measures: the one the product uses (Verity's own, `MODEL=own`, the default) or
 * the published one it falls back to (`MODEL=published`), so the two can be compared on the same folds.
 */
export async function qualityEmbedder(config: EmbeddingConfig, log: FastifyBaseLogger): Promise<Embedder> {
  const which = process.env.MODEL ?? 'own';
  if (which !== 'own' && which !== 'published') throw new Error(`MODEL must be own or published, not ${which}`);
  const embedder =
    which === 'own' ? await loadBuiltInEmbedder(config, log) : await loadLocalEmbedder(config.modelsDir, log);
  if (!embedder) throw new Error('no embedding model could be loaded: run `npm run models` first');
  if (which === 'own' && embedder.notice) throw new Error(embedder.notice);
  console.log(`embedding model: ${embedder.model}`);
  return embedder;
}
