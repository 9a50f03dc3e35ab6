import { useEffect, useMemo, useRef } from 'react';
import { CircleAlert, FileSearch } from 'lucide-react';
import type { DocumentChunkView, DocumentView } from '../../../../common/schemas/documents';
import { Alert, AlertDescription } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { LoadError } from '../../../components/ui/load-error';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '../../../components/ui/dialog';
import { Spinner } from '../../../components/ui/spinner';
import { errorMessage } from '../../../lib/api';
import { cn } from '../../../lib/cn';
import { formatNumber } from '../../../lib/format';
import { useDocumentChunks } from '../api/get-document-chunks';
import { readableChunkText } from '../chunk-text';
import { findCitedChunk, hasCitation, NO_CITATION, splitAtPassage, type CitedPassage } from '../cited-passage';

interface ChunkGroup {
  key: string;
  /** 'Page 3 · Access control'; empty when the format has neither pages nor headings. */
  heading: string;
  chunks: DocumentChunkView[];
}

function headingOf(chunk: DocumentChunkView): string {
  const parts: string[] = [];
  if (chunk.page !== null) parts.push(`Page ${String(chunk.page)}`);
  if (chunk.section) parts.push(chunk.section);
  return parts.join(' · ');
}

/** Consecutive chunks of the same page and section read as one passage under one heading. */
function groupChunks(chunks: DocumentChunkView[]): ChunkGroup[] {
  const groups: ChunkGroup[] = [];
  for (const chunk of chunks) {
    const heading = headingOf(chunk);
    const last = groups.at(-1);
    if (last && last.heading === heading) last.chunks.push(chunk);
    else groups.push({ key: String(chunk.ordinal), heading, chunks: [chunk] });
  }
  return groups;
}

/** Pages of text fetched in search of a cited passage before giving up on it (5,000 chunks). */
const MAX_PAGES_SEARCHED = 25;

/** A chunk's text with the cited words marked, when they are in it. */
function ChunkText({ text, passage, cited }: { text: string; passage: string | null; cited: boolean }) {
  const parts = cited ? splitAtPassage(text, passage) : null;
  if (!parts) return text;
  const [before, quote, after] = parts;
  return (
    <>
      {before}
      <mark className="rounded-sm bg-amber-200 px-0.5 text-slate-900">{quote}</mark>
      {after}
    </>
  );
}

function ExtractedText({ document, cited }: { document: DocumentView; cited: CitedPassage }) {
  const query = useDocumentChunks(document.id, { enabled: document.status === 'ready' });
  const chunks = useMemo(() => query.data?.pages.flatMap((page) => page.items) ?? [], [query.data]);
  const groups = useMemo(() => groupChunks(chunks), [chunks]);
  const total = query.data?.pages.at(-1)?.total ?? 0;
  const target = useMemo(() => findCitedChunk(chunks, cited), [chunks, cited]);
  const focusRef = useRef<HTMLParagraphElement>(null);
  const scrolledTo = useRef<number | null>(null);
  const pagesLoaded = query.data?.pages.length ?? 0;
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = query;

  // A cited passage on a later page of the text: read on until it is found.
  useEffect(() => {
    if (target !== null || !hasCitation(cited) || !hasNextPage || isFetchingNextPage) return;
    if (pagesLoaded >= MAX_PAGES_SEARCHED) return;
    void fetchNextPage();
  }, [target, cited, hasNextPage, isFetchingNextPage, pagesLoaded, fetchNextPage]);

  // The cited passage is scrolled into view once, when its text has loaded; later renders leave the reader's
  // scroll alone.
  useEffect(() => {
    if (target === null || scrolledTo.current === target) return;
    scrolledTo.current = target;
    focusRef.current?.scrollIntoView({ block: 'center' });
  }, [target]);

  if (document.status === 'processing') {
    return (
      <div className="flex flex-col items-center gap-3 py-16 text-center text-sm text-muted-foreground">
        <Spinner className="size-6" label="Processing" />
        The text is still being extracted. It appears here as soon as processing finishes.
      </div>
    );
  }
  if (document.status === 'failed') {
    return (
      <Alert variant="destructive">
        <CircleAlert aria-hidden />
        <AlertDescription>{document.error ?? 'The text could not be extracted from this file.'}</AlertDescription>
      </Alert>
    );
  }
  if (query.isPending) {
    return (
      <div className="flex justify-center py-16">
        <Spinner className="size-6" label="Loading the text" />
      </div>
    );
  }
  if (query.isError && chunks.length === 0) {
    return <LoadError error={query.error} fallback="Could not load the text." onRetry={() => void query.refetch()} />;
  }
  if (chunks.length === 0) {
    return (
      <div className="flex flex-col items-center gap-2 py-16 text-center text-sm text-muted-foreground">
        <FileSearch className="size-6" aria-hidden />
        No text was found in this document.
      </div>
    );
  }

  return (
    <div className="grid gap-5">
      {groups.map((group) => {
        const holdsTarget = group.chunks.some((chunk) => chunk.ordinal === target);
        return (
          <section
            key={group.key}
            aria-label={group.heading || undefined}
            className={holdsTarget ? '-mx-3 rounded-lg bg-accent/60 px-3 py-2' : undefined}
          >
            {group.heading && (
              <h3 className="mb-1.5 text-xs font-semibold tracking-wide text-primary uppercase">{group.heading}</h3>
            )}
            <div className="grid gap-2">
              {group.chunks.map((chunk) => {
                const isTarget = chunk.ordinal === target;
                const text = readableChunkText(chunk.text, chunk.section);
                // A chunk that held only its section's heading has nothing left to show but may still be cited.
                if (text === '' && !isTarget) return null;
                return (
                  // Plain text on purpose: extracted HTML or Markdown must never render as markup.
                  <p
                    key={chunk.ordinal}
                    ref={isTarget ? focusRef : undefined}
                    aria-current={isTarget ? 'location' : undefined}
                    className={cn(
                      'scroll-mt-2 text-sm leading-relaxed break-words whitespace-pre-wrap text-slate-700',
                      isTarget && '-mx-1.5 rounded-md bg-background px-1.5 py-1 ring-2 ring-amber-300',
                    )}
                  >
                    <ChunkText text={text} passage={cited.passage} cited={isTarget} />
                  </p>
                );
              })}
            </div>
          </section>
        );
      })}
      {/* The count only matters once the text is longer than one request's worth. */}
      {(query.hasNextPage || (query.data?.pages.length ?? 0) > 1) && (
        <div className="flex flex-col items-center gap-2 border-t pt-4 text-xs text-muted-foreground">
          <span>
            Showing {formatNumber(chunks.length)} of {formatNumber(total)} text chunks
          </span>
          {query.hasNextPage && (
            <Button
              variant="outline"
              size="sm"
              onClick={() => void query.fetchNextPage()}
              disabled={query.isFetchingNextPage}
            >
              {query.isFetchingNextPage && <Spinner className="size-4" label="Loading more text" />}
              Load more
            </Button>
          )}
          {query.isFetchNextPageError && (
            <p role="alert" className="text-destructive">
              {errorMessage(query.error, 'Could not load more text.')}
            </p>
          )}
        </div>
      )}
    </div>
  );
}

interface DocumentTextDialogProps {
  document: DocumentView | null;
  /** The passage an answer cites, to scroll to and mark; none opens at the top. */
  cited?: CitedPassage;
  onClose: () => void;
}

/** The text Verity extracted from a document, by page and section: what answers can cite from it. */
export function DocumentTextDialog({ document, cited = NO_CITATION, onClose }: DocumentTextDialogProps) {
  return (
    <Dialog open={document !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="flex max-h-[85vh] max-w-3xl flex-col gap-0 overflow-hidden p-0">
        <DialogHeader className="border-b px-6 pt-6 pb-4">
          <DialogTitle className="break-all">{document?.originalName}</DialogTitle>
          <DialogDescription>
            Extracted text
            {document?.status === 'ready' &&
              ` · ${formatNumber(document.extractedChunks)} ${document.extractedChunks === 1 ? 'chunk' : 'chunks'}`}
            {document?.pageCount
              ? ` · ${formatNumber(document.pageCount)} ${document.pageCount === 1 ? 'page' : 'pages'}`
              : ''}
          </DialogDescription>
        </DialogHeader>
        <div className="min-h-0 flex-1 overflow-y-auto px-6 py-5">
          {document && <ExtractedText key={document.id} document={document} cited={cited} />}
        </div>
      </DialogContent>
    </Dialog>
  );
}
