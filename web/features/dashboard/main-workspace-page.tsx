import { lazy, Suspense } from 'react';
import { useLocation } from 'react-router';
import { Spinner } from '../../components/ui/spinner';
import { workspaceModeOf } from '../../paths';
import { AskView } from '../ask/ask-view';
import { useLastAsked } from '../ask/use-last-asked';
import { useOrganizationStats } from '../../app/organization/get-organization-stats';
import { useWorkspace } from '../../app/workspace/use-workspace';
import { ContextPanel } from './components/context-panel';
import { TasksView } from './components/tasks-view';

// Its own chunk: the ask screen (the landing page) should not wait for the library's code.
const LibraryView = lazy(() => import('../library/library-view').then((m) => ({ default: m.LibraryView })));

function ModeFallback() {
  return (
    <div className="flex flex-1 items-center justify-center">
      <Spinner className="size-6" label="Loading page" />
    </div>
  );
}

/**
 * SPEC "Main workspace page" for /, /dashboard and /library. The mode comes from the URL (path, plus router state
 * for tasks), so the sidebar, reloads and Back all agree on it.
 */
export function MainWorkspacePage() {
  const location = useLocation();
  const mode = workspaceModeOf(location) ?? 'ask';
  const { currentWorkspace } = useWorkspace();
  const { data: stats } = useOrganizationStats();
  const lastAsked = useLastAsked();
  const hasKnowledge = Boolean(stats && (stats.canonicalCount > 0 || stats.documentCount > 0));

  return (
    <div className="flex min-h-0 flex-1">
      <div className="flex min-w-0 flex-1 flex-col">
        {mode === 'library' ? (
          <Suspense fallback={<ModeFallback />}>
            {/*
              Keyed by workspace: a switch starts from a clean search and selection, not the old workspace's ids.
              Keyed by the query too: a link from another screen (?q=, ?tag=) starts the library on that search.
            */}
            <LibraryView key={`${currentWorkspace?.id ?? 'none'}${location.search}`} />
          </Suspense>
        ) : mode === 'tasks' ? (
          <TasksView key={currentWorkspace?.id ?? 'none'} />
        ) : (
          <AskView />
        )}
      </div>
      {hasKnowledge && <ContextPanel lastAsked={lastAsked} />}
    </div>
  );
}
