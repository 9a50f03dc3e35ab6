import type { ReactNode } from 'react';
import { Link, useLocation } from 'react-router';
import { ListTodo, Sparkles, Tags } from 'lucide-react';
import { TASKS_MODE_STATE } from '../../../paths';

interface PanelSectionProps {
  id: string;
  title: string;
  icon: ReactNode;
  action?: ReactNode;
  emptyText: string;
}

function PanelSection({ id, title, icon, action, emptyText }: PanelSectionProps) {
  return (
    <section aria-labelledby={id} className="grid gap-2">
      <div className="flex items-center justify-between gap-2">
        <h3 id={id} className="flex items-center gap-2 text-sm font-semibold [&_svg]:size-4 [&_svg]:text-muted-foreground">
          {icon}
          {title}
        </h3>
        {action}
      </div>
      <p className="rounded-lg border border-dashed bg-background px-3 py-4 text-center text-xs leading-relaxed text-muted-foreground">
        {emptyText}
      </p>
    </section>
  );
}

/**
 * SPEC "Context & Tasks panel". Matches, tasks and tags have no source yet, so each section shows its empty text;
 * the lists arrive with the answer engine and task features.
 */
export function ContextPanel() {
  const { pathname } = useLocation();
  return (
    <aside aria-labelledby="context-panel-heading" className="hidden w-80 shrink-0 flex-col gap-6 overflow-y-auto border-l bg-surface px-5 py-6 lg:flex">
      <h2 id="context-panel-heading" className="text-base font-semibold">
        Context &amp; Tasks
      </h2>
      <PanelSection
        id="top-matches-heading"
        title="Top Matching Answers"
        icon={<Sparkles aria-hidden />}
        emptyText="Upload documents or add Q&A entries to see relevant matches here"
      />
      <PanelSection
        id="pending-tasks-heading"
        title="Pending Tasks"
        icon={<ListTodo aria-hidden />}
        action={
          <Link
            to={pathname}
            state={TASKS_MODE_STATE}
            className="rounded-sm text-xs font-medium text-primary outline-none hover:underline focus-visible:ring-2 focus-visible:ring-ring"
          >
            View All
          </Link>
        }
        emptyText="Complete tasks will appear here"
      />
      <PanelSection id="popular-tags-heading" title="Popular Tags" icon={<Tags aria-hidden />} emptyText="No tags available" />
    </aside>
  );
}
