import { useLocation } from 'react-router';
import { workspaceModeOf, type WorkspaceMode } from '../../paths';
import { useOrganizationStats } from '../organizations/api/get-organization-stats';
import { ComingSoon } from '../placeholder/coming-soon';
import { ContextPanel } from './components/context-panel';

const MODE_TITLES: Record<WorkspaceMode, string> = {
  ask: 'Ask Questions',
  library: 'Knowledge Library',
  tasks: 'Pending Tasks',
};

/**
 * SPEC "Main workspace page" for /, /dashboard and /library. The mode comes from the URL (path, plus router state
 * for tasks), so the sidebar, reloads and Back all agree on it.
 */
export function MainWorkspacePage() {
  const location = useLocation();
  const mode = workspaceModeOf(location) ?? 'ask';
  const { data: stats } = useOrganizationStats();
  const hasKnowledge = Boolean(stats && (stats.canonicalCount > 0 || stats.documentCount > 0));

  return (
    <div className="flex min-h-0 flex-1">
      <div className="flex min-w-0 flex-1 flex-col">
        <ComingSoon title={MODE_TITLES[mode]} />
      </div>
      {hasKnowledge && <ContextPanel />}
    </div>
  );
}
