import { Link } from 'react-router';
import { BookOpen, FileText } from 'lucide-react';
import type { AnswerSource } from '../../../../common/schemas/qa';
import { formatPercent } from '../../../lib/format';
import { paths } from '../../../paths';
import { documentPassagePath } from '../../../lib/source-links';

/** Where a source leads: the library searched for the entry's question, or the document's text at the cited passage. */
function sourceLink(source: AnswerSource): string {
  if (source.type === 'library') {
    const params = new URLSearchParams(source.question ? { q: source.question } : {});
    return `${paths.library}?${params.toString()}`;
  }
  return documentPassagePath(source);
}

function sourceTitle(source: AnswerSource): string {
  if (source.type === 'library') return source.question ?? 'Library entry';
  return source.name ?? 'Document';
}

/** 'Page 3 · Access control' for a document source; empty for the library. */
function sourcePlace(source: AnswerSource): string {
  if (source.type === 'library') return 'Knowledge Library';
  const parts: string[] = [];
  if (source.pageNumber) parts.push(`Page ${String(source.pageNumber)}`);
  if (source.section) parts.push(source.section);
  return parts.join(' · ');
}

/** The library entries or document passages an answer was taken from, each a link to read it in full. */
export function AnswerSources({ sources }: { sources: readonly AnswerSource[] }) {
  if (sources.length === 0) return null;
  return (
    <section aria-label="Sources" className="mt-4 border-t pt-3">
      <h4 className="text-xs font-medium tracking-wide text-muted-foreground uppercase">Sources ({sources.length})</h4>
      <ul className="mt-2 grid gap-2">
        {sources.map((source, index) => {
          const Icon = source.type === 'library' ? BookOpen : FileText;
          const place = sourcePlace(source);
          return (
            <li key={`${source.canonicalAnswerId ?? source.documentId ?? ''}-${String(index)}`}>
              <Link
                to={sourceLink(source)}
                className="group flex gap-2.5 rounded-lg border bg-surface px-3 py-2 text-sm outline-none hover:border-indigo-300 focus-visible:ring-2 focus-visible:ring-ring"
              >
                <Icon className="mt-0.5 size-4 shrink-0 text-muted-foreground group-hover:text-primary" aria-hidden />
                <span className="min-w-0 flex-1">
                  <span className="flex items-start justify-between gap-2">
                    <span className="min-w-0 font-medium wrap-anywhere group-hover:text-primary">
                      {sourceTitle(source)}
                    </span>
                    <span className="shrink-0 text-xs text-muted-foreground tabular-nums">
                      {formatPercent(source.score * 100)} match
                    </span>
                  </span>
                  {place && <span className="block text-xs text-muted-foreground">{place}</span>}
                  {source.snippet && (
                    // Plain text: a snippet of an uploaded file must never render as markup.
                    <span className="mt-1 line-clamp-2 block text-xs wrap-anywhere text-slate-600">
                      “{source.snippet}”
                    </span>
                  )}
                </span>
              </Link>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
