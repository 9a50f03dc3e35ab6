import type { LibraryFreshness } from '../../../common/schemas/admin';
import { formatNumber } from '../../lib/format';

/** The analytics card's figure: the share of approved entries within their review interval. */
export function freshnessValue(f: LibraryFreshness): string {
  return f.freshRate === null ? '–' : `${String(f.freshRate)}%`;
}

/** The line under it: how many approved entries need re-verification, now (not over the chosen period). */
export function freshnessNote(f: LibraryFreshness): string {
  if (f.approvedEntries === 0) return 'No approved library entries yet';
  if (f.needsReverification === 0)
    return `All ${formatNumber(f.approvedEntries)} approved entries are verified in time`;
  const n = f.needsReverification;
  return `${formatNumber(n)} of ${formatNumber(f.approvedEntries)} approved entries ${n === 1 ? 'needs' : 'need'} re-verification`;
}
