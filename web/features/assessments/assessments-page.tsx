import { useMemo, useState } from 'react';
import { ClipboardList, FileUp } from 'lucide-react';
import type { BatchView } from '../../../common/schemas/assessments';
import { Button } from '../../components/ui/button';
import { EmptyState } from '../../components/ui/empty-state';
import { LoadError } from '../../components/ui/load-error';
import { Spinner } from '../../components/ui/spinner';
import { formatNumber } from '../../lib/format';
import { useCan } from '../../app/me/use-can';
import type { ExportFormat } from './api/export-assessment';
import { useAssessments } from './api/get-assessments';
import { AssessmentCard, type AssessmentCardHandlers } from './components/assessment-card';
import { DeleteAssessmentDialog } from './components/delete-assessment-dialog';
import { ExportDialog } from './components/export-dialog';
import { ImportAssessmentDialog } from './components/import-assessment-dialog';
import { useAssessmentActions } from './use-assessment-actions';

/** PRODUCT "Bulk Assessments (/assessments)": the workspace's questionnaires, their progress and their exports. */
export function AssessmentsPage() {
  const canRun = useCan('assessments:run');
  const canDelete = useCan('assessments:delete');
  const query = useAssessments();
  const actions = useAssessmentActions();
  const [importOpen, setImportOpen] = useState(false);
  const [deleting, setDeleting] = useState<BatchView | null>(null);
  // The export dialog says what nobody reviewed before the file goes out, from the list as from the detail page.
  const [exporting, setExporting] = useState<{ batch: BatchView; format: ExportFormat } | null>(null);

  const handlers = useMemo<AssessmentCardHandlers>(
    () => ({ onExport: (batch, format) => setExporting({ batch, format }), onDelete: setDeleting }),
    [],
  );

  const batches = query.data ?? [];
  const processing = batches.filter((batch) => batch.status === 'processing').length;

  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <header className="flex flex-wrap items-start justify-between gap-3 border-b px-8 pt-8 pb-4">
        <div className="min-w-0">
          <h1 className="text-2xl font-semibold tracking-tight">Bulk Assessments</h1>
          <p className="mt-1 text-sm text-muted-foreground">
            Customer security questionnaires, answered in the background from your library and documents.
          </p>
        </div>
        {canRun && (
          <Button onClick={() => setImportOpen(true)}>
            <FileUp aria-hidden />
            Import Assessment
          </Button>
        )}
      </header>

      <div className="min-h-0 flex-1 overflow-y-auto bg-surface/60 px-8 py-6">
        {query.isPending ? (
          <div className="flex justify-center py-16">
            <Spinner className="size-6" label="Loading assessments" />
          </div>
        ) : query.isError && batches.length === 0 ? (
          <LoadError
            error={query.error}
            fallback="Could not load the assessments."
            onRetry={() => void query.refetch()}
          />
        ) : batches.length === 0 ? (
          <EmptyState
            icon={<ClipboardList aria-hidden />}
            title="No assessments yet"
            description={
              canRun
                ? 'Import a customer questionnaire (CSV, Excel or Word). Verity answers every question and gives you the file back filled in.'
                : 'Contributors, managers and admins can import customer questionnaires. They will be listed here.'
            }
            actions={
              canRun && (
                <Button onClick={() => setImportOpen(true)}>
                  <FileUp aria-hidden />
                  Import Assessment
                </Button>
              )
            }
          />
        ) : (
          <>
            <p className="mb-3 text-sm text-muted-foreground" aria-live="polite">
              {formatNumber(batches.length)} {batches.length === 1 ? 'assessment' : 'assessments'}
              {processing > 0 && ` · ${formatNumber(processing)} processing`}
            </p>
            <ul className="grid gap-3" aria-label="Assessments">
              {batches.map((batch) => (
                <li key={batch.id}>
                  <AssessmentCard
                    batch={batch}
                    canDelete={canDelete}
                    exporting={actions.exportingId === batch.id}
                    handlers={handlers}
                  />
                </li>
              ))}
            </ul>
          </>
        )}
      </div>

      {canRun && <ImportAssessmentDialog open={importOpen} onOpenChange={setImportOpen} />}
      {exporting && (
        <ExportDialog
          key={exporting.batch.id}
          batch={exporting.batch}
          open
          onOpenChange={(open) => !open && setExporting(null)}
          initialChoice={exporting.format}
          onExport={(format, options) => actions.exportAs(exporting.batch, format, options)}
        />
      )}
      <DeleteAssessmentDialog
        batch={deleting}
        onCancel={() => setDeleting(null)}
        onConfirm={(batch) => {
          setDeleting(null);
          actions.remove(batch);
        }}
      />
    </div>
  );
}
