import { ChevronRight, History, ListChecks } from 'lucide-react';
import type { PrefilledAnswers, PreviewResponse, SheetMapping } from '../../../../common/schemas/assessments';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { cn } from '../../../lib/cn';
import { formatDate, formatNumber } from '../../../lib/format';
import { mappingOf } from '../questionnaire-mapping';
import { arrangeSheets, notImportedSummary, type ArrangedSheet } from '../questionnaire-preview-sheets';
import { PrefilledAnswersChoice } from './prefilled-answers-choice';
import { QuestionnaireSheetCard } from './questionnaire-sheet-card';

const FORMAT_LABELS: Record<PreviewResponse['format'], string> = {
  csv: 'CSV file',
  xlsx: 'Excel workbook',
  xls: 'Excel 97-2003 workbook',
  docx: 'Word document',
};

interface QuestionnairePreviewProps {
  preview: PreviewResponse;
  /** The columns the file's first preview found, before any change. */
  detected: readonly SheetMapping[];
  /**
   * Why the first preview judged each sheet it did not read not for answering: a preview with columns the user chose
   * judges no sheet, so the reasons are kept from the detection.
   */
  detectedSkips: Readonly<Record<string, string>>;
  /** The columns the user chose, which this preview applied; undefined while detection's stand. */
  chosen: readonly SheetMapping[] | undefined;
  /** A new preview for a changed column is on its way. */
  refreshing: boolean;
  onMappingChange: (mapping: SheetMapping[]) => void;
  /** What the filled file does with the answers the customer already gave. */
  prefilled: PrefilledAnswers;
  onPrefilledChange: (value: PrefilledAnswers) => void;
  /** Forgets the layout this preview was read with (`preview.rememberedLayout`), so detection reads the file again. */
  onForgetLayout: (id: string) => void;
  /** The layout is being forgotten. */
  forgetting: boolean;
}

function plural(count: number, one: string, many: string): string {
  return `${formatNumber(count)} ${count === 1 ? one : many}`;
}

/**
 * What Verity found in the file before anything is stored: the sheets (or Word tables) imported, the questionnaire
 * first, each with its question and answer columns, which the user can change, the columns the filled-in file writes
 * to and the answers the customer already gave; then the sheets not imported and why, folded away; what to do with
 * the customer's answers; and the first questions as they will be imported. The dialog scrolls, never a list in it.
 */
export function QuestionnairePreview({
  preview,
  detected,
  detectedSkips,
  chosen,
  refreshing,
  onMappingChange,
  prefilled,
  onPrefilledChange,
  onForgetLayout,
  forgetting,
}: QuestionnairePreviewProps) {
  const mapping = mappingOf(preview);
  const unit = preview.format === 'docx' ? 'table' : 'sheet';
  const more = preview.totalQuestions - preview.questions.length;
  const { main, others } = arrangeSheets(preview.sheets, { detected, detectedSkips, chosen });
  const card = ({ sheet, status }: ArrangedSheet) => (
    <QuestionnaireSheetCard
      key={sheet.name}
      sheet={sheet}
      status={status}
      format={preview.format}
      unit={unit}
      sheets={preview.sheets}
      mapping={mapping}
      detected={detected}
      onMappingChange={onMappingChange}
    />
  );

  return (
    <section
      aria-label="Preview"
      aria-busy={refreshing || undefined}
      className={cn('grid gap-3 rounded-lg border bg-surface p-3 transition-opacity', refreshing && 'opacity-60')}
    >
      <div className="grid gap-0.5">
        <div className="flex items-start gap-2 text-sm">
          <ListChecks className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden />
          <span className="font-semibold" aria-live="polite">
            {plural(preview.totalQuestions, 'question', 'questions')} found
            {preview.prefilledAnswers > 0 &&
              `, ${formatNumber(preview.prefilledAnswers)} already answered by the customer`}
          </span>
          {refreshing && <Spinner className="mt-0.5 ml-auto size-4 shrink-0" label="Updating preview" />}
        </div>
        <p className="pl-6 text-xs text-muted-foreground">
          {FORMAT_LABELS[preview.format]}
          {preview.sheets.length > 1 && ` · ${plural(preview.sheets.length, unit, `${unit}s`)}`}
        </p>
      </div>

      {preview.rememberedLayout && (
        // Columns and rows a person corrected on an earlier file of this layout: said, and undoable, never silent.
        <div className="flex flex-wrap items-center gap-x-2 gap-y-1.5 rounded-md border border-primary/30 bg-background p-2.5 text-sm">
          <History className="size-4 shrink-0 text-primary" aria-hidden />
          <p className="min-w-0 flex-1">
            Layout remembered from {formatDate(preview.rememberedLayout.savedAt)}
            <span className="text-muted-foreground">
              {preview.rememberedLayout.savedBy && `, corrected by ${preview.rememberedLayout.savedBy.username}`}
              {` on an earlier file of this layout.`}
            </span>
          </p>
          <Button
            variant="outline"
            size="sm"
            disabled={forgetting}
            onClick={() => {
              if (preview.rememberedLayout) onForgetLayout(preview.rememberedLayout.id);
            }}
          >
            {forgetting && <Spinner className="size-3.5" label="Forgetting the layout" />}
            Forget
          </Button>
        </div>
      )}

      <ul className="grid gap-2" aria-label={unit === 'table' ? 'Tables' : 'Sheets'}>
        {main.map(card)}
      </ul>

      {others.length > 0 && (
        // Folded: in a publisher's workbook a dozen instruction, reference and list sheets would bury the one to answer.
        <details className="group rounded-md border bg-background">
          <summary className="flex cursor-pointer list-none items-start gap-1.5 rounded-md p-2.5 text-sm outline-none focus-visible:ring-2 focus-visible:ring-ring [&::-webkit-details-marker]:hidden">
            <ChevronRight
              className="mt-0.5 size-4 shrink-0 text-muted-foreground transition-transform group-open:rotate-90"
              aria-hidden
            />
            <span>{notImportedSummary(others, unit)}</span>
          </summary>
          <ul
            className="grid gap-2 px-2.5 pb-2.5"
            aria-label={`${unit === 'table' ? 'Tables' : 'Sheets'} not imported`}
          >
            {others.map(card)}
          </ul>
        </details>
      )}

      {preview.prefilledAnswers > 0 && (
        <PrefilledAnswersChoice
          count={preview.prefilledAnswers}
          value={prefilled}
          onChange={onPrefilledChange}
          canReplace={preview.format === 'xlsx' || preview.format === 'xls'}
        />
      )}

      {preview.questions.length > 0 && (
        <div className="grid gap-1.5">
          <h3 className="text-xs font-medium tracking-wide text-muted-foreground uppercase">First questions</h3>
          <ol className="grid gap-1 rounded-md border bg-background p-2" aria-label="First questions">
            {preview.questions.map((question, index) => (
              <li key={`${question.sheet}-${String(question.row ?? index)}`} className="flex gap-2 text-sm">
                <span className="w-6 shrink-0 text-right text-xs leading-5 text-muted-foreground tabular-nums">
                  {index + 1}.
                </span>
                <span className="min-w-0 flex-1">
                  {question.controlId && (
                    <span className="mr-1.5 rounded bg-muted px-1.5 py-px font-mono text-xs text-slate-700">
                      {question.controlId}
                    </span>
                  )}
                  <span className="break-words">{question.question}</span>
                  <span className="block text-xs text-muted-foreground">
                    {[
                      preview.sheets.length > 1 ? question.sheet : null,
                      question.row !== null ? `Row ${String(question.row)}` : null,
                      question.section,
                      question.allowedValues?.length ? `Answer: ${question.allowedValues.join(' / ')}` : null,
                    ]
                      .filter(Boolean)
                      .join(' · ')}
                  </span>
                  {question.existingAnswer !== null && (
                    <span className="mt-0.5 block text-xs break-words text-slate-700">
                      <span className="font-medium">Customer&apos;s answer:</span> {question.existingAnswer}
                    </span>
                  )}
                </span>
              </li>
            ))}
          </ol>
          {more > 0 && (
            <p className="text-xs text-muted-foreground">and {plural(more, 'more question', 'more questions')}</p>
          )}
        </div>
      )}
    </section>
  );
}
