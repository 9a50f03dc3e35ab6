import { useCallback, useMemo } from 'react';
import type { BatchView } from '../../../common/schemas/assessments';
import { toast, toastError } from '../../components/ui/use-toast';
import { ApiRequestError } from '../../lib/api';
import { useDeleteAssessment } from './api/delete-assessment';
import { useExportAssessment, type ExportFormat, type ExportInput } from './api/export-assessment';

export type ExportOptions = Omit<ExportInput, 'batch' | 'format'>;

export interface AssessmentActions {
  exportAs: (batch: BatchView, format: ExportFormat, options?: ExportOptions) => void;
  remove: (batch: BatchView, onDone?: () => void) => void;
  /** The assessment an export is running for, so its card or header can show it. */
  exportingId: string | null;
  deleting: boolean;
}

/** Export and delete with PRODUCT §11's toasts, shared by the list and the detail page. */
export function useAssessmentActions(): AssessmentActions {
  const exportMutation = useExportAssessment();
  const deleteMutation = useDeleteAssessment();
  const { mutate: exportOne } = exportMutation;
  const { mutate: deleteOne } = deleteMutation;

  const exportAs = useCallback(
    (batch: BatchView, format: ExportFormat, options: ExportOptions = {}) =>
      exportOne(
        { batch, format, ...options },
        {
          onSuccess: () => toast({ title: 'Export successful', variant: 'success' }),
          // PRODUCT §11: 'Export failed' with a fixed sentence; the server's reason goes to the console.
          onError: (error) => {
            console.warn('Assessment export failed', error);
            // The customer's own file cannot be filled: the server says why, and the new workbook is the way out.
            const unfillable = error instanceof ApiRequestError && error.status === 422;
            toast({
              title: 'Export failed',
              description: unfillable
                ? `${error.message} Choose "Export Excel (new workbook)" for a workbook with the questions and answers.`
                : 'Unable to export assessment. Please try again.',
              variant: 'destructive',
            });
          },
        },
      ),
    [exportOne],
  );

  const remove = useCallback(
    (batch: BatchView, onDone?: () => void) =>
      deleteOne(batch.id, {
        onSuccess: () => {
          toast({ title: 'Assessment deleted', variant: 'success' });
          onDone?.();
        },
        onError: (error) => toastError(error, 'Delete failed', 'Delete failed'),
      }),
    [deleteOne],
  );

  const exportingId = exportMutation.isPending ? exportMutation.variables.batch.id : null;
  const deleting = deleteMutation.isPending;
  return useMemo(() => ({ exportAs, remove, exportingId, deleting }), [exportAs, remove, exportingId, deleting]);
}
