import { RotateCcwClock } from 'lucide-react';
import { Spinner } from '../../../components/ui/spinner';
import { errorMessage } from '../../../lib/api';
import { formatDateTime } from '../../../lib/format';
import { useAnswerVersions } from '../api/get-answer-versions';
import { StatusBadge } from './status-badge';

/** Earlier versions of an entry, newest first, each with who replaced it and when. */
export function VersionHistory({ answerId }: { answerId: string }) {
  const versions = useAnswerVersions(answerId);

  return (
    <section aria-labelledby="version-history-heading" className="grid gap-3 border-t pt-4">
      <h3 id="version-history-heading" className="flex items-center gap-2 text-sm font-semibold">
        <RotateCcwClock className="size-4 text-muted-foreground" aria-hidden />
        History
      </h3>
      {versions.isPending ? (
        <Spinner className="size-4" label="Loading history" />
      ) : versions.isError ? (
        <p role="alert" className="text-sm text-destructive">
          {errorMessage(versions.error, 'Could not load the history.')}
        </p>
      ) : versions.data.length === 0 ? (
        <p className="text-sm text-muted-foreground">No earlier versions. Changes you save will be listed here.</p>
      ) : (
        <ol className="grid gap-2">
          {versions.data.map((version) => (
            <li key={version.version} className="rounded-lg border bg-surface p-3 text-sm">
              <div className="flex flex-wrap items-center justify-between gap-2 text-xs text-muted-foreground">
                <span className="font-medium text-foreground">Version {version.version}</span>
                <span>
                  Replaced {formatDateTime(version.replacedAt)}
                  {version.replacedBy ? ` by ${version.replacedBy.username}` : ''}
                </span>
              </div>
              <p className="mt-2 font-medium break-words">{version.question}</p>
              <p className="mt-1 line-clamp-4 break-words whitespace-pre-line text-slate-600">{version.answer}</p>
              <div className="mt-2 flex flex-wrap items-center gap-1.5 text-xs text-muted-foreground">
                <StatusBadge status={version.status} />
                {version.tags.length > 0 && <span>Tags: {version.tags.join(', ')}</span>}
                {version.owner && <span>· Owner: {version.owner.username}</span>}
              </div>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
