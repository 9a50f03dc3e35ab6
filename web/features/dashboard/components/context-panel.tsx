import type { ReactNode } from 'react';
import { Link, useLocation } from 'react-router';
import { ChevronRight, ListTodo, Sparkles, Tags, X } from 'lucide-react';
import type { TopMatch } from '../../../../common/schemas/qa';
import { Spinner } from '../../../components/ui/spinner';
import { cn } from '../../../lib/cn';
import { formatDate, formatNumber, formatPercent } from '../../../lib/format';
import { paths, TASKS_MODE_STATE } from '../../../paths';
import { useCan } from '../../../app/me/use-can';
import { toastError } from '../../../components/ui/use-toast';
import { usePanelTasks, type PendingTask } from '../api/get-pending-tasks';
import { useDismissTask } from '../api/dismiss-task';
import { usePopularTags } from '../api/get-popular-tags';
import { PriorityBadge } from './priority-badge';

interface PanelSectionProps {
  id: string;
  title: string;
  icon: ReactNode;
  action?: ReactNode;
  children: ReactNode;
}

function PanelSection({ id, title, icon, action, children }: PanelSectionProps) {
  return (
    <section aria-labelledby={id} className="grid gap-2">
      <div className="flex items-center justify-between gap-2">
        <h3
          id={id}
          className="flex items-center gap-2 text-sm font-semibold [&_svg]:size-4 [&_svg]:text-muted-foreground"
        >
          {icon}
          {title}
        </h3>
        {action}
      </div>
      {children}
    </section>
  );
}

function EmptyText({ children }: { children: ReactNode }) {
  return (
    <p className="rounded-lg border border-dashed bg-background px-3 py-4 text-center text-xs leading-relaxed text-muted-foreground">
      {children}
    </p>
  );
}

function SectionLoading({ label }: { label: string }) {
  return (
    <div className="flex justify-center rounded-lg border border-dashed bg-background py-4">
      <Spinner className="size-4" label={label} />
    </div>
  );
}

/** PRODUCT §12 match badge: 90 or more green, 75 or more amber, else grey. */
function matchTone(similarity: number): string {
  if (similarity >= 90) return 'bg-emerald-100 text-emerald-800';
  if (similarity >= 75) return 'bg-amber-100 text-amber-800';
  return 'bg-muted text-slate-700';
}

function libraryLink(params: Record<string, string>): string {
  return `${paths.library}?${new URLSearchParams(params).toString()}`;
}

const cardClass = 'rounded-lg border bg-background p-3 shadow-xs';

function TopMatches({ lastAsked }: { lastAsked: LastAsked | null }) {
  const canAsk = useCan('qa:ask');
  // The panel shows only once the workspace has entries or documents: what to do next is ask, or for a viewer
  // (who cannot ask) search the library.
  if (!lastAsked && canAsk) return <EmptyText>Ask a question to see the closest library entries here.</EmptyText>;
  if (!lastAsked) {
    return (
      <EmptyText>
        <Link to={paths.library} className="font-medium text-primary underline-offset-2 hover:underline">
          Search the library
        </Link>{' '}
        to read approved answers.
      </EmptyText>
    );
  }
  if (lastAsked.matches.length === 0) return <EmptyText>No library entries are close to the last question.</EmptyText>;
  return (
    <div className="grid gap-2">
      <p className="truncate text-xs text-muted-foreground" title={lastAsked.question}>
        For “{lastAsked.question}”
      </p>
      <ul className="grid gap-2" aria-label={`Matches for "${lastAsked.question}"`}>
        {lastAsked.matches.map((match) => (
          <li key={match.id} className={cardClass}>
            <div className="flex items-start gap-2">
              <p className="line-clamp-2 min-w-0 flex-1 text-sm leading-snug font-medium break-words">
                {match.question}
              </p>
              <span
                className={cn(
                  'shrink-0 rounded-full px-2 py-0.5 text-xs font-semibold tabular-nums',
                  matchTone(match.similarity),
                )}
                aria-label={`${formatPercent(match.similarity)} match`}
              >
                {formatPercent(match.similarity)}
              </span>
            </div>
            <div className="mt-2 flex items-center justify-between gap-2 text-xs text-muted-foreground">
              <span>Updated {formatDate(match.lastUpdated)}</span>
              <Link
                to={libraryLink({ q: match.question })}
                className="flex items-center rounded-sm font-medium text-primary outline-none hover:underline focus-visible:ring-2 focus-visible:ring-ring"
                aria-label={`View "${match.question}" in the library`}
              >
                View
                <ChevronRight className="size-3.5" aria-hidden />
              </Link>
            </div>
          </li>
        ))}
      </ul>
    </div>
  );
}

function TaskCard({ task, onDismiss }: { task: PendingTask; onDismiss: (() => void) | undefined }) {
  return (
    <li className={cardClass}>
      <div className="flex items-center justify-between gap-2">
        <PriorityBadge priority={task.priority} />
        <span className="ml-auto text-xs text-muted-foreground">Asked {formatDate(task.askedAt)}</span>
        {onDismiss && (
          <button
            type="button"
            onClick={onDismiss}
            className="-mr-1 rounded-sm p-0.5 text-muted-foreground outline-none hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring"
            aria-label={`Dismiss "${task.title}"`}
            title="Dismiss: not a question anyone needs to answer"
          >
            <X className="size-3.5" aria-hidden />
          </button>
        )}
      </div>
      <p className="mt-2 line-clamp-2 text-sm leading-snug font-medium break-words">{task.title}</p>
      {task.assignee && <p className="mt-1 text-xs text-muted-foreground">Assigned to {task.assignee}</p>}
    </li>
  );
}

function PendingTasks() {
  const tasks = usePanelTasks();
  const canDismiss = useCan('knowledge:create_draft');
  const dismiss = useDismissTask();
  if (tasks.isPending) return <SectionLoading label="Loading tasks" />;
  // Like the tags below: a side panel that failed to load says it has nothing rather than shouting.
  if (tasks.isError || tasks.data.length === 0) return <EmptyText>Complete tasks will appear here</EmptyText>;
  return (
    <ul className="grid gap-2" aria-label="Pending tasks">
      {tasks.data.map((task) => (
        <TaskCard
          key={task.id}
          task={task}
          onDismiss={
            canDismiss
              ? () =>
                  dismiss.mutate(task.id, {
                    onError: (error) => toastError(error, 'Could not dismiss the task.', 'Dismiss failed'),
                  })
              : undefined
          }
        />
      ))}
    </ul>
  );
}

function PopularTags() {
  const tags = usePopularTags();
  if (tags.isPending) return <SectionLoading label="Loading tags" />;
  if (tags.isError || tags.data.length === 0) return <EmptyText>No tags available</EmptyText>;
  return (
    <ul className="flex flex-wrap gap-1.5" aria-label="Popular tags">
      {tags.data.map(({ tag, count }) => (
        <li key={tag}>
          <Link
            to={libraryLink({ tag })}
            className="flex items-center gap-1 rounded-full border bg-background px-2.5 py-1 text-xs text-slate-700 outline-none hover:border-indigo-300 hover:text-primary focus-visible:ring-2 focus-visible:ring-ring"
            title={`Show library entries tagged "${tag}"`}
          >
            {tag}
            <span className="text-muted-foreground tabular-nums">{formatNumber(count)}</span>
          </Link>
        </li>
      ))}
    </ul>
  );
}

export interface LastAsked {
  question: string;
  matches: TopMatch[];
}

/**
 * PRODUCT "Context & Tasks panel": library entries close to the last question asked, the workspace's unanswered
 * questions as tasks, and the library's most used tags.
 */
export function ContextPanel({ lastAsked }: { lastAsked: LastAsked | null }) {
  const { pathname } = useLocation();
  return (
    <aside
      aria-labelledby="context-panel-heading"
      className="hidden w-80 shrink-0 flex-col gap-6 overflow-y-auto border-l bg-surface px-5 py-6 lg:flex"
    >
      <h2 id="context-panel-heading" className="text-base font-semibold">
        Context &amp; Tasks
      </h2>
      <PanelSection id="top-matches-heading" title="Top Matching Answers" icon={<Sparkles aria-hidden />}>
        <TopMatches lastAsked={lastAsked} />
      </PanelSection>
      <PanelSection
        id="pending-tasks-heading"
        title="Pending Tasks"
        icon={<ListTodo aria-hidden />}
        action={
          <Link
            to={pathname}
            state={TASKS_MODE_STATE}
            // A link to the current path replaces the entry by default; tasks mode needs its own so Back leaves it.
            replace={false}
            className="rounded-sm text-xs font-medium text-primary outline-none hover:underline focus-visible:ring-2 focus-visible:ring-ring"
          >
            View All
          </Link>
        }
      >
        <PendingTasks />
      </PanelSection>
      <PanelSection id="popular-tags-heading" title="Popular Tags" icon={<Tags aria-hidden />}>
        <PopularTags />
      </PanelSection>
    </aside>
  );
}
