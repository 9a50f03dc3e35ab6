import { useCallback, useMemo } from 'react';
import type { DocumentView } from '../../../common/schemas/documents';
import { toast, toastError } from '../../components/ui/use-toast';
import { formatNumber } from '../../lib/format';
import { useBulkDeleteDocuments } from './api/bulk-delete-documents';
import { useDeleteDocument } from './api/delete-document';
import { useDownloadDocument } from './api/download-document';
import { useExportDocuments } from './api/export-documents';

export interface DocumentActions {
  download: (document: DocumentView) => void;
  remove: (document: DocumentView, onDone: () => void) => void;
  removeMany: (ids: string[], onDone: () => void) => void;
  exportMany: (ids: string[]) => void;
  /** The document a download is running for, so its card can show it. */
  downloadingId: string | null;
  deleting: boolean;
  exporting: boolean;
}

/** The Document Library's actions with PRODUCT §11's toasts. */
export function useDocumentActions(): DocumentActions {
  // mutate functions are stable; the mutation objects are not, so callbacks depend on the functions only.
  const downloadMutation = useDownloadDocument();
  const deleteMutation = useDeleteDocument();
  const bulkDeleteMutation = useBulkDeleteDocuments();
  const exportMutation = useExportDocuments();
  const { mutate: downloadOne } = downloadMutation;
  const { mutate: deleteOne } = deleteMutation;
  const { mutate: deleteMany } = bulkDeleteMutation;
  const { mutate: exportSelected } = exportMutation;

  const download = useCallback(
    (document: DocumentView) =>
      downloadOne(document, { onError: (error) => toastError(error, 'Download failed', 'Download failed') }),
    [downloadOne],
  );

  const remove = useCallback(
    (document: DocumentView, onDone: () => void) =>
      deleteOne(document.id, {
        onSuccess: () => {
          toast({ title: 'Document deleted successfully', variant: 'success' });
          onDone();
        },
        onError: (error) => toastError(error, 'Delete failed', 'Delete failed'),
      }),
    [deleteOne],
  );

  const removeMany = useCallback(
    (ids: string[], onDone: () => void) =>
      deleteMany(ids, {
        onSuccess: (deleted) => {
          const noun = deleted === 1 ? 'document' : 'documents';
          toast({ title: `${formatNumber(deleted)} ${noun} deleted successfully`, variant: 'success' });
          onDone();
        },
        onError: (error) => toastError(error, 'Delete failed', 'Delete failed'),
      }),
    [deleteMany],
  );

  const exportMany = useCallback(
    (ids: string[]) =>
      exportSelected(ids, {
        onSuccess: () => toast({ title: 'Documents exported successfully', variant: 'success' }),
        onError: (error) => toastError(error, 'Failed to export documents', 'Export failed'),
      }),
    [exportSelected],
  );

  const downloadingId = downloadMutation.isPending ? downloadMutation.variables.id : null;
  const deleting = deleteMutation.isPending || bulkDeleteMutation.isPending;
  const exporting = exportMutation.isPending;

  return useMemo(
    () => ({ download, remove, removeMany, exportMany, downloadingId, deleting, exporting }),
    [download, remove, removeMany, exportMany, downloadingId, deleting, exporting],
  );
}
