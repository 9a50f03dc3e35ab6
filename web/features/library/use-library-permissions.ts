import { useMemo } from 'react';
import type { CanonicalAnswerView } from '../../../common/schemas/knowledge';
import { useCan } from '../../app/me/use-can';

export interface LibraryPermissions {
  /** Contributors add drafts; managers and admins add approved entries. */
  canCreate: boolean;
  /** Approve, verify, archive, restore, change owners and edit approved entries. */
  canApprove: boolean;
  canImport: boolean;
  canDelete: boolean;
  /** Contributors may edit drafts only; approved and archived entries need knowledge:approve. */
  canEdit: (answer: Pick<CanonicalAnswerView, 'status'>) => boolean;
}

/** The library's role-aware switches, all from the server's policy table (common/policies.ts). */
export function useLibraryPermissions(): LibraryPermissions {
  const canCreate = useCan('knowledge:create_draft');
  const canApprove = useCan('knowledge:approve');
  const canImport = useCan('knowledge:import');
  const canDelete = useCan('knowledge:delete');
  return useMemo(
    () => ({
      canCreate,
      canApprove,
      canImport,
      canDelete,
      canEdit: (answer) => canApprove || (canCreate && answer.status === 'draft'),
    }),
    [canCreate, canApprove, canImport, canDelete],
  );
}
