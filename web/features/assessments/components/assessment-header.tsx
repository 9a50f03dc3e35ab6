import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { ArrowLeft, Building2, CalendarCheck, CalendarPlus, FileDown, FileText, RotateCcw, Tag } from 'lucide-react';
import type { ReviewState } from '../../../../common/review-states';
import type { AssessmentQuestionView, BatchView } from '../../../../common/schemas/assessments';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { formatDateTime, formatNumber } from '../../../lib/format';
import { paths } from '../../../paths';
import type { ExportFormat } from '../api/export-assessment';
import type { ExportOptions } from '../use-assessment-actions';
import { BatchStatusBadge } from './assessment-status';
import { DueDateControl } from './due-date-control';
import { ExportDialog } from './export-dialog';
import { ReviewCounts } from './review-counts';

interface AssessmentHeaderProps {
  batch: BatchView;
  questions: readonly AssessmentQuestionView[];
  exporting: boolean;
  onExport: (format: ExportFormat, options: ExportOptions) => void;
  /** May set the assessment's due date (assessments:assign). */
  canSetDueDate: boolean;
  /** The review state the list is filtered to, which the counts show pressed. */
  reviewFilter: ReviewState | 'all';
  onReviewFilter: (state: ReviewState | 'all') => void;
  /** Offered when questions failed and the user may run assessments. */
  failedCount: number;
  retrying: boolean;
  onRetryFailed?: () => void;
}

function Meta({ icon: Icon, label, children }: { icon: typeof Tag; label: string; children: ReactNode }) {
  return (
    <div className="flex min-w-0 items-center gap-1.5">
      <Icon className="size-3.5 shrink-0" aria-hidden />
      <dt className="sr-only">{label}</dt>
      <dd className="min-w-0 break-words">{children}</dd>
    </div>
  );
}

/**
 * The detail header: name, description, customer, type, source file, dates and the due date; how many questions are
 * in each review state; the export (once completed), which first says what nobody reviewed yet.
 */
export function AssessmentHeader({
  batch,
  questions,
  exporting,
  onExport,
  canSetDueDate,
  reviewFilter,
  onReviewFilter,
  failedCount,
  retrying,
  onRetryFailed,
}: AssessmentHeaderProps) {
  const { customerName, assessmentType, sourceFile } = batch.metadata;
  const completed = batch.status === 'completed';
  const [exportOpen, setExportOpen] = useState(false);
  return (
    <header className="grid gap-3 border-b px-4 pt-6 pb-4 sm:px-8">
      <Link
        to={paths.assessments}
        className="flex w-fit items-center gap-1.5 rounded-sm text-sm text-muted-foreground outline-none hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring"
      >
        <ArrowLeft className="size-4" aria-hidden />
        Bulk Assessments
      </Link>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-center gap-2">
            <h1 className="text-2xl font-semibold tracking-tight break-words">{batch.name}</h1>
            <BatchStatusBadge status={batch.status} />
          </div>
          {batch.description && <p className="mt-1 text-sm break-words text-slate-600">{batch.description}</p>}
          <dl className="mt-2 flex flex-wrap items-center gap-x-4 gap-y-1 text-xs text-muted-foreground">
            {customerName && (
              <Meta icon={Building2} label="Customer">
                {customerName}
              </Meta>
            )}
            {assessmentType && (
              <Meta icon={Tag} label="Type">
                {assessmentType}
              </Meta>
            )}
            {sourceFile && (
              <Meta icon={FileText} label="Source file">
                {sourceFile}
              </Meta>
            )}
            <Meta icon={CalendarPlus} label="Creation date">
              Created {formatDateTime(batch.createdAt)}
            </Meta>
            {batch.completedAt && (
              <Meta icon={CalendarCheck} label="Completion date">
                Completed {formatDateTime(batch.completedAt)}
              </Meta>
            )}
            {(batch.dueOn || canSetDueDate) && (
              <div className="flex min-w-0 items-center">
                <dt className="sr-only">Due date</dt>
                <dd>
                  <DueDateControl batch={batch} canEdit={canSetDueDate} />
                </dd>
              </div>
            )}
          </dl>
          {batch.status === 'failed' && batch.error && <p className="mt-2 text-sm text-red-700">{batch.error}</p>}
        </div>
        <div className="flex flex-wrap items-center gap-2">
          {onRetryFailed && failedCount > 0 && (
            <Button variant="outline" onClick={onRetryFailed} disabled={retrying}>
              {retrying ? <Spinner className="size-4" label="Retrying" /> : <RotateCcw aria-hidden />}
              Retry failed ({formatNumber(failedCount)})
            </Button>
          )}
          {completed && (
            <Button onClick={() => setExportOpen(true)} disabled={exporting}>
              {exporting ? (
                <Spinner className="size-4 text-primary-foreground" label="Exporting" />
              ) : (
                <FileDown aria-hidden />
              )}
              Export
            </Button>
          )}
        </div>
      </div>
      <ReviewCounts counts={batch.reviewCounts} active={reviewFilter} onSelect={onReviewFilter} />
      {completed && (
        <ExportDialog
          batch={batch}
          questions={questions}
          open={exportOpen}
          onOpenChange={setExportOpen}
          onExport={onExport}
        />
      )}
    </header>
  );
}
