import { Suspense } from 'react';
import { Outlet, useLocation } from 'react-router';
import { Button } from '../../components/ui/button';
import { FullScreenSpinner, Spinner } from '../../components/ui/spinner';
import { errorMessage } from '../../lib/api';
import { workspaceModeOf } from '../../paths';
import { useMe } from '../../app/me/get-me';
import { useCurrentOrganization } from '../../app/organization/get-current-organization';
import { useOrganizationStats } from '../../app/organization/get-organization-stats';
import { useWorkspace } from '../../app/workspace/use-workspace';
import { WorkspaceProvider } from '../../app/workspace/workspace-provider';
import { Sidebar } from './components/sidebar';
import { EngineNotice } from '../admin-dashboard/engine-notice';

function ShellError({ message, onRetry }: { message: string; onRetry: () => void }) {
  return (
    <div className="flex min-h-screen flex-col items-center justify-center gap-3 bg-surface px-6 text-center">
      <p role="alert" className="text-sm text-foreground">
        {message}
      </p>
      <Button variant="outline" onClick={onRetry}>
        Try again
      </Button>
    </div>
  );
}

function PageFallback() {
  return (
    <div className="flex h-full items-center justify-center">
      <Spinner className="size-6" label="Loading page" />
    </div>
  );
}

function ShellLayout() {
  const location = useLocation();
  const me = useMe();
  const organization = useCurrentOrganization();
  const workspace = useWorkspace();
  const stats = useOrganizationStats({ enabled: workspace.isReady });

  if (organization.isError) {
    return (
      <ShellError
        message={errorMessage(organization.error, 'Could not load your organization.')}
        onRetry={() => void organization.refetch()}
      />
    );
  }
  // PRODUCT §2: a full-screen spinner while the organization or its stats load.
  if (!me.data || organization.isPending || stats.isPending) return <FullScreenSpinner />;

  return (
    <div className="flex h-screen overflow-hidden bg-background">
      <Sidebar
        mode={workspaceModeOf(location)}
        organization={organization.data}
        stats={stats.data}
        user={me.data.user}
      />
      <main className="flex min-w-0 flex-1 flex-col overflow-hidden">
        <EngineNotice />
        <Suspense fallback={<PageFallback />}>
          <Outlet />
        </Suspense>
      </main>
    </div>
  );
}

/** The frame of every signed-in screen: organization, workspace choice, sidebar and the routed page. */
export function AppShell() {
  const organization = useCurrentOrganization();
  return (
    <WorkspaceProvider organizationId={organization.data?.id}>
      <ShellLayout />
    </WorkspaceProvider>
  );
}
