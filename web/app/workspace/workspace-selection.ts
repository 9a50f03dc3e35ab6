import type { WorkspaceView } from '../../../common/schemas/workspaces';

/** One saved choice per organization (PRODUCT §2), so switching organizations never picks a foreign workspace. */
export function workspaceStorageKey(organizationId: string): string {
  return `verity.workspace.${organizationId}`;
}

export function readSavedWorkspaceId(organizationId: string): string | null {
  try {
    return localStorage.getItem(workspaceStorageKey(organizationId));
  } catch {
    // Storage may be disabled; the first workspace is then chosen each visit.
    return null;
  }
}

export function saveWorkspaceId(organizationId: string, workspaceId: string): void {
  try {
    localStorage.setItem(workspaceStorageKey(organizationId), workspaceId);
  } catch {
    // Best effort: the choice still holds for this visit.
  }
}

/**
 * PRODUCT §2: keep the current choice while it is still in the list; otherwise take the saved workspace if it is
 * still in the list, else the first one (null for an empty list).
 */
export function resolveWorkspaceId(
  workspaces: readonly WorkspaceView[],
  currentId: string | null,
  savedId: string | null,
): string | null {
  const exists = (id: string | null): id is string => id !== null && workspaces.some((w) => w.id === id);
  if (exists(currentId)) return currentId;
  if (exists(savedId)) return savedId;
  return workspaces[0]?.id ?? null;
}
