import { useId } from 'react';
import { Ban, EyeOff, ListChecks } from 'lucide-react';
import type { PrefilledAnswers, PreviewResponse, SheetMapping } from '../../../../common/schemas/assessments';
import { Badge } from '../../../components/ui/badge';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '../../../components/ui/select';
import { Spinner } from '../../../components/ui/spinner';
import { cn } from '../../../lib/cn';
import { formatNumber } from '../../../lib/format';
import { columnLabel, mappingOf, withAnswerColumn, withQuestionColumn } from '../questionnaire-mapping';
import { PrefilledAnswersChoice } from './prefilled-answers-choice';

const FORMAT_LABELS: Record<PreviewResponse['format'], string> = {
  csv: 'CSV file',
  xlsx: 'Excel workbook',
  xls: 'Excel 97-2003 workbook',
  docx: 'Word document',
};

/** Radix Select values are strings; these stand for "no column". */
const SKIP = 'skip';
const NONE = 'none';

interface QuestionnairePreviewProps {
  preview: PreviewResponse;
  /** The columns the file's first preview found, before any change. */
  detected: readonly SheetMapping[];
  /**
   * Why the first preview skipped each sheet it did not read: a preview with columns the user chose judges no sheet,
   * so the reasons are kept from the detection.
   */
  detectedSkips: Readonly<Record<string, string>>;
  /** A new preview for a changed column is on its way. */
  refreshing: boolean;
  onMappingChange: (mapping: SheetMapping[]) => void;
  /** What the filled file does with the answers the customer already gave. */
  prefilled: PrefilledAnswers;
  onPrefilledChange: (value: PrefilledAnswers) => void;
}

function plural(count: number, one: string, many: string): string {
  return `${formatNumber(count)} ${count === 1 ? one : many}`;
}

/** The server's reason is a clause ('it repeats the questions of "X"'); shown alone, it is a sentence. */
function asSentence(reason: string): string {
  const text = reason.trim();
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}${/[.!?]$/.test(text) ? '' : '.'}`;
}

/**
 * What Verity found in the file before anything is stored: each sheet (or Word table) read as the questionnaire or
 * skipped and why, its question and answer columns, which the user can change, the answers the customer already gave
 * and what to do with them, and the first questions as they will be imported.
 */
export function QuestionnairePreview({
  preview,
  detected,
  detectedSkips,
  refreshing,
  onMappingChange,
  prefilled,
  onPrefilledChange,
}: QuestionnairePreviewProps) {
  const idBase = useId();
  const mapping = mappingOf(preview);
  const unit = preview.format === 'docx' ? 'Table' : 'Sheet';
  const more = preview.totalQuestions - preview.questions.length;

  return (
    <section
      aria-label="Preview"
      aria-busy={refreshing || undefined}
      className={cn('grid gap-3 rounded-lg border bg-surface p-3 transition-opacity', refreshing && 'opacity-60')}
    >
      <div className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm">
        <ListChecks className="size-4 text-primary" aria-hidden />
        <span className="font-semibold" aria-live="polite">
          {plural(preview.totalQuestions, 'question', 'questions')} found
        </span>
        <span className="text-muted-foreground">
          · {FORMAT_LABELS[preview.format]}
          {preview.sheets.length > 1 &&
            ` · ${plural(preview.sheets.length, unit.toLowerCase(), `${unit.toLowerCase()}s`)}`}
        </span>
        {refreshing && <Spinner className="ml-auto size-4" label="Updating preview" />}
      </div>

      <ul className="grid gap-2" aria-label={`${unit}s`}>
        {preview.sheets.map((sheet, sheetIndex) => {
          const current = sheet.mapping;
          const columns = sheet.columns.map((_, index) => index);
          // A sheet the user chose to import after all is no longer skipped.
          const skipped = current ? null : (sheet.skipped ?? detectedSkips[sheet.name] ?? null);
          const reasonId = `${idBase}-skipped-${String(sheetIndex)}`;
          return (
            <li
              key={sheet.name}
              className="grid gap-2 rounded-md border bg-background p-2.5"
              aria-label={sheet.name}
              aria-describedby={skipped ? reasonId : undefined}
            >
              <div className="flex flex-wrap items-center gap-2 text-sm">
                <span className="font-medium break-all">{sheet.name}</span>
                {sheet.hidden && (
                  <Badge variant="outline" className="text-muted-foreground">
                    <EyeOff aria-hidden />
                    Hidden
                  </Badge>
                )}
                <span className="ml-auto flex items-center gap-1.5 text-xs text-muted-foreground tabular-nums">
                  {current ? (
                    <>
                      <Badge variant="info">Questionnaire</Badge>
                      <span>{plural(sheet.questionCount, 'question', 'questions')}</span>
                    </>
                  ) : skipped ? (
                    <Badge variant="outline" className="text-muted-foreground">
                      <Ban aria-hidden />
                      Skipped
                    </Badge>
                  ) : (
                    'Not imported'
                  )}
                </span>
              </div>
              {skipped && (
                <p id={reasonId} className="-mt-1 text-xs text-muted-foreground">
                  {asSentence(skipped)}
                </p>
              )}
              {columns.length > 0 && (
                <div className="grid gap-2 sm:grid-cols-2">
                  <label className="grid gap-1 text-xs text-muted-foreground">
                    Question column
                    <Select
                      value={current ? String(current.questionColumn) : SKIP}
                      onValueChange={(value) =>
                        onMappingChange(
                          withQuestionColumn(
                            mapping,
                            preview.sheets,
                            sheet,
                            value === SKIP ? null : Number(value),
                            detected,
                          ),
                        )
                      }
                    >
                      <SelectTrigger className="h-8 text-foreground" aria-label={`Question column of ${sheet.name}`}>
                        <SelectValue />
                      </SelectTrigger>
                      <SelectContent>
                        <SelectItem value={SKIP}>Do not import this {unit.toLowerCase()}</SelectItem>
                        {columns.map((index) => (
                          <SelectItem key={index} value={String(index)}>
                            {columnLabel(sheet.columns, index)}
                          </SelectItem>
                        ))}
                      </SelectContent>
                    </Select>
                  </label>
                  {current && (
                    <label className="grid gap-1 text-xs text-muted-foreground">
                      Answer column
                      <Select
                        value={current.answerColumn === null ? NONE : String(current.answerColumn)}
                        onValueChange={(value) =>
                          onMappingChange(
                            withAnswerColumn(mapping, sheet.name, value === NONE ? null : Number(value), detected),
                          )
                        }
                      >
                        <SelectTrigger className="h-8 text-foreground" aria-label={`Answer column of ${sheet.name}`}>
                          <SelectValue />
                        </SelectTrigger>
                        <SelectContent>
                          <SelectItem value={NONE}>None: add a Response column</SelectItem>
                          {columns
                            .filter((index) => index !== current.questionColumn)
                            .map((index) => (
                              <SelectItem key={index} value={String(index)}>
                                {columnLabel(sheet.columns, index)}
                              </SelectItem>
                            ))}
                        </SelectContent>
                      </Select>
                    </label>
                  )}
                </div>
              )}
            </li>
          );
        })}
      </ul>

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
          <ol
            className="grid max-h-56 gap-1 overflow-y-auto rounded-md border bg-background p-2"
            aria-label="First questions"
          >
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
