import { memo } from 'react';
import { Download, ScanText, Trash2 } from 'lucide-react';
import type { DocumentView } from '../../../../common/schemas/documents';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Checkbox } from '../../../components/ui/checkbox';
import { Spinner } from '../../../components/ui/spinner';
import { TagButtons } from '../../../components/ui/tag-buttons';
import { cn } from '../../../lib/cn';
import { formatDate, formatFileSize } from '../../../lib/format';
import { DOCUMENT_KINDS } from '../document-kinds';
import { DocumentStatus } from './document-status';

export interface DocumentCardHandlers {
  onToggleSelect: (id: string, selected: boolean) => void;
  onRead: (document: DocumentView) => void;
  onDownload: (document: DocumentView) => void;
  onDelete: (document: DocumentView) => void;
  onTagClick: (tag: string) => void;
}

interface DocumentCardProps {
  document: DocumentView;
  selected: boolean;
  /** A download of this document is running. */
  downloading: boolean;
  canDelete: boolean;
  handlers: DocumentCardHandlers;
}

/**
 * The specification document card: icon by type, name, upload date, size, type badge, tags and processing state, with read,
 * download and (managers and admins) delete. Memoized: polling re-renders only the cards whose data changed.
 */
export const DocumentCard = memo(function DocumentCard({
  document,
  selected,
  downloading,
  canDelete,
  handlers,
}: DocumentCardProps) {
  const kind = DOCUMENT_KINDS[document.kind];
  const Icon = kind.icon;
  const nameId = `document-${document.id}-name`;
  const name = document.originalName;

  return (
    <article
      aria-labelledby={nameId}
      className={cn(
        'rounded-xl border bg-background p-4 shadow-sm transition-colors',
        selected && 'border-indigo-300 bg-accent/40',
      )}
    >
      <div className="flex items-start gap-3">
        <Checkbox
          className="mt-3"
          checked={selected}
          onCheckedChange={(checked) => handlers.onToggleSelect(document.id, checked === true)}
          aria-label={`Select ${name}`}
        />
        <span className={cn('flex size-10 shrink-0 items-center justify-center rounded-lg', kind.tile)}>
          <Icon className="size-5" aria-hidden />
        </span>
        <div className="min-w-0 flex-1">
          <div className="flex items-start justify-between gap-3">
            <div className="min-w-0">
              <h3 id={nameId} className="text-sm leading-snug font-semibold">
                <button
                  type="button"
                  className="text-left break-all outline-none hover:text-primary focus-visible:underline"
                  onClick={() => handlers.onRead(document)}
                  title="Read the extracted text"
                >
                  {name}
                </button>
              </h3>
              <p className="mt-0.5 flex flex-wrap items-center gap-x-1.5 text-xs text-muted-foreground">
                <span>Uploaded {formatDate(document.uploadedAt)}</span>
                <span aria-hidden>·</span>
                <span>{formatFileSize(document.size)}</span>
                {document.uploadedBy && (
                  <>
                    <span aria-hidden>·</span>
                    <span>by {document.uploadedBy.username}</span>
                  </>
                )}
              </p>
            </div>
            <div className="-mt-1 -mr-2 flex shrink-0 items-center gap-0.5">
              <Badge variant="outline" className="mr-1">
                {kind.label}
              </Badge>
              <Button
                variant="ghost"
                size="icon"
                onClick={() => handlers.onRead(document)}
                aria-label={`Read the text of ${name}`}
                title="Read extracted text"
              >
                <ScanText aria-hidden />
              </Button>
              <Button
                variant="ghost"
                size="icon"
                onClick={() => handlers.onDownload(document)}
                disabled={downloading}
                aria-label={`Download ${name}`}
                title="Download"
              >
                {downloading ? <Spinner className="size-4" label="Downloading" /> : <Download aria-hidden />}
              </Button>
              {canDelete && (
                <Button
                  variant="ghost"
                  size="icon"
                  className="text-muted-foreground hover:bg-red-50 hover:text-destructive"
                  onClick={() => handlers.onDelete(document)}
                  aria-label={`Delete ${name}`}
                  title="Delete"
                >
                  <Trash2 aria-hidden />
                </Button>
              )}
            </div>
          </div>
          <TagButtons
            tags={document.tags}
            onTagClick={handlers.onTagClick}
            titleOf={(tag) => `Show documents tagged "${tag}"`}
            className="mt-2"
          />
          <div className="mt-2.5">
            <DocumentStatus document={document} />
          </div>
        </div>
      </div>
    </article>
  );
});
