import type { AnswerStatus } from '../../../common/schemas/knowledge';
import type { LibraryFilter } from './api/library-filter';

/** PRODUCT tabs All / Approved / Draft, plus Archived (kept out of "All") and the approved entries due for review. */
export const LIBRARY_TABS = ['all', 'approved', 'draft', 'archived', 'reverify'] as const;
export type LibraryTab = (typeof LIBRARY_TABS)[number];

export const LIBRARY_TAB_LABELS: Record<LibraryTab, string> = {
  all: 'All',
  approved: 'Approved',
  draft: 'Draft',
  archived: 'Archived',
  reverify: 'Needs re-verification',
};

export function isLibraryTab(value: string): value is LibraryTab {
  return (LIBRARY_TABS as readonly string[]).includes(value);
}

/** The status a tab asks the server for: none means approved + draft (re-verification concerns approved ones). */
export function statusOfTab(tab: LibraryTab): AnswerStatus | undefined {
  return tab === 'all' || tab === 'reverify' ? undefined : tab;
}

/** The part of the list filter a tab decides. */
export function tabFilter(tab: LibraryTab): Pick<LibraryFilter, 'status' | 'reverify'> {
  return { status: statusOfTab(tab), reverify: tab === 'reverify' };
}
