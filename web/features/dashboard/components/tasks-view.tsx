import { useState } from 'react';
import { Link } from 'react-router';
import { BookPlus, ListTodo, X } from 'lucide-react';
import { CreateAnswerDialog } from '../../../app/knowledge/create-answer-dialog';
import { Button } from '../../../components/ui/button';
import { LoadError } from '../../../components/ui/load-error';
import { EmptyState } from '../../../components/ui/empty-state';
import { Spinner } from '../../../components/ui/spinner';
import { toastError } from '../../../components/ui/use-toast';
import { formatDateTime, formatNumber } from '../../../lib/format';
import { paths } from '../../../paths';
import { useCan } from '../../../app/me/use-can';
import { useAllTasks, type PendingTask } from '../api/get-pending-tasks';
import { useDismissTask } from '../api/dismiss-task';
import { PriorityBadge } from './priority-badge';

interface TaskRowProps {
  task: PendingTask;
  onAdd: ((task: PendingTask) => void) | undefined;
  onDismiss: ((task: PendingTask) => void) | undefined;
  dismissing: boolean;
}

function TaskRow({ task, onAdd, onDismiss, dismissing }: TaskRowProps) {
  return (
    <article
      aria-label={task.title}
      className="flex flex-wrap items-start gap-4 rounded-xl border bg-background p-4 shadow-sm"
    >
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-center gap-2 text-xs text-muted-foreground">
          <PriorityBadge priority={task.priority} />
          <span>Asked {formatDateTime(task.askedAt)}</span>
          {task.askCount > 1 && <span>· asked {formatNumber(task.askCount)} times</span>}
          {task.assignee && <span>· Assigned to {task.assignee}</span>}
        </div>
        <h3 className="mt-2 text-sm leading-snug font-semibold break-words">{task.title}</h3>
        <p className="mt-1 text-xs text-muted-foreground">No approved answer or document covers this question yet.</p>
      </div>
      <div className="flex flex-wrap items-center gap-2 self-center">
        {onAdd && (
          <Button variant="outline" size="sm" onClick={() => onAdd(task)}>
            <BookPlus aria-hidden />
            Add to library
          </Button>
        )}
        {onDismiss && (
          <Button
            variant="ghost"
            size="sm"
            onClick={() => onDismiss(task)}
            disabled={dismissing}
            title="Not a question anyone needs to answer: remove it until it is asked again"
          >
            <X aria-hidden />
            Dismiss
          </Button>
        )}
      </div>
    </article>
  );
}

/** Tasks mode of the main workspace page: every question the workspace could not answer, to be added to the library. */
export function TasksView() {
  const query = useAllTasks();
  const canAdd = useCan('knowledge:create_draft');
  const canApprove = useCan('knowledge:approve');
  const [adding, setAdding] = useState<PendingTask | null>(null);
  const dismiss = useDismissTask();
  const onDismiss = (task: PendingTask) =>
    dismiss.mutate(task.id, { onError: (error) => toastError(error, 'Could not dismiss the task.', 'Dismiss failed') });
  const tasks = query.data?.pages.flatMap((page) => page.tasks) ?? [];
  // Open tasks in all pages, not only those loaded so far.
  const total = query.data?.pages.at(-1)?.total ?? tasks.length;

  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <header className="border-b px-4 pt-6 pb-4 md:px-8 md:pt-8">
        <h1 className="text-2xl font-semibold tracking-tight">Pending Tasks</h1>
        <p className="mt-1 text-sm text-muted-foreground">
          Questions nobody has answered yet. Add each answer to the library and it is reused from then on.
        </p>
      </header>
      <div className="min-h-0 flex-1 overflow-y-auto bg-surface/60 px-4 py-6 md:px-8">
        {query.isPending ? (
          <div className="flex justify-center py-16">
            <Spinner className="size-6" label="Loading tasks" />
          </div>
        ) : query.isError && tasks.length === 0 ? (
          <LoadError error={query.error} fallback="Could not load the tasks." onRetry={() => void query.refetch()} />
        ) : tasks.length === 0 && !query.hasNextPage ? (
          <EmptyState
            icon={<ListTodo aria-hidden />}
            title="No pending tasks"
            description="Complete tasks will appear here. Questions that no library entry or document answers show up as tasks."
            actions={
              <Button variant="outline" asChild>
                <Link to={paths.dashboard}>Ask a question</Link>
              </Button>
            }
          />
        ) : (
          <div className="grid gap-3">
            <p className="text-sm text-muted-foreground" aria-live="polite">
              {formatNumber(total)} {total === 1 ? 'question needs' : 'questions need'} an answer
            </p>
            <ul className="grid gap-3" aria-label="Pending tasks">
              {tasks.map((task) => (
                <li key={task.id}>
                  <TaskRow
                    task={task}
                    onAdd={canAdd ? setAdding : undefined}
                    onDismiss={canAdd ? onDismiss : undefined}
                    dismissing={dismiss.isPending && dismiss.variables === task.id}
                  />
                </li>
              ))}
            </ul>
            {query.hasNextPage && (
              <Button
                variant="outline"
                className="justify-self-center"
                onClick={() => void query.fetchNextPage()}
                disabled={query.isFetchingNextPage}
              >
                {query.isFetchingNextPage && <Spinner className="size-4" label="Loading more tasks" />}
                Load more
              </Button>
            )}
          </div>
        )}
      </div>
      {/*
        Saving the entry invalidates 'organization-stats' (use-create-canonical-answer.ts), the root of the task
        lists too: the server checks the questions against the library again, and the task leaves the list and the
        Quick Stats count together.
      */}
      {adding && (
        <CreateAnswerDialog
          key={adding.id}
          open
          onOpenChange={(open) => !open && setAdding(null)}
          asDraft={!canApprove}
          defaultQuestion={adding.title}
        />
      )}
    </div>
  );
}
