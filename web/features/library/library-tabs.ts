import type { AnswerStatus } from '../../../common/schemas/knowledge';

/** PRODUCT tabs All / Approved / Draft, plus Archived (kept out of "All"). */
export const LIBRARY_TABS = ['all', 'approved', 'draft', 'archived'] as const;
export type LibraryTab = (typeof LIBRARY_TABS)[number];

export const LIBRARY_TAB_LABELS: Record<LibraryTab, string> = {
  all: 'All',
  approved: 'Approved',
  draft: 'Draft',
  archived: 'Archived',
};

export function isLibraryTab(value: string): value is LibraryTab {
  return (LIBRARY_TABS as readonly string[]).includes(value);
}

/** The status a tab asks the server for: none means approved + draft. */
export function statusOfTab(tab: LibraryTab): AnswerStatus | undefined {
  return tab === 'all' ? undefined : tab;
}
