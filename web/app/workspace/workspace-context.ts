import { createContext } from 'react';
import type { WorkspaceView } from '../../../common/schemas/workspaces';

export interface WorkspaceContextValue {
  workspaces: readonly WorkspaceView[];
  currentWorkspace: WorkspaceView | null;
  /** Makes a workspace current, remembers it for the organization and refetches workspace data. */
  selectWorkspace: (workspaceId: string) => void;
  /** The list is loading or a choice is being applied; workspace data should wait. */
  isLoading: boolean;
  /** The list has settled and the api client sends the chosen workspace (or none). */
  isReady: boolean;
  error: Error | null;
}

export const WorkspaceContext = createContext<WorkspaceContextValue | null>(null);
