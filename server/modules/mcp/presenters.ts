import type { AnswerSource } from '../../../common/schemas/qa';
import type { AssessmentQuestionView, BatchView } from '../../../common/schemas/assessments';
import type { GetAssessmentAnswersOutput, McpAssessment, McpSource } from '../../../common/schemas/mcp';

/*
 * What the MCP tools give back: structured content, checked against each tool's output schema. Its text form is the
 * same object as JSON (run-tool.ts), so stored text always arrives quoted.
 */

export function presentSource(s: AnswerSource): McpSource {
  const library = s.type === 'library';
  return {
    type: s.type,
    id: (library ? s.canonicalAnswerId : s.documentId) ?? null,
    title: (library ? s.question : s.name) ?? (library ? 'Library entry' : 'Document'),
    pageNumber: s.pageNumber ?? null,
    section: s.section ?? null,
    snippet: s.snippet ?? null,
    score: s.score,
  };
}

export function presentAssessment(b: BatchView): McpAssessment {
  const reviewed = b.reviewCounts.approved + b.reviewCounts.not_applicable;
  return {
    id: b.id,
    name: b.name,
    customerName: b.metadata.customerName,
    status: b.status,
    error: b.error,
    totalQuestions: b.totalQuestions,
    answeredQuestions: Math.max(0, b.processedQuestions - b.failedQuestions),
    failedQuestions: b.failedQuestions,
    needsReviewQuestions: b.needsReviewQuestions,
    reviewCounts: b.reviewCounts,
    percentReviewed: b.totalQuestions > 0 ? Math.floor((reviewed * 100) / b.totalQuestions) : 0,
    dueOn: b.dueOn,
    overdue: b.overdue,
    createdAt: b.createdAt,
    completedAt: b.completedAt,
  };
}

export function presentAssessmentQuestion(q: AssessmentQuestionView): GetAssessmentAnswersOutput['questions'][number] {
  return {
    id: q.id,
    number: q.orderIndex,
    controlId: q.controlId,
    section: q.section,
    question: q.question,
    answer: q.answer,
    answerType: q.answerType,
    confidence: q.confidence,
    status: q.status,
    reviewState: q.reviewState,
    edited: q.edited,
    sources: q.sources.map(presentSource),
  };
}
