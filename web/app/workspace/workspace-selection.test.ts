import { describe, expect, it } from 'vitest';
import type { WorkspaceView } from '../../../common/schemas/workspaces';
import { readSavedWorkspaceId, resolveWorkspaceId, workspaceStorageKey } from './workspace-selection';

function workspace(id: string): WorkspaceView {
  return { id, organizationId: 'org', name: id, description: null, createdAt: '2025-01-01T00:00:00Z' };
}

const list = [workspace('w1'), workspace('w2'), workspace('w3')];

describe('resolveWorkspaceId', () => {
  it('keeps the current choice while it is in the list', () => {
    expect(resolveWorkspaceId(list, 'w2', 'w3')).toBe('w2');
  });

  it('takes the saved workspace when the current one is gone or unset', () => {
    expect(resolveWorkspaceId(list, 'gone', 'w3')).toBe('w3');
    expect(resolveWorkspaceId(list, null, 'w3')).toBe('w3');
  });

  it('falls back to the first workspace', () => {
    expect(resolveWorkspaceId(list, null, null)).toBe('w1');
    expect(resolveWorkspaceId(list, 'gone', 'also-gone')).toBe('w1');
  });

  it('is null for an empty list', () => {
    expect(resolveWorkspaceId([], 'w1', 'w2')).toBeNull();
  });
});

describe('the saved choice', () => {
  it('is kept per organization', () => {
    expect(workspaceStorageKey('org-a')).not.toBe(workspaceStorageKey('org-b'));
  });

  it('reads as none where storage is missing', () => {
    // Node has no localStorage: the same path a browser with storage disabled takes.
    expect(readSavedWorkspaceId('org-a')).toBeNull();
  });
});
