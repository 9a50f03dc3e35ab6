import { Suspense } from 'react';
import { Outlet, useLocation } from 'react-router';
import { useOrganizationStats } from '../../app/organization/get-organization-stats';
import { useWorkspace } from '../../app/workspace/use-workspace';
import { Spinner } from '../../components/ui/spinner';
import { workspaceModeOf } from '../../paths';
import { useLastAsked } from '../ask/use-last-asked';
import { ContextPanel } from './components/context-panel';
import { TasksView } from './components/tasks-view';

function ModeFallback() {
  return (
    <div className="flex flex-1 items-center justify-center">
      <Spinner className="size-6" label="Loading page" />
    </div>
  );
}

/**
 * PRODUCT "Main workspace page" for /, /dashboard and /library: the route's page (ask or library) beside the Context &
 * Tasks panel. Tasks mode comes from router state on either path, so the sidebar, reloads and Back all agree on it;
 * the pages themselves are lazy routes, so the ask screen (the landing page) never waits for the library's code.
 */
export function MainWorkspaceLayout() {
  const location = useLocation();
  const mode = workspaceModeOf(location) ?? 'ask';
  const { currentWorkspace } = useWorkspace();
  const { data: stats } = useOrganizationStats();
  const lastAsked = useLastAsked();
  const hasKnowledge = Boolean(stats && (stats.canonicalCount > 0 || stats.documentCount > 0));

  return (
    <div className="flex min-h-0 flex-1">
      <div className="flex min-w-0 flex-1 flex-col">
        {mode === 'tasks' ? (
          <TasksView key={currentWorkspace?.id ?? 'none'} />
        ) : (
          <Suspense fallback={<ModeFallback />}>
            <Outlet />
          </Suspense>
        )}
      </div>
      {hasKnowledge && <ContextPanel lastAsked={lastAsked} />}
    </div>
  );
}
