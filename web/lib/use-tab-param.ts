import { useSearchParams } from 'react-router';

/**
 * The page tab kept in `?tab=`, so a reload or a shared link opens it again: the requested one when it is among
 * `tabs`, else the first (undefined when there are none). Choosing a tab replaces the history entry, so Back leaves the
 * page rather than stepping through its tabs.
 */
export function useTabParam<T extends string>(tabs: readonly T[]): [T | undefined, (tab: string) => void] {
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab');
  const tab = tabs.find((value) => value === requested) ?? tabs[0];
  return [tab, (next) => setParams({ tab: next }, { replace: true })];
}
