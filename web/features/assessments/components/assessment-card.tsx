import { memo, type ReactNode } from 'react';
import { Link } from 'react-router';
import {
  Building2,
  CalendarCheck,
  CalendarPlus,
  Ellipsis,
  Eye,
  FileDown,
  FileSpreadsheet,
  Tag,
  Trash,
} from 'lucide-react';
import type { BatchView } from '../../../../common/schemas/assessments';
import { Button } from '../../../components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '../../../components/ui/dropdown-menu';
import { Progress } from '../../../components/ui/progress';
import { Spinner } from '../../../components/ui/spinner';
import { formatDate, formatNumber } from '../../../lib/format';
import { paths } from '../../../paths';
import type { ExportFormat } from '../api/export-assessment';
import { excelExportLabel, originalExportLabel } from '../export-labels';
import { DueDate } from '../review-badges';
import { reviewStages } from '../review-progress';
import { REVIEW_DOTS } from './review-counts';
import { cn } from '../../../lib/cn';
import { BatchStatusBadge, BatchStatusIcon } from './assessment-status';

export interface AssessmentCardHandlers {
  onExport: (batch: BatchView, format: ExportFormat) => void;
  onDelete: (batch: BatchView) => void;
}

interface AssessmentCardProps {
  batch: BatchView;
  canDelete: boolean;
  /** An export of this assessment is running. */
  exporting: boolean;
  handlers: AssessmentCardHandlers;
}

function Meta({ icon: Icon, children }: { icon: typeof Tag; children: ReactNode }) {
  return (
    <span className="flex items-center gap-1">
      <Icon className="size-3.5 shrink-0" aria-hidden />
      {children}
    </span>
  );
}

/**
 * The specification assessment card: name, status icon and badge, description, customer, type, dates and the due date
 * (with "Overdue" once it passed unreviewed), 'processed / total questions' with a bar, how many questions are in each
 * review state (so a processed assessment is not read as done), and a menu. Memoized: a poll re-renders only the cards whose batch changed.
 */
export const AssessmentCard = memo(function AssessmentCard({
  batch,
  canDelete,
  exporting,
  handlers,
}: AssessmentCardProps) {
  const nameId = `assessment-${batch.id}-name`;
  const completed = batch.status === 'completed';
  const percent = batch.totalQuestions > 0 ? (100 * batch.processedQuestions) / batch.totalQuestions : 0;
  const { customerName, assessmentType } = batch.metadata;

  return (
    <article aria-labelledby={nameId} className="rounded-xl border bg-background p-4 shadow-sm">
      <div className="flex items-start gap-3">
        <span className="mt-0.5 flex size-9 shrink-0 items-center justify-center rounded-lg bg-surface">
          <BatchStatusIcon status={batch.status} />
        </span>
        <div className="min-w-0 flex-1">
          <div className="flex items-start justify-between gap-3">
            <h3 id={nameId} className="min-w-0 pt-1 text-sm leading-snug font-semibold break-words">
              <Link to={paths.assessment(batch.id)} className="outline-none hover:text-primary focus-visible:underline">
                {batch.name}
              </Link>
            </h3>
            <div className="-mt-0.5 -mr-2 flex shrink-0 items-center gap-1">
              <BatchStatusBadge status={batch.status} />
              <DropdownMenu>
                <DropdownMenuTrigger asChild>
                  <Button
                    variant="ghost"
                    size="icon"
                    className="size-8 text-muted-foreground"
                    aria-label={`Actions for ${batch.name}`}
                    disabled={exporting}
                  >
                    {exporting ? <Spinner className="size-4" label="Exporting" /> : <Ellipsis aria-hidden />}
                  </Button>
                </DropdownMenuTrigger>
                <DropdownMenuContent>
                  <DropdownMenuItem asChild>
                    <Link to={paths.assessment(batch.id)}>
                      <Eye aria-hidden />
                      View Details
                    </Link>
                  </DropdownMenuItem>
                  {completed && (
                    <>
                      <DropdownMenuItem onSelect={() => handlers.onExport(batch, 'csv')}>
                        <FileDown aria-hidden />
                        Export CSV
                      </DropdownMenuItem>
                      <DropdownMenuItem onSelect={() => handlers.onExport(batch, 'xlsx')}>
                        <FileSpreadsheet aria-hidden />
                        {excelExportLabel(batch)}
                      </DropdownMenuItem>
                      {originalExportLabel(batch) && (
                        <DropdownMenuItem onSelect={() => handlers.onExport(batch, 'original')}>
                          <FileDown aria-hidden />
                          {originalExportLabel(batch)}
                        </DropdownMenuItem>
                      )}
                    </>
                  )}
                  {canDelete && (
                    <>
                      <DropdownMenuSeparator />
                      <DropdownMenuItem variant="destructive" onSelect={() => handlers.onDelete(batch)}>
                        <Trash aria-hidden />
                        Delete
                      </DropdownMenuItem>
                    </>
                  )}
                </DropdownMenuContent>
              </DropdownMenu>
            </div>
          </div>
          {batch.description && (
            <p className="mt-1 line-clamp-2 text-sm break-words text-slate-600">{batch.description}</p>
          )}
          <p className="mt-1.5 flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-muted-foreground">
            {customerName && <Meta icon={Building2}>{customerName}</Meta>}
            {assessmentType && <Meta icon={Tag}>{assessmentType}</Meta>}
            <Meta icon={CalendarPlus}>Created {formatDate(batch.createdAt)}</Meta>
            {batch.completedAt && <Meta icon={CalendarCheck}>Completed {formatDate(batch.completedAt)}</Meta>}
            {batch.dueOn && <DueDate dueOn={batch.dueOn} overdue={batch.overdue} />}
          </p>
          <div className="mt-3 flex items-center gap-3">
            <Progress value={percent} className="h-1.5" aria-label={`Progress of ${batch.name}`} />
            <span className="shrink-0 text-xs text-muted-foreground tabular-nums">
              {formatNumber(batch.processedQuestions)} / {formatNumber(batch.totalQuestions)} questions
            </span>
          </div>
          {completed && batch.totalQuestions > 0 && (
            <ul
              aria-label={`Review of ${batch.name}`}
              className="mt-2 flex flex-wrap gap-x-3 gap-y-1 text-xs text-slate-700"
            >
              {reviewStages(batch.reviewCounts).map(({ state, label, count }) => (
                <li key={state} className="flex items-center gap-1.5">
                  <span className={cn('size-2 rounded-full', REVIEW_DOTS[state])} aria-hidden />
                  {label}
                  <span className="font-semibold tabular-nums">{formatNumber(count)}</span>
                </li>
              ))}
            </ul>
          )}
          {batch.failedQuestions > 0 && (
            <p className="mt-1.5 text-xs text-red-700">
              {formatNumber(batch.failedQuestions)} {batch.failedQuestions === 1 ? 'question' : 'questions'} could not
              be answered
            </p>
          )}
          {batch.status === 'failed' && batch.error && <p className="mt-1.5 text-xs text-red-700">{batch.error}</p>}
        </div>
      </div>
    </article>
  );
});
