import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import {
  ArrowLeft,
  Building2,
  CalendarCheck,
  CalendarPlus,
  ChevronDown,
  FileDown,
  FileSpreadsheet,
  FileText,
  RotateCcw,
  Tag,
} from 'lucide-react';
import type { BatchView } from '../../../../common/schemas/assessments';
import { Button } from '../../../components/ui/button';
import { Checkbox } from '../../../components/ui/checkbox';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from '../../../components/ui/dropdown-menu';
import { Spinner } from '../../../components/ui/spinner';
import { formatDateTime, formatNumber } from '../../../lib/format';
import { paths } from '../../../paths';
import type { ExportFormat } from '../api/export-assessment';
import { excelExportLabel, originalExportLabel } from '../export-labels';
import { BatchStatusBadge } from './assessment-status';

interface AssessmentHeaderProps {
  batch: BatchView;
  exporting: boolean;
  onExport: (format: ExportFormat, options: { withSources?: boolean; drafts: boolean; generic?: boolean }) => void;
  /** Answers a person wrote that nobody approved yet: left out of exports unless the user asks for them. */
  draftCount: number;
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

/** The specification detail header: name, description, customer, type, source file and dates; exports once completed. */
export function AssessmentHeader({
  batch,
  exporting,
  onExport,
  draftCount,
  failedCount,
  retrying,
  onRetryFailed,
}: AssessmentHeaderProps) {
  const { customerName, assessmentType, sourceFile } = batch.metadata;
  const completed = batch.status === 'completed';
  const [includeDrafts, setIncludeDrafts] = useState(false);
  const drafts = includeDrafts && draftCount > 0;
  const originalLabel = originalExportLabel(batch);
  return (
    <header className="grid gap-3 border-b px-8 pt-6 pb-4">
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
          <dl className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-muted-foreground">
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
          {completed && draftCount > 0 && (
            <label
              className="flex items-center gap-2 text-sm text-slate-700"
              title="Answers a person wrote are left out of exports until a manager or admin approves them. Included ones are marked 'Draft — not approved'."
            >
              <Checkbox checked={includeDrafts} onCheckedChange={(checked) => setIncludeDrafts(checked === true)} />
              Include {formatNumber(draftCount)} unapproved {draftCount === 1 ? 'draft' : 'drafts'}
            </label>
          )}
          {completed && (
            <>
              <Button variant="outline" onClick={() => onExport('csv', { drafts })} disabled={exporting}>
                {exporting ? <Spinner className="size-4" label="Exporting" /> : <FileDown aria-hidden />}
                Export CSV
              </Button>
              <DropdownMenu>
                <DropdownMenuTrigger asChild>
                  <Button disabled={exporting}>
                    <FileSpreadsheet aria-hidden />
                    {excelExportLabel(batch)}
                    <ChevronDown aria-hidden />
                  </Button>
                </DropdownMenuTrigger>
                <DropdownMenuContent>
                  <DropdownMenuItem onSelect={() => onExport('xlsx', { drafts })}>Answers only</DropdownMenuItem>
                  <DropdownMenuItem onSelect={() => onExport('xlsx', { withSources: true, drafts })}>
                    Answers with a Source column
                  </DropdownMenuItem>
                  {batch.canFillOriginal && (
                    <DropdownMenuItem onSelect={() => onExport('xlsx', { generic: true, drafts })}>
                      Export Excel (new workbook)
                    </DropdownMenuItem>
                  )}
                </DropdownMenuContent>
              </DropdownMenu>
              {originalLabel && (
                <Button variant="outline" onClick={() => onExport('original', { drafts })} disabled={exporting}>
                  <FileDown aria-hidden />
                  {originalLabel}
                </Button>
              )}
            </>
          )}
        </div>
      </div>
    </header>
  );
}
