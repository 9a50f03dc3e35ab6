import { Suspense, useCallback, useRef, useState } from 'react';
import { Outlet, useLocation } from 'react-router';
import { Button } from '../../components/ui/button';
import { FullScreenSpinner, Spinner } from '../../components/ui/spinner';
import { errorMessage } from '../../lib/api';
import { DEFAULT_BRAND_NAME } from '../../../common/constants';
import { useMe } from '../../app/me/get-me';
import { useCurrentOrganization } from '../../app/organization/get-current-organization';
import { useOrganizationStats } from '../../app/organization/get-organization-stats';
import { useWorkspace } from '../../app/workspace/use-workspace';
import { WorkspaceProvider } from '../../app/workspace/workspace-provider';
import { NavDrawer } from './components/nav-drawer';
import { Sidebar } from './components/sidebar';
import { MAIN_CONTENT_ID, SkipLink } from './components/skip-link';
import { TopBar } from './components/top-bar';
import { useMediaQuery } from '../../lib/use-media-query';
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

const DRAWER_ID = 'app-navigation';

function ShellLayout() {
  const location = useLocation();
  // Tailwind's `lg` breakpoint: below it the sidebar is a drawer.
  const wide = useMediaQuery('(min-width: 64rem)');
  // The drawer is open for the location it was opened on, so any navigation closes it without an effect.
  const [openedAt, setOpenedAt] = useState<string | null>(null);
  const drawerOpen = !wide && openedAt === location.key;
  const closeDrawer = useCallback(() => setOpenedAt(null), []);
  const menuButtonRef = useRef<HTMLButtonElement>(null);
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

  const brandName = organization.data.brandName?.trim() || DEFAULT_BRAND_NAME;
  return (
    <div className="flex h-dvh overflow-hidden bg-background">
      <SkipLink />
      <NavDrawer
        id={DRAWER_ID}
        drawerMode={!wide}
        open={drawerOpen}
        onClose={closeDrawer}
        returnFocusTo={menuButtonRef}
      >
        <Sidebar
          organization={organization.data}
          stats={stats.data}
          user={me.data.user}
          onClose={wide ? undefined : closeDrawer}
        />
      </NavDrawer>
      {/* Inert behind the open drawer: neither clicks nor Tab reach the page (WAI-ARIA modal dialog). */}
      <div className="flex min-w-0 flex-1 flex-col" inert={drawerOpen}>
        <TopBar
          brandName={brandName}
          menuOpen={drawerOpen}
          drawerId={DRAWER_ID}
          onOpenMenu={() => setOpenedAt(location.key)}
          menuButtonRef={menuButtonRef}
        />
        <main
          id={MAIN_CONTENT_ID}
          tabIndex={-1}
          className="flex min-h-0 min-w-0 flex-1 flex-col overflow-hidden outline-none"
        >
          <EngineNotice />
          <Suspense fallback={<PageFallback />}>
            <Outlet />
          </Suspense>
        </main>
      </div>
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
