import type { EngineStatusView } from '../../../common/schemas/admin';
import type { AppDeps } from '../../deps';

/**
 * Whether answers use the embedding model: without it (not installed, or refused its checksum) Verity still
 * answers, by keywords only, and the web app shows admins a notice saying how to fix it. The same notice carries
 * the sentence of an embedder that is not the intended one (Verity's own model refused, the published one used).
 */
export function engineStatus(deps: Pick<AppDeps, 'embedder' | 'config'>): EngineStatusView {
  const { embedder, config } = deps;
  return {
    semantic: Boolean(embedder),
    provider: embedder ? embedder.kind : config.embedding.provider,
    model: embedder?.model ?? null,
    notice: embedder?.notice ?? null,
  };
}
