import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';

/** Rows rendered at first and added each time the end of the list comes near. */
export const LIST_STEP = 150;

/**
 * Renders a long list in steps: the first LIST_STEP rows, then more whenever a sentinel after the last row comes
 * within reach of the scroll box. A 1,000-question assessment opens as fast as a 150-question one.
 */
export function useIncrementalList(total: number, scrollRoot: RefObject<HTMLElement | null>) {
  const [limit, setLimit] = useState(LIST_STEP);
  const sentinel = useRef<HTMLDivElement | null>(null);
  const more = limit < total;

  useEffect(() => {
    const target = sentinel.current;
    if (!more || !target) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) setLimit((current) => current + LIST_STEP);
      },
      { root: scrollRoot.current, rootMargin: '800px 0px' },
    );
    observer.observe(target);
    return () => observer.disconnect();
  }, [more, limit, scrollRoot]);

  /** Makes sure the row at `index` is rendered (e.g. before scrolling to it). */
  const reveal = useCallback((index: number) => {
    setLimit((current) => (index < current ? current : Math.ceil((index + 1) / LIST_STEP) * LIST_STEP));
  }, []);

  const reset = useCallback(() => setLimit(LIST_STEP), []);

  return { limit, sentinel, more, reveal, reset };
}
