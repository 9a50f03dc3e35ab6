import { useId, useState } from 'react';
import { EyeOff } from 'lucide-react';
import { ADDED_COLUMN_HEADERS } from '../../../../common/constants';
import { type PreviewResponse, type SheetMapping, sheetRowsProblem } from '../../../../common/schemas/assessments';
import { Badge } from '../../../components/ui/badge';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '../../../components/ui/select';
import { formatNumber } from '../../../lib/format';
import {
  columnLabel,
  defaultChoiceLabel,
  MIN_CHOICE_COLUMNS,
  type RowsChange,
  withAnswerChoiceColumns,
  withAnswerColumn,
  withChoiceLabel,
  withCommentsColumn,
  withIdColumn,
  withQuestionColumn,
  withRows,
} from '../questionnaire-mapping';
import { asSentence } from '../mapping-rows';
import { writtenColumns, type SheetStatus } from '../questionnaire-preview-sheets';
import { AnswerChoiceColumns } from './answer-choice-columns';
import { RowNumberField } from './row-number-field';

type PreviewSheet = PreviewResponse['sheets'][number];

/** Radix Select values are strings; these stand for "no column". */
const SKIP = 'skip';
const NONE = 'none';
const MARKS = 'marks';

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

function sameColumns(a: readonly number[], b: readonly number[]): boolean {
  const sorted = [...a].sort((x, y) => x - y);
  return sorted.length === b.length && sorted.every((column, index) => column === b[index]);
}

function plural(count: number, one: string, many: string): string {
  return `${formatNumber(count)} ${count === 1 ? one : many}`;
}

interface ColumnSelectProps {
  label: string;
  name: string;
  value: number | null;
  /** The columns offered, by index. */
  columns: readonly number[];
  labels: readonly string[];
  none: string;
  onChange: (column: number | null) => void;
  /** A last option that is no column ("A mark under several columns…"), and what choosing it does. */
  more?: { label: string; onSelect: () => void };
}

/** A column of the sheet, or none. */
function ColumnSelect({ label, name, value, columns, labels, none, onChange, more }: ColumnSelectProps) {
  return (
    <label className="grid min-w-0 gap-1 text-xs text-muted-foreground">
      {label}
      <Select
        value={value === null ? NONE : String(value)}
        onValueChange={(next) => {
          if (next === MARKS) more?.onSelect();
          else onChange(next === NONE ? null : Number(next));
        }}
      >
        <SelectTrigger className="h-8 min-w-0 text-foreground" aria-label={name}>
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          <SelectItem value={NONE}>{none}</SelectItem>
          {columns.map((index) => (
            <SelectItem key={index} value={String(index)}>
              {columnLabel(labels, index)}
            </SelectItem>
          ))}
          {more && <SelectItem value={MARKS}>{more.label}</SelectItem>}
        </SelectContent>
      </Select>
    </label>
  );
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
  // The choice columns the user picked that the preview does not show yet: fewer than two (not sent: the server
  // refuses them), or sent and on their way. Null: the preview's own. Without it the editor would fall back to the
  // answer column select, closing the list, until the next preview arrives.
  const [draft, setDraft] = useState<number[] | null>(null);
  const [choosing, setChoosing] = useState(false);
  const applied = current?.answerChoiceColumns ?? [];
  const appliedColumns = applied.map((choice) => choice.column);
  if (draft !== null && draft.length >= MIN_CHOICE_COLUMNS && sameColumns(draft, appliedColumns)) setDraft(null);
  const byMarks = draft !== null || applied.length > 0;
  const chosenChoices =
    draft?.map(
      (column) =>
        applied.find((choice) => choice.column === column) ?? {
          column,
          label: defaultChoiceLabel(sheet.columns, column),
        },
    ) ?? applied;
  const toggleChoice = (column: number, checked: boolean) => {
    const now = draft ?? appliedColumns;
    const next = checked ? [...now, column] : now.filter((c) => c !== column);
    setDraft(next);
    // Under two the server would refuse them: the sheet is read by one answer column until a second is ticked.
    if (next.length >= MIN_CHOICE_COLUMNS || applied.length > 0) {
      const sent = next.length >= MIN_CHOICE_COLUMNS ? next : [];
      onMappingChange(withAnswerChoiceColumns(mapping, sheet.name, sent, sheet.columns, detected));
    }
  };
  const oneAnswerColumn = () => {
    setChoosing(false);
    setDraft(null);
    if (applied.length > 0) onMappingChange(withAnswerChoiceColumns(mapping, sheet.name, [], sheet.columns, detected));
  };
  // The question column, and where the answers go (one column, or the Yes / No / N/A columns marked under).
  const answerColumns = new Set<number>(
    current
      ? [
          current.questionColumn,
          ...(current.answerColumn === null ? [] : [current.answerColumn]),
          ...(current.answerChoiceColumns ?? []).map((choice) => choice.column),
        ]
      : [],
  );
  // A row that does not go with the others is said under its box and not sent: the server would refuse it.
  const changeRows = (change: RowsChange): string | null => {
    const next = withRows(mapping, sheet.name, change);
    const changed = next.find((m) => m.sheet === sheet.name);
    const problem = changed ? sheetRowsProblem(changed) : null;
    if (problem) return asSentence(problem);
    onMappingChange(next);
    return null;
  };
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
          {current && !byMarks && (
            <ColumnSelect
              label="Answer column"
              name={`Answer column of ${sheet.name}`}
              value={current.answerColumn}
              columns={columns.filter((index) => index !== current.questionColumn)}
              labels={sheet.columns}
              // A Word table is never given a new column.
              none={format === 'docx' ? 'None' : `None: add a ${ADDED_COLUMN_HEADERS.response} column`}
              onChange={(column) => onMappingChange(withAnswerColumn(mapping, sheet.name, column, detected))}
              more={
                // Marks are written into a workbook's cells; a CSV or Word table has no such columns to mark.
                (format === 'xlsx' || format === 'xls') && columns.length > MIN_CHOICE_COLUMNS
                  ? {
                      label: 'A mark under one of several columns…',
                      onSelect: () => {
                        setDraft([]);
                        setChoosing(true);
                      },
                    }
                  : undefined
              }
            />
          )}
          {current && byMarks && (
            <AnswerChoiceColumns
              sheetName={sheet.name}
              labels={sheet.columns}
              offered={columns.filter((index) => index !== current.questionColumn)}
              chosen={chosenChoices}
              unsent={draft !== null && draft.length < MIN_CHOICE_COLUMNS}
              labelsEditable={draft === null}
              open={choosing}
              onOpenChange={(open) => {
                setChoosing(open);
                // Closed with fewer than two ticked: the sheet is answered by one answer column, so the select is back.
                if (!open && draft !== null && draft.length < MIN_CHOICE_COLUMNS) setDraft(null);
              }}
              onToggle={toggleChoice}
              onLabel={(column, label) =>
                onMappingChange(withChoiceLabel(mapping, sheet.name, column, label, sheet.columns))
              }
              onSingle={oneAnswerColumn}
            />
          )}
          {current && (
            <ColumnSelect
              label="Comments column"
              name={`Comments column of ${sheet.name}`}
              value={current.commentsColumn}
              columns={columns.filter((index) => !answerColumns.has(index))}
              labels={sheet.columns}
              none="None"
              onChange={(column) => onMappingChange(withCommentsColumn(mapping, sheet.name, column))}
            />
          )}
          {current && (
            <ColumnSelect
              label="ID column"
              name={`ID column of ${sheet.name}`}
              value={current.idColumn}
              columns={columns.filter((index) => !answerColumns.has(index))}
              labels={sheet.columns}
              none="None"
              onChange={(column) => onMappingChange(withIdColumn(mapping, sheet.name, column))}
            />
          )}
        </div>
      )}
      {current && format !== 'docx' && (
        // Row numbers as the spreadsheet shows them (a CSV's line numbers); a Word table's rows have none to show.
        <div className="grid grid-cols-3 gap-2">
          <RowNumberField
            label="Header row"
            name={`Header row of ${sheet.name}`}
            value={current.headerRow}
            rowCount={sheet.rowCount}
            placeholder="None"
            onCommit={(row) => changeRows({ headerRow: row ?? -1 })}
          />
          <RowNumberField
            label="First question"
            name={`First question row of ${sheet.name}`}
            value={current.firstRow}
            rowCount={sheet.rowCount}
            placeholder="Auto"
            onCommit={(row) => changeRows({ firstRow: row })}
          />
          <RowNumberField
            label="Last question"
            name={`Last question row of ${sheet.name}`}
            value={current.lastRow}
            rowCount={sheet.rowCount}
            placeholder="End"
            onCommit={(row) => changeRows({ lastRow: row })}
          />
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
