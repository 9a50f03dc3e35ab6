import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ImportResult, type PrefilledAnswers, type SheetMapping } from '../../../../common/schemas/assessments';
import { api } from '../../../lib/api';
import { invalidateAssessments } from '../../../app/invalidate';

export interface ImportAssessmentInput {
  file: File;
  name: string;
  customerName: string;
  assessmentType: string;
  description: string;
  /** The preview's mapping when the user changed a column; without it the server uses what it detected. */
  mapping?: SheetMapping[];
  /** What the filled file does with answers the customer already gave; the server keeps them when left out. */
  prefilledAnswers?: PrefilledAnswers;
}

/** Creates an assessment from a questionnaire file; the worker answers its questions in the background. */
export function importAssessment(input: ImportAssessmentInput): Promise<ImportResult> {
  const form = new FormData();
  form.append('name', input.name.trim());
  // Empty optional fields are left out rather than sent as '' so the server stores null.
  if (input.customerName.trim()) form.append('customerName', input.customerName.trim());
  if (input.assessmentType.trim()) form.append('assessmentType', input.assessmentType.trim());
  if (input.description.trim()) form.append('description', input.description.trim());
  if (input.mapping) form.append('mapping', JSON.stringify(input.mapping));
  if (input.prefilledAnswers) form.append('prefilledAnswers', input.prefilledAnswers);
  form.append('file', input.file, input.file.name);
  return api.postForm('/api/assessments/import', ImportResult, form, {
    errorFallback: 'Failed to create the assessment',
  });
}

export function useImportAssessment() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: importAssessment, onSuccess: () => invalidateAssessments(queryClient) });
}
