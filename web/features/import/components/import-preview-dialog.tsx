import { useEffect, useMemo, useState } from 'react';
import { CircleCheck, CopyX, FilePen, LoaderCircle, Upload, X } from 'lucide-react';
import { IMPORT_MAX_BYTES } from '../../../../common/constants';
import type { ParsedEntry } from '../../../../common/import/types';
import type { ImportBody, ImportResult } from '../../../../common/schemas/knowledge';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../../../components/ui/dialog';
import { Progress } from '../../../components/ui/progress';
import { RadioCard, RadioGroup } from '../../../components/ui/radio-group';
import { toast, toastError } from '../../../components/ui/use-toast';
import { cn } from '../../../lib/cn';
import { formatNumber } from '../../../lib/format';
import { useCheckImport } from '../api/check-import';
import { useImportCanonicalAnswers } from '../api/import-canonical-answers';
import {
  findDuplicates,
  importButtonLabel,
  importedTitle,
  previewSummary,
  skippedDescription,
  type Duplicate,
  type ImportOutcome,
} from '../import-preview-rules';

/** Entries rendered at once; a 10,000-row sheet is previewed a slice at a time instead of freezing the tab. */
const PREVIEW_PAGE = 100;

type ImportStatus = NonNullable<ImportBody['status']>;

const NO_KEYS: ReadonlySet<number> = new Set();

interface PreviewRow {
  key: number;
  entry: ParsedEntry;
}

interface ImportPreviewDialogProps {
  /** The parsed entries; null closes the dialog. */
  entries: ParsedEntry[] | null;
  canImport: boolean;
  onClose: () => void;
  /** The import succeeded: what it added and skipped. */
  onImported: (outcome: ImportOutcome) => void;
}

/** `alreadySkipped`: duplicates the preview left out of the request, counted with those the server skipped. */
function importedToast(result: ImportResult, alreadySkipped: number) {
  const skipped = skippedDescription(result.skipped + alreadySkipped);
  if (result.imported === 0) {
    toast({ title: 'Nothing was imported', description: skipped });
    return;
  }
  toast({ title: importedTitle(result.imported), description: skipped, variant: 'success' });
}

function duplicateText(duplicate: Duplicate): string {
  return duplicate.kind === 'library'
    ? 'Already in the library: will be skipped'
    : `Repeats entry ${String(duplicate.of)}: will be skipped`;
}

function progressLabel(percent: number): string {
  if (percent >= 100) return 'Done';
  // The body is fully sent; the server is storing the entries.
  if (percent >= 99) return 'Saving to the library...';
  return `Uploading ${String(Math.round(percent))}%`;
}

/** The specification preview: every parsed entry, each removable, then 'Import N Answers' with real upload progress. */
export function ImportPreviewDialog({ entries, canImport, onClose, onImported }: ImportPreviewDialogProps) {
  const importMutation = useImportCanonicalAnswers();
  const pending = importMutation.isPending;
  return (
    <Dialog open={entries !== null} onOpenChange={(open) => !open && !pending && onClose()}>
      <DialogContent className="max-w-3xl" onInteractOutside={(event) => pending && event.preventDefault()}>
        {entries && (
          <PreviewBody
            entries={entries}
            canImport={canImport}
            importMutation={importMutation}
            onClose={onClose}
            onImported={onImported}
          />
        )}
      </DialogContent>
    </Dialog>
  );
}

interface PreviewBodyProps {
  entries: ParsedEntry[];
  canImport: boolean;
  importMutation: ReturnType<typeof useImportCanonicalAnswers>;
  onClose: () => void;
  /** The import succeeded: what it added and skipped. */
  onImported: (outcome: ImportOutcome) => void;
}

function PreviewBody({ entries, canImport, importMutation, onClose, onImported }: PreviewBodyProps) {
  const [rows, setRows] = useState<PreviewRow[]>(() => entries.map((entry, key) => ({ key, entry })));
  const [visible, setVisible] = useState(PREVIEW_PAGE);
  const [status, setStatus] = useState<ImportStatus>('approved');
  const [progress, setProgress] = useState<number | null>(null);
  const pending = importMutation.isPending;

  // Which questions the library already has, asked once per preview (only importers may ask). Should the check
  // fail, the server still skips them on import; repeats within the file are found here either way.
  const check = useCheckImport();
  const { mutate: runCheck } = check;
  useEffect(() => {
    if (canImport) runCheck(entries);
  }, [canImport, entries, runCheck]);
  const inLibrary = check.data ?? NO_KEYS;
  const duplicates = useMemo(() => findDuplicates(rows, inLibrary), [rows, inLibrary]);
  const ready = rows.length - duplicates.size;
  const checking = check.isPending;

  const remove = (key: number) => setRows((current) => current.filter((row) => row.key !== key));

  const startImport = () => {
    const sent = rows.filter((row) => !duplicates.has(row.key));
    const body: ImportBody = { entries: sent.map((row) => row.entry), status };
    if (new Blob([JSON.stringify(body)]).size > IMPORT_MAX_BYTES) {
      toast({
        title: 'Error',
        description: `This import is larger than ${formatNumber(IMPORT_MAX_BYTES / 1024 / 1024)} MB. Split the file and import it in parts.`,
        variant: 'destructive',
      });
      return;
    }
    setProgress(0);
    importMutation.mutate(
      { body, onProgress: setProgress },
      {
        onSuccess: (result) => {
          importedToast(result, duplicates.size);
          onImported({ imported: result.imported, skipped: result.skipped + duplicates.size, status });
        },
        onError: (error) => {
          setProgress(null);
          toastError(error, 'Failed to import answers');
        },
      },
    );
  };

  return (
    <>
      <DialogHeader>
        <DialogTitle>Import Preview</DialogTitle>
        <DialogDescription>
          {rows.length === 0
            ? 'Every entry has been removed. Close the preview to change the content.'
            : previewSummary(ready, duplicates.size)}
          {checking && ' Checking the library for duplicates...'}
        </DialogDescription>
      </DialogHeader>

      <RadioGroup
        value={status}
        onValueChange={(value) => setStatus(value === 'draft' ? 'draft' : 'approved')}
        className="grid-cols-1 sm:grid-cols-2"
        aria-label="Import as"
        disabled={pending}
      >
        <RadioCard value="approved">
          <CircleCheck className="mt-0.5 size-4 shrink-0 text-emerald-600" aria-hidden />
          <span className="grid gap-0.5">
            <span className="font-medium">Import as approved</span>
            <span className="text-xs text-muted-foreground">Used to answer questionnaires right away.</span>
          </span>
        </RadioCard>
        <RadioCard value="draft">
          <FilePen className="mt-0.5 size-4 shrink-0 text-amber-600" aria-hidden />
          <span className="grid gap-0.5">
            <span className="font-medium">Import as draft</span>
            <span className="text-xs text-muted-foreground">Reviewed and approved one by one first.</span>
          </span>
        </RadioCard>
      </RadioGroup>

      <ol
        className="grid max-h-[45vh] gap-2 overflow-y-auto rounded-lg border bg-surface p-2"
        aria-label="Entries to import"
      >
        {rows.slice(0, visible).map(({ key, entry }, index) => {
          const duplicate = duplicates.get(key);
          return (
            <li
              key={key}
              className={cn('flex gap-3 rounded-md border bg-background p-3', duplicate && 'border-dashed bg-surface')}
            >
              <span className="w-6 shrink-0 pt-0.5 text-right text-xs text-muted-foreground tabular-nums">
                {index + 1}
              </span>
              <div className="min-w-0 flex-1">
                {duplicate && (
                  <Badge variant="warning" className="mb-1.5">
                    <CopyX aria-hidden />
                    {duplicateText(duplicate)}
                  </Badge>
                )}
                <p className="text-sm font-semibold break-words">{entry.question}</p>
                <p className="mt-1 line-clamp-3 text-sm break-words whitespace-pre-line text-slate-600">
                  {entry.answer}
                </p>
                <div className="mt-2 flex flex-wrap items-center gap-1.5">
                  {entry.tags.map((tag) => (
                    <Badge key={tag} variant="outline" className="font-normal">
                      {tag}
                    </Badge>
                  ))}
                  <span className="text-xs text-muted-foreground">Confidence: {entry.confidence}%</span>
                </div>
              </div>
              <Button
                variant="ghost"
                size="icon"
                className="size-8 shrink-0 text-muted-foreground"
                onClick={() => remove(key)}
                disabled={pending}
                aria-label={`Remove entry ${String(index + 1)}`}
              >
                <X aria-hidden />
              </Button>
            </li>
          );
        })}
        {rows.length > visible && (
          <li className="flex justify-center py-2">
            <Button variant="outline" size="sm" onClick={() => setVisible((v) => v + PREVIEW_PAGE)}>
              Show {formatNumber(Math.min(PREVIEW_PAGE, rows.length - visible))} more (
              {formatNumber(rows.length - visible)} not shown)
            </Button>
          </li>
        )}
      </ol>

      {progress !== null && (
        <div className="grid gap-1.5" aria-live="polite">
          <Progress value={progress} aria-label="Import progress" />
          <p className="text-xs text-muted-foreground">{progressLabel(progress)}</p>
        </div>
      )}
      {!canImport && (
        <p className="text-sm text-muted-foreground">Only managers and admins can import Q&amp;A entries.</p>
      )}

      <DialogFooter>
        <Button variant="outline" onClick={onClose} disabled={pending}>
          Cancel
        </Button>
        <Button onClick={startImport} disabled={!canImport || ready === 0 || pending || checking}>
          {pending || checking ? <LoaderCircle className="animate-spin" aria-hidden /> : <Upload aria-hidden />}
          {importButtonLabel(ready)}
        </Button>
      </DialogFooter>
    </>
  );
}
