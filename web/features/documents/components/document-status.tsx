import { CircleAlert, CircleCheck } from 'lucide-react';
import type { DocumentView } from '../../../../common/schemas/documents';
import { Spinner } from '../../../components/ui/spinner';
import { formatNumber } from '../../../lib/format';

function chunkCount(count: number): string {
  return `${formatNumber(count)} text ${count === 1 ? 'chunk' : 'chunks'}`;
}

/** Where the document's text extraction stands: processing, ready with its chunk count, or failed with why. */
export function DocumentStatus({
  document,
}: {
  document: Pick<DocumentView, 'status' | 'extractedChunks' | 'error' | 'pageCount'>;
}) {
  if (document.status === 'processing') {
    return (
      <p className="flex items-center gap-1.5 text-xs text-muted-foreground">
        <Spinner className="size-3.5" label="Processing" />
        Processing: extracting text...
      </p>
    );
  }
  if (document.status === 'failed') {
    return (
      <p className="flex items-start gap-1.5 text-xs text-red-700">
        <CircleAlert className="mt-px size-3.5 shrink-0" aria-hidden />
        <span>
          <span className="font-medium">Processing failed:</span> {document.error ?? 'The text could not be extracted.'}
        </span>
      </p>
    );
  }
  return (
    <p className="flex items-center gap-1.5 text-xs text-emerald-700">
      <CircleCheck className="size-3.5 shrink-0" aria-hidden />
      Processed: {chunkCount(document.extractedChunks)} extracted
      {document.pageCount !== null && document.pageCount > 0 && (
        <span className="text-muted-foreground">
          {' '}
          · {formatNumber(document.pageCount)} {document.pageCount === 1 ? 'page' : 'pages'}
        </span>
      )}
    </p>
  );
}
