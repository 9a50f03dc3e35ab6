import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { useWorkspace } from './use-workspace';

/** The address parameter an e-mailed link names its workspace with. */
const WORKSPACE_PARAM = 'workspace';

/**
 * An e-mailed link names the workspace what it points at lives in (`?workspace=`): opening it makes that workspace
 * current, so the reader finds it whichever one they had open. The parameter is then dropped from the address; the
 * others (a review filter, say) stay. True while the link's workspace is still being made current: what the page
 * loads before then would be loaded from the workspace that was open.
 */
export function useWorkspaceFromLink(): boolean {
  const [params, setParams] = useSearchParams();
  const { workspaces, currentWorkspace, selectWorkspace, isLoading } = useWorkspace();
  const wanted = params.get(WORKSPACE_PARAM);
  useEffect(() => {
    // A workspace that is not (or no longer) the caller's is dropped all the same: the page then says what it finds.
    if (!wanted || isLoading) return;
    if (currentWorkspace?.id !== wanted && workspaces.some((w) => w.id === wanted)) selectWorkspace(wanted);
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete(WORKSPACE_PARAM);
        return next;
      },
      { replace: true },
    );
  }, [wanted, isLoading, workspaces, currentWorkspace, selectWorkspace, setParams]);
  return wanted !== null;
}
