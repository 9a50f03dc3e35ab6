import { call, UnexpectedReply, type Session } from './http';
import type { ErrorLog } from './load';
import { questionnaireXlsx } from '../fixtures';
import { questionnaireCsv } from './questions';

export type AssessmentRun = {
  questions: number;
  /** From the start of the upload until the batch stopped being `processing`. */
  seconds: number;
  perSecond: number;
  /** Answer types (or statuses of unanswered questions) and how many questions got each. */
  mix: Record<string, number>;
};

/** Creates an assessment from an XLSX upload (`/import`) or the specification's CSV call (`/import-csv`); returns its id. */
async function createAssessment(as: Session, n: number, label: string, format: 'xlsx' | 'csv'): Promise<string> {
  if (format === 'csv') {
    const res = await call<{ id: string }>(as, 'POST', '/api/assessments/import-csv', {
      body: { csvContent: questionnaireCsv(n, label), name: `Scale ${label}` },
      expect: 201,
    });
    return res.data.id;
  }
  const form = new FormData();
  form.append('name', `Scale ${label}`);
  form.append('file', new Blob([await questionnaireXlsx(n, label)]), 'questionnaire.xlsx');
  const res = await call<{ id: string }>(as, 'POST', '/api/assessments/import', { form, expect: 201 });
  return res.data.id;
}

/**
 * Imports an `n`-question questionnaire and waits until the workers answered it, polling the batch's status
 * five times a second like a browser tab. A failed poll is recorded as an error and polling goes on.
 */
export async function runAssessment(
  as: Session,
  n: number,
  label: string,
  errors: ErrorLog,
  format: 'xlsx' | 'csv' = 'xlsx',
): Promise<AssessmentRun> {
  const t0 = performance.now();
  const id = await createAssessment(as, n, label, format);
  const deadline = Date.now() + 15 * 60_000;
  const poll = `/api/assessments/${id}/batch`;
  for (;;) {
    try {
      const b = await call<{ status: string }>(as, 'GET', poll);
      if (b.status !== 200) errors.record(`GET ${as.base}${poll}`, b.status, JSON.stringify(b.data));
      else if (b.data.status !== 'processing') break;
    } catch (err) {
      errors.record(`GET ${as.base}${poll}`, 0, err instanceof Error ? err.message : String(err));
    }
    if (Date.now() > deadline) throw new Error(`assessment ${label} still processing after 15 minutes`);
    await new Promise((r) => setTimeout(r, 200));
  }
  const seconds = (performance.now() - t0) / 1000;
  const detail = await call<{ questions: Array<{ answerType: string | null; status: string }> }>(
    as,
    'GET',
    `/api/assessments/${id}`,
    { expect: 200 },
  );
  if (detail.data.questions.length !== n) {
    throw new UnexpectedReply(`assessment ${label} has ${detail.data.questions.length} questions, not ${n}`);
  }
  const mix: Record<string, number> = {};
  for (const q of detail.data.questions) {
    const key = q.answerType ?? q.status;
    mix[key] = (mix[key] ?? 0) + 1;
  }
  return { questions: n, seconds, perSecond: n / seconds, mix };
}
