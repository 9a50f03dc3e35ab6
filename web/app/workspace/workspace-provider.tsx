import { useCallback, useEffect, useMemo, useSyncExternalStore, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { WorkspaceView } from '../../../common/schemas/workspaces';
import { getApiWorkspaceId, setApiWorkspaceId, subscribeApiWorkspaceId } from '../../lib/api';
import { isWorkspaceQuery } from '../../lib/query-client';
import { useWorkspaces } from './get-workspaces';
import { WorkspaceContext, type WorkspaceContextValue } from './workspace-context';
import { readSavedWorkspaceId, resolveWorkspaceId, saveWorkspaceId } from './workspace-selection';

const NO_WORKSPACES: readonly WorkspaceView[] = [];

interface WorkspaceProviderProps {
  /** Undefined until the organization has loaded; the list waits for it. */
  organizationId: string | undefined;
  children: ReactNode;
}

/**
 * Owns the organization's workspace list and the current choice. The choice lives in the api client (it sends
 * X-Workspace-Id), so requests and rendering can never disagree about which workspace is current.
 */
export function WorkspaceProvider({ organizationId, children }: WorkspaceProviderProps) {
  const queryClient = useQueryClient();
  const list = useWorkspaces(organizationId);
  const selectedId = useSyncExternalStore(subscribeApiWorkspaceId, getApiWorkspaceId, getApiWorkspaceId);
  const workspaces = list.data ?? NO_WORKSPACES;

  const resolvedId = useMemo(() => {
    if (!list.data || !organizationId) return selectedId;
    return resolveWorkspaceId(list.data, selectedId, readSavedWorkspaceId(organizationId));
  }, [list.data, organizationId, selectedId]);

  const refetchWorkspaceData = useCallback(() => {
    void queryClient.invalidateQueries({ predicate: isWorkspaceQuery });
  }, [queryClient]);

  // Apply the automatic choice when the list arrives, or when the current workspace has left the list.
  useEffect(() => {
    if (!list.data || !organizationId || resolvedId === selectedId) return;
    const hadWorkspace = selectedId !== null;
    setApiWorkspaceId(resolvedId);
    if (resolvedId) saveWorkspaceId(organizationId, resolvedId);
    if (hadWorkspace) refetchWorkspaceData();
  }, [list.data, organizationId, resolvedId, selectedId, refetchWorkspaceData]);

  const selectWorkspace = useCallback(
    (workspaceId: string) => {
      if (!organizationId || workspaceId === getApiWorkspaceId()) return;
      if (!workspaces.some((w) => w.id === workspaceId)) return;
      // The header changes before the refetch starts, so refetched data is the new workspace's.
      setApiWorkspaceId(workspaceId);
      saveWorkspaceId(organizationId, workspaceId);
      refetchWorkspaceData();
    },
    [organizationId, workspaces, refetchWorkspaceData],
  );

  const isReady = Boolean(organizationId) && (list.isError || (list.isSuccess && resolvedId === selectedId));

  const value = useMemo<WorkspaceContextValue>(
    () => ({
      workspaces,
      currentWorkspace: workspaces.find((w) => w.id === selectedId) ?? null,
      selectWorkspace,
      isLoading: !isReady && !list.isError,
      isReady,
      error: list.error,
    }),
    [workspaces, selectedId, selectWorkspace, isReady, list.isError, list.error],
  );

  return <WorkspaceContext.Provider value={value}>{children}</WorkspaceContext.Provider>;
}
