import { useId } from 'react';
import { EyeOff } from 'lucide-react';
import { ADDED_COLUMN_HEADERS } from '../../../../common/constants';
import type { PreviewResponse, SheetMapping } from '../../../../common/schemas/assessments';
import { Badge } from '../../../components/ui/badge';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '../../../components/ui/select';
import { formatNumber } from '../../../lib/format';
import { columnLabel, withAnswerColumn, withQuestionColumn } from '../questionnaire-mapping';
import { writtenColumns, type SheetStatus } from '../questionnaire-preview-sheets';

type PreviewSheet = PreviewResponse['sheets'][number];

/** Radix Select values are strings; these stand for "no column". */
const SKIP = 'skip';
const NONE = 'none';

interface QuestionnaireSheetCardProps {
  sheet: PreviewSheet;
  status: SheetStatus;
  format: PreviewResponse['format'];
  /** 'sheet', or 'table' for a Word document. */
  unit: 'sheet' | 'table';
  /** Every sheet of the preview, in workbook order, and the mapping it applied. */
  sheets: readonly PreviewSheet[];
  mapping: readonly SheetMapping[];
  detected: readonly SheetMapping[];
  onMappingChange: (mapping: SheetMapping[]) => void;
}

function plural(count: number, one: string, many: string): string {
  return `${formatNumber(count)} ${count === 1 ? one : many}`;
}

/**
 * One sheet (or Word table) of the preview: imported with its question count, the customer's answers on it and every
 * column the filled-in file writes to, or not imported and why; its question and answer columns can be changed.
 */
export function QuestionnaireSheetCard({
  sheet,
  status,
  format,
  unit,
  sheets,
  mapping,
  detected,
  onMappingChange,
}: QuestionnaireSheetCardProps) {
  const reasonId = useId();
  const current = sheet.mapping;
  const columns = sheet.columns.map((_, index) => index);
  const written = writtenColumns(sheet, format);
  return (
    <li
      className="grid gap-2 rounded-md border bg-background p-2.5"
      aria-label={sheet.name}
      aria-describedby={status.imported ? undefined : reasonId}
    >
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <span className="font-medium break-all">{sheet.name}</span>
        {sheet.hidden && (
          <Badge variant="outline" className="text-muted-foreground">
            <EyeOff aria-hidden />
            Hidden
          </Badge>
        )}
        {status.imported ? (
          <Badge variant="info" className="ml-auto">
            Imported
          </Badge>
        ) : (
          <Badge variant="outline" className="ml-auto text-muted-foreground">
            Not imported
          </Badge>
        )}
      </div>
      {status.imported ? (
        <p className="-mt-1 text-xs text-muted-foreground tabular-nums">
          <span>{plural(sheet.questionCount, 'question', 'questions')}</span>
          {sheet.prefilledAnswers > 0 && (
            <span> · {formatNumber(sheet.prefilledAnswers)} already answered by the customer</span>
          )}
        </p>
      ) : (
        <p id={reasonId} className="-mt-1 text-xs text-muted-foreground">
          {status.explanation}
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
                  withQuestionColumn(mapping, sheets, sheet, value === SKIP ? null : Number(value), detected),
                )
              }
            >
              <SelectTrigger className="h-8 text-foreground" aria-label={`Question column of ${sheet.name}`}>
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                <SelectItem value={SKIP}>Do not import this {unit}</SelectItem>
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
                  <SelectItem value={NONE}>
                    {/* A Word table is never given a new column. */}
                    {format === 'docx' ? 'None' : `None: add a ${ADDED_COLUMN_HEADERS.response} column`}
                  </SelectItem>
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
      {status.imported && written.note && <p className="text-xs text-muted-foreground">{written.note}</p>}
      {status.imported && written.columns.length > 0 && (
        <div className="grid gap-1 text-xs">
          <p className="text-muted-foreground">The filled-in file writes to:</p>
          <ul className="grid gap-0.5" aria-label={`Columns filled in ${sheet.name}`}>
            {written.columns.map((column) => (
              <li key={column.label} className="break-words">
                <span className="font-medium">{column.label}</span>
                <span className="text-muted-foreground"> — {column.content}</span>
              </li>
            ))}
          </ul>
        </div>
      )}
    </li>
  );
}
