import type { canonicalAnswers } from '../../db/schema';
import type { AnswerStatus, CanonicalAnswerView, Person } from '../../../common/schemas/knowledge';
import { needsReverification, verifyBy } from './freshness';

type Row = typeof canonicalAnswers.$inferSelect;
type MaybePerson = { id: string | null; username: string | null } | null;

/** An entry joined with the names of the people it points at (see `answerColumns` in queries.ts). */
export type AnswerRecord = Omit<Row, 'searchVector' | 'embedding' | 'embeddingModel'> & {
  owner: MaybePerson;
  creator: MaybePerson;
  verifier: MaybePerson;
};

function person(p: MaybePerson): Person | null {
  return p?.id && p.username ? { id: p.id, username: p.username } : null;
}

export function presentAnswer(r: AnswerRecord): CanonicalAnswerView {
  const due = verifyBy(r);
  return {
    id: r.id,
    workspaceId: r.workspaceId,
    question: r.question,
    answer: r.answer,
    tags: r.tags,
    status: r.status as AnswerStatus,
    confidence: r.confidence,
    source: r.source,
    owner: person(r.owner),
    createdBy: person(r.creator),
    lastVerifiedAt: r.lastVerifiedAt ? r.lastVerifiedAt.toISOString() : null,
    lastVerifiedBy: person(r.verifier),
    reviewIntervalDays: r.reviewIntervalDays,
    verifyBy: due ? due.toISOString() : null,
    needsReverification: needsReverification(r),
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}
