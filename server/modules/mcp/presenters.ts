import type { AnswerSource } from '../../../common/schemas/qa';
import type { AssessmentQuestionView, BatchView } from '../../../common/schemas/assessments';
import type {
  AskQuestionOutput,
  GetAssessmentAnswersOutput,
  McpAssessment,
  McpSource,
  SearchLibraryOutput,
} from '../../../common/schemas/mcp';

/*
 * What the MCP tools give back: structured content (checked against each tool's output schema) and the same facts
 * as plain text, for clients that show only text to the model or the person.
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

function sourceLine(s: McpSource, i: number): string {
  const where = [s.pageNumber != null && `page ${s.pageNumber}`, s.section].filter(Boolean).join(', ');
  const kind = s.type === 'library' ? 'Library entry' : 'Document';
  return `${i + 1}. ${kind} "${s.title}"${where ? ` (${where})` : ''}${s.id ? ` [id ${s.id}]` : ''}`;
}

const TYPE_LABELS: Record<AskQuestionOutput['answerType'], string> = {
  canonical: 'approved library answer',
  draft: 'draft library answer, not approved yet',
  generated: 'generated from documents',
  unknown: 'needs review: nothing in the workspace answers this',
};

export function askText(a: AskQuestionOutput): string {
  const lines = [`Answer (${TYPE_LABELS[a.answerType]}; confidence ${a.confidence}%):`, a.answer];
  if (a.note) lines.push('', `Note: ${a.note}`);
  if (a.sources.length > 0) lines.push('', 'Sources:', ...a.sources.map(sourceLine));
  return lines.join('\n');
}

export function searchText(r: Omit<SearchLibraryOutput, 'workspaceId'>): string {
  if (r.entries.length === 0) return 'No library entry matches these words.';
  const head = `${r.total} entr${r.total === 1 ? 'y matches' : 'ies match'}; the best ${r.entries.length}:`;
  const items = r.entries.map(
    (e, i) =>
      `${i + 1}. [${e.status}${e.tags.length ? `; ${e.tags.join(', ')}` : ''}] ${e.question} [id ${e.id}]\n   ${e.answer}`,
  );
  return [head, ...items].join('\n');
}

export function assessmentLine(a: McpAssessment): string {
  const c = a.reviewCounts;
  const progress =
    a.status === 'processing'
      ? `answering: ${a.answeredQuestions + a.failedQuestions}/${a.totalQuestions}`
      : `${a.status}`;
  return (
    `${a.name}${a.customerName ? ` (${a.customerName})` : ''} [id ${a.id}]: ${a.totalQuestions} questions, ${progress}; ` +
    `${c.approved} approved, ${c.in_review} in review, ${c.drafted} drafted, ${c.needs_answer} need an answer, ` +
    `${c.not_applicable} not applicable (${a.percentReviewed}% reviewed)` +
    (a.dueOn ? `; due ${a.dueOn}${a.overdue ? ' (overdue)' : ''}` : '')
  );
}

export function answersText(r: GetAssessmentAnswersOutput): string {
  const head = `${assessmentLine(r.assessment)}\nShowing ${r.questions.length} of ${r.total} questions from ${r.offset}.`;
  const items = r.questions.map((q) => {
    const label = q.controlId ? `${q.number} (${q.controlId})` : `${q.number}`;
    const answer =
      q.answer === null
        ? '(no answer yet)'
        : `${q.answer}\n   [${q.answerType ?? 'person'}${q.confidence !== null ? `, ${q.confidence}%` : ''}; ${q.reviewState}]`;
    return `${label}. ${q.question}\n   ${answer}`;
  });
  return [head, ...items].join('\n');
}
