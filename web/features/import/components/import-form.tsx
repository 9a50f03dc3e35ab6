import { useRef, useState, type DragEvent } from 'react';
import { Controller, useWatch, type UseFormReturn } from 'react-hook-form';
import { Braces, Eye, FileSpreadsheet, FileUp, LoaderCircle, Sheet, Type, X } from 'lucide-react';
import { IMPORT_MAX_BYTES, SOURCE_MAX_LENGTH } from '../../../../common/constants';
import { parseImport } from '../../../../common/import/parse';
import { entriesFromSheets } from '../../../../common/import/sheet';
import { IMPORT_FORMATS, ImportParseError, type ImportFormat, type ParsedEntry } from '../../../../common/import/types';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { RadioCard, RadioGroup } from '../../../components/ui/radio-group';
import { TextareaField } from '../../../components/ui/textarea-field';
import { cn } from '../../../lib/cn';
import { formatFileSize, formatNumber } from '../../../lib/format';
import { IMPORT_PLACEHOLDERS } from '../import-preview-rules';
import { FORMAT_LABELS } from '../import-templates';
import type { ImportFormValues } from '../import-form-values';
import { readSpreadsheet } from '../read-spreadsheet';

const FORMAT_CHOICES: Record<ImportFormat, { icon: typeof Sheet; hint: string }> = {
  csv: { icon: Sheet, hint: 'Header with question and answer columns' },
  json: { icon: Braces, hint: 'An array of question and answer objects' },
  manual: { icon: Type, hint: 'Question and answer pairs, blank line between' },
};

/** File types the form reads, by extension; .xls (the pre-2007 format) is not one of them. */
const TEXT_FORMAT_OF_EXTENSION: Record<string, ImportFormat> = { csv: 'csv', tsv: 'csv', json: 'json', txt: 'manual' };
const ACCEPT = '.csv,.tsv,.json,.txt,.xlsx';

function extensionOf(name: string): string {
  return name.slice(name.lastIndexOf('.') + 1).toLowerCase();
}

/**
 * A parse error is shown in the form, under what it is about, rather than as a toast: a toast sat over the Preview
 * button the user needs next.
 */
function parseErrorMessage(error: unknown): string {
  return `Parse error: ${error instanceof ImportParseError ? error.message : 'The content could not be read.'}`;
}

/** A workbook read in the browser: its entries are already parsed, so the text box is not used. */
export interface LoadedWorkbook {
  name: string;
  size: number;
  entries: ParsedEntry[];
}

interface ImportFormProps {
  form: UseFormReturn<ImportFormValues>;
  onPreview: (entries: ParsedEntry[]) => void;
  /** A loaded file's name, kept by the page so it survives a tab switch and clears on reset. */
  fileName: string | null;
  onFileNameChange: (name: string | null) => void;
  workbook: LoadedWorkbook | null;
  onWorkbookChange: (workbook: LoadedWorkbook | null) => void;
}

/** The specification import form: a format, a file or pasted content, and 'Preview Import'. */
export function ImportForm({
  form,
  onPreview,
  fileName,
  onFileNameChange,
  workbook,
  onWorkbookChange,
}: ImportFormProps) {
  const fileInput = useRef<HTMLInputElement>(null);
  const [reading, setReading] = useState(false);
  const [dragging, setDragging] = useState(false);
  // Why the last file could not be used; cleared by the next file or by removing it.
  const [fileError, setFileError] = useState<string | null>(null);
  const {
    register,
    control,
    handleSubmit,
    setValue,
    setError,
    formState: { errors },
  } = form;
  const format = useWatch({ control, name: 'format' });

  const loadFile = async (file: File) => {
    const extension = extensionOf(file.name);
    const textFormat = TEXT_FORMAT_OF_EXTENSION[extension];
    if (!textFormat && extension !== 'xlsx') {
      setFileError(
        extension === 'xls'
          ? 'Old Excel files (.xls) cannot be read. Save the file as .xlsx or CSV and try again.'
          : 'Please select a CSV, JSON, plain-text or Excel (.xlsx) file.',
      );
      return;
    }
    if (file.size > IMPORT_MAX_BYTES) {
      setFileError(`The file is larger than ${formatFileSize(IMPORT_MAX_BYTES)}. Split it and import it in parts.`);
      return;
    }
    setFileError(null);
    setReading(true);
    try {
      if (textFormat) {
        const text = await file.text();
        onWorkbookChange(null);
        onFileNameChange(file.name);
        setValue('format', textFormat);
        setValue('content', text, { shouldValidate: true });
        return;
      }
      const sheets = await readSpreadsheet(file);
      const entries = entriesFromSheets(sheets, { source: file.name.slice(0, SOURCE_MAX_LENGTH) });
      onFileNameChange(null);
      onWorkbookChange({ name: file.name, size: file.size, entries });
      onPreview(entries);
    } catch (error) {
      setFileError(error instanceof ImportParseError ? parseErrorMessage(error) : `${file.name} could not be read.`);
    } finally {
      setReading(false);
    }
  };

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    const file = event.dataTransfer.files[0];
    if (file) void loadFile(file);
  };

  const clearFile = () => {
    setFileError(null);
    onFileNameChange(null);
    onWorkbookChange(null);
    setValue('content', '');
  };

  const onSubmit = handleSubmit(({ format: chosen, content }) => {
    try {
      onPreview(parseImport(chosen, content));
    } catch (error) {
      setError('content', { message: parseErrorMessage(error) }, { shouldFocus: true });
    }
  });

  const submit = () => {
    if (workbook) onPreview(workbook.entries);
    else void onSubmit();
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>Import Q&amp;A entries</CardTitle>
        <CardDescription>Upload a file or paste entries, check them in the preview, then import.</CardDescription>
      </CardHeader>
      <CardContent>
        <form
          noValidate
          className="grid gap-6"
          onSubmit={(event) => {
            event.preventDefault();
            submit();
          }}
        >
          <fieldset className="grid gap-2" disabled={workbook !== null}>
            <legend className="mb-2 text-sm font-medium">Format</legend>
            <Controller
              control={control}
              name="format"
              render={({ field }) => (
                <RadioGroup
                  value={field.value}
                  onValueChange={(value) => {
                    const next = IMPORT_FORMATS.find((f) => f === value);
                    if (next) field.onChange(next);
                  }}
                  className="grid-cols-1 sm:grid-cols-3"
                  aria-label="Format"
                  disabled={workbook !== null}
                >
                  {IMPORT_FORMATS.map((value) => {
                    const { icon: Icon, hint } = FORMAT_CHOICES[value];
                    return (
                      <RadioCard key={value} value={value}>
                        <Icon className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden />
                        <span className="grid gap-0.5">
                          <span className="font-medium">{FORMAT_LABELS[value]}</span>
                          <span className="text-xs text-muted-foreground">{hint}</span>
                        </span>
                      </RadioCard>
                    );
                  })}
                </RadioGroup>
              )}
            />
          </fieldset>

          <div className="grid gap-2">
            <span className="text-sm font-medium">Upload a file</span>
            <div
              onDragOver={(event) => {
                event.preventDefault();
                setDragging(true);
              }}
              onDragLeave={() => setDragging(false)}
              onDrop={onDrop}
              className={cn(
                'flex flex-wrap items-center justify-between gap-3 rounded-lg border border-dashed bg-surface px-4 py-3 transition-colors',
                dragging && 'border-primary bg-accent',
              )}
            >
              <div className="flex min-w-0 items-center gap-3">
                {workbook ? (
                  <FileSpreadsheet className="size-5 shrink-0 text-emerald-600" aria-hidden />
                ) : (
                  <FileUp className="size-5 shrink-0 text-muted-foreground" aria-hidden />
                )}
                <div className="min-w-0 text-sm">
                  {workbook ? (
                    <p className="truncate">
                      <span className="font-medium">{workbook.name}</span> ({formatFileSize(workbook.size)}) ·{' '}
                      {formatNumber(workbook.entries.length)} entries read
                    </p>
                  ) : fileName ? (
                    <p className="truncate">
                      Loaded <span className="font-medium">{fileName}</span>
                    </p>
                  ) : (
                    <p className="text-muted-foreground">
                      Drop a file here, or browse. CSV, JSON, TXT or Excel (.xlsx).
                    </p>
                  )}
                </div>
              </div>
              <div className="flex items-center gap-2">
                {(workbook || fileName) && (
                  <Button variant="ghost" size="sm" onClick={clearFile}>
                    <X aria-hidden />
                    Remove
                  </Button>
                )}
                <Button variant="outline" size="sm" onClick={() => fileInput.current?.click()} disabled={reading}>
                  {reading && <LoaderCircle className="animate-spin" aria-hidden />}
                  Browse...
                </Button>
              </div>
              {fileError && (
                <p role="alert" className="basis-full text-sm text-destructive">
                  {fileError}
                </p>
              )}
              <input
                ref={fileInput}
                type="file"
                accept={ACCEPT}
                className="sr-only"
                tabIndex={-1}
                aria-label="Upload a file"
                onChange={(event) => {
                  const file = event.target.files?.[0];
                  // Cleared so picking the same file again (after fixing it) still fires a change.
                  event.target.value = '';
                  if (file) void loadFile(file);
                }}
              />
            </div>
          </div>

          {workbook ? (
            <p className="rounded-lg border bg-surface px-4 py-3 text-sm text-muted-foreground">
              The workbook&apos;s first sheet with question and answer columns is imported. Preview it to check the
              entries, or remove it to paste content instead.
            </p>
          ) : (
            <TextareaField
              label="Content"
              rows={12}
              spellCheck={false}
              className="[&_textarea]:font-mono [&_textarea]:text-xs [&_textarea]:placeholder:text-slate-400 [&_textarea]:placeholder:italic"
              placeholder={IMPORT_PLACEHOLDERS[format]}
              hint="Paste entries in the format chosen above. See Templates & Examples for the exact layout."
              error={errors.content?.message}
              {...register('content')}
            />
          )}

          <div className="flex justify-end">
            <Button type="submit" disabled={reading}>
              <Eye aria-hidden />
              Preview Import
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
