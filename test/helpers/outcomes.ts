import { assessmentBatches, assessmentQuestions, reviewOutcomes } from '../../server/db/schema';
import type { TestApp } from './app';
import type { Tenant } from './factories';

export type PlantedOutcome = {
  confidence: number;
  outcome: string;
  answerType?: string;
  /** The taxonomy topic; null as a back-filled row has it; 'mfa' when not given. */
  topic?: string | null;
  /** When the review ended (ISO); now when not given. */
  at?: string;
};

/**
 * Reviewed machine answers written straight into the database (an assessment of one question each, reviewed by the
 * tenant's manager): the outcomes a workspace builds up over months, without months of reviews. Returns the batch.
 */
export async function plantOutcomes(app: TestApp, t: Tenant, seeds: readonly PlantedOutcome[]): Promise<string> {
  const db = app.database.db;
  const [batch] = await db
    .insert(assessmentBatches)
    .values({
      organizationId: t.organizationId,
      workspaceId: t.workspaceId,
      name: 'Seeded',
      status: 'completed',
      totalQuestions: seeds.length,
      metadata: { sourceFile: null, customerName: null, assessmentType: null },
      sourceFormat: 'csv',
      mapping: [],
    })
    .returning({ id: assessmentBatches.id });
  if (!batch) throw new Error('no batch');
  const questions = await db
    .insert(assessmentQuestions)
    .values(
      seeds.map((_, i) => ({
        batchId: batch.id,
        organizationId: t.organizationId,
        workspaceId: t.workspaceId,
        orderIndex: i,
        question: `Seeded question ${i}?`,
        status: 'completed',
      })),
    )
    .returning({ id: assessmentQuestions.id });
  await db.insert(reviewOutcomes).values(
    seeds.map((s, i) => ({
      organizationId: t.organizationId,
      workspaceId: t.workspaceId,
      batchId: batch.id,
      questionId: questions[i]?.id ?? '',
      outcome: s.outcome,
      editDistance: s.outcome === 'unchanged' ? 0 : null,
      confidence: s.confidence,
      answerType: s.answerType ?? 'canonical',
      topic: s.topic === undefined ? 'mfa' : s.topic,
      reviewedBy: t.users.manager.id,
      reviewedAt: s.at ? new Date(s.at) : new Date(),
    })),
  );
  return batch.id;
}
