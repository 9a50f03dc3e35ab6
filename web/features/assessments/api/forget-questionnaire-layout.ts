import { useMutation } from '@tanstack/react-query';
import { SuccessResponse } from '../../../../common/schemas/errors';
import { api } from '../../../lib/api';

/**
 * Forgets a layout the organization remembered from an earlier import: the next preview of a file of that layout
 * reads it by detection again.
 */
export async function forgetQuestionnaireLayout(id: string): Promise<void> {
  await api.del(`/api/questionnaire-layouts/${encodeURIComponent(id)}`, SuccessResponse, {
    errorFallback: 'The remembered layout could not be forgotten',
  });
}

/** Nothing cached holds a layout: the dialog previews the file again once it is forgotten. */
export function useForgetQuestionnaireLayout() {
  return useMutation({ mutationFn: forgetQuestionnaireLayout });
}
