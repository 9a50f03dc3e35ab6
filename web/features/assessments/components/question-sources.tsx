import { Link } from 'react-router';
import { BookOpen, FileText } from 'lucide-react';
import type { AssessmentQuestionView } from '../../../../common/schemas/assessments';
import { paths } from '../../../paths';
import { documentPassagePath } from '../../../lib/source-links';

type Source = AssessmentQuestionView['sources'][number];

function sourceLink(source: Source): string {
  if (source.type === 'library') {
    return `${paths.library}?${new URLSearchParams(source.question ? { q: source.question } : {}).toString()}`;
  }
  return documentPassagePath(source);
}

/** What the chip stands for, in full, for its tooltip and screen readers. */
function sourceTitle(source: Source): string {
  if (source.type === 'library') return `Library: ${source.question ?? 'library entry'}`;
  const page = source.pageNumber ? `, page ${String(source.pageNumber)}` : '';
  return `${source.name ?? 'Document'}${page}`;
}

/** The document and page, or the library question, short enough for a chip. */
function shortName(source: Source): string {
  if (source.type === 'library') return source.question ?? '';
  return `${source.name ?? ''}${source.pageNumber ? ` p. ${String(source.pageNumber)}` : ''}`;
}

/**
 * Each source with how closely it matches the question ('Library · 90% match'), leading to the text it cites. The
 * word 'match' keeps it apart from the answer's confidence beside it: a source may match the question at 90% while
 * the answer built on it is less certain. A person's citation has no figure of the engine's: `cited` shows none.
 */
export function QuestionSources({ sources, cited = false }: { sources: readonly Source[]; cited?: boolean }) {
  if (sources.length === 0) return null;
  return (
    <ul className="flex flex-wrap items-center gap-1.5" aria-label={cited ? 'Cited source' : 'Sources'}>
      {cited && <li className="text-xs text-muted-foreground">Cites</li>}
      {sources.map((source, index) => {
        const Icon = source.type === 'library' ? BookOpen : FileText;
        const title = sourceTitle(source);
        return (
          <li
            className="min-w-0 max-w-full"
            key={`${source.canonicalAnswerId ?? source.documentId ?? ''}-${String(index)}`}
          >
            <Link
              to={sourceLink(source)}
              // The visible words are its name (a screen reader hears what is shown); the title adds the full text.
              title={title}
              className="flex max-w-full items-center gap-1 rounded-full border bg-surface px-2 py-0.5 text-xs text-slate-700 tabular-nums outline-none hover:border-indigo-300 hover:text-primary focus-visible:ring-2 focus-visible:ring-ring"
            >
              <Icon className="size-3 shrink-0" aria-hidden />
              <span className="shrink-0">
                {source.type === 'library' ? 'Library' : 'Doc'}
                {!cited && ` · ${String(source.confidence)}% match`}
              </span>
              <span className="max-w-72 min-w-0 truncate text-muted-foreground">{shortName(source)}</span>
            </Link>
          </li>
        );
      })}
    </ul>
  );
}
