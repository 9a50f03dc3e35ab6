import type { TenantCtx } from '../../context';
import type { AppDeps } from '../../deps';
import { findEvidence } from '../../engine/answer';
import type { EvidenceResponse } from '../../../common/schemas/evidence';
import { withinQaLimits } from '../qa/limits';
import { loadQuestion } from './review';

/**
 * What the library and the documents hold for one question (or for words a person typed instead), for someone
 * writing its answer to quote or cite. It runs the engine's retrieval like a question asked in Ask, so it counts
 * against the same per-user and per-organization question limits.
 */
export async function questionEvidence(
  deps: AppDeps,
  ctx: TenantCtx,
  batchId: string,
  qid: string,
  q: string | undefined,
): Promise<EvidenceResponse> {
  const row = await loadQuestion(ctx, batchId, qid);
  const query = q && q !== '' ? q : row.question;
  const found = await withinQaLimits(ctx, deps.config.qa, 1, () => findEvidence(ctx, query, deps));
  return { query, ...found };
}
