import { useState } from 'react';
import { CircleCheck, FilePen, LoaderCircle, Upload, X } from 'lucide-react';
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
import { formatNumber } from '../../../lib/format';
import { useImportCanonicalAnswers } from '../api/import-canonical-answers';

/** Entries rendered at once; a 10,000-row sheet is previewed a slice at a time instead of freezing the tab. */
const PREVIEW_PAGE = 100;

type ImportStatus = NonNullable<ImportBody['status']>;

interface PreviewRow {
  key: number;
  entry: ParsedEntry;
}

interface ImportPreviewDialogProps {
  /** The parsed entries; null closes the dialog. */
  entries: ParsedEntry[] | null;
  canImport: boolean;
  onClose: () => void;
  onImported: () => void;
}

function importedToast(result: ImportResult) {
  const skipped =
    result.skipped > 0
      ? `${formatNumber(result.skipped)} ${result.skipped === 1 ? 'entry was' : 'entries were'} skipped because ${result.skipped === 1 ? 'its question is' : 'their questions are'} already in the library.`
      : undefined;
  if (result.imported === 0) {
    toast({ title: 'Nothing was imported', description: skipped });
    return;
  }
  toast({
    title: `Imported ${formatNumber(result.imported)} canonical answers successfully`,
    description: skipped,
    variant: 'success',
  });
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
  onImported: () => void;
}

function PreviewBody({ entries, canImport, importMutation, onClose, onImported }: PreviewBodyProps) {
  const [rows, setRows] = useState<PreviewRow[]>(() => entries.map((entry, key) => ({ key, entry })));
  const [visible, setVisible] = useState(PREVIEW_PAGE);
  const [status, setStatus] = useState<ImportStatus>('approved');
  const [progress, setProgress] = useState<number | null>(null);
  const pending = importMutation.isPending;
  const count = rows.length;

  const remove = (key: number) => setRows((current) => current.filter((row) => row.key !== key));

  const startImport = () => {
    const body: ImportBody = { entries: rows.map((row) => row.entry), status };
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
          importedToast(result);
          onImported();
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
          {count === 0
            ? 'Every entry has been removed. Close the preview to change the content.'
            : `${formatNumber(count)} ${count === 1 ? 'entry is' : 'entries are'} ready to import. Remove any you do not want.`}
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
        {rows.slice(0, visible).map(({ key, entry }, index) => (
          <li key={key} className="flex gap-3 rounded-md border bg-background p-3">
            <span className="w-6 shrink-0 pt-0.5 text-right text-xs text-muted-foreground tabular-nums">
              {index + 1}
            </span>
            <div className="min-w-0 flex-1">
              <p className="text-sm font-semibold break-words">{entry.question}</p>
              <p className="mt-1 line-clamp-3 text-sm break-words whitespace-pre-line text-slate-600">{entry.answer}</p>
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
        ))}
        {count > visible && (
          <li className="flex justify-center py-2">
            <Button variant="outline" size="sm" onClick={() => setVisible((v) => v + PREVIEW_PAGE)}>
              Show {formatNumber(Math.min(PREVIEW_PAGE, count - visible))} more ({formatNumber(count - visible)} not
              shown)
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
        <Button onClick={startImport} disabled={!canImport || count === 0 || pending}>
          {pending ? <LoaderCircle className="animate-spin" aria-hidden /> : <Upload aria-hidden />}
          Import {formatNumber(count)} Answers
        </Button>
      </DialogFooter>
    </>
  );
}
