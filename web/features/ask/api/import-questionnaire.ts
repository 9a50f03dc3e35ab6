import { ImportResult } from '../../../../common/schemas/assessments';
import { api } from '../../../lib/api';

/** PRODUCT §11: what the Ask screen's toast says when the server gives no reason of its own. */
export const BULK_IMPORT_FAILED = 'Failed to start bulk assessment processing';

export interface ImportQuestionnaireInput {
  file: File;
  customerName: string;
  /** The chat the assessment belongs to. */
  sessionId: string;
}

/**
 * PRODUCT §9 POST /api/import-qa: the Bulk Import dialog's customer and file become a new assessment, answered in the
 * background. Refusals (no questions found, a corrupt file) come back as the server's sentence.
 */
export function importQuestionnaire({
  file,
  customerName,
  sessionId,
}: ImportQuestionnaireInput): Promise<ImportResult> {
  const form = new FormData();
  form.append('customerName', customerName);
  form.append('sessionId', sessionId);
  form.append('file', file, file.name);
  return api.postForm('/api/import-qa', ImportResult, form, { errorFallback: BULK_IMPORT_FAILED });
}
