import type { AnswerStatus } from '../../../../common/schemas/knowledge';

/** The library's list filter as the UI holds it: no status means approved + draft (the "All" tab). */
export interface LibraryFilter {
  q: string;
  status: AnswerStatus | undefined;
  tag: string | undefined;
  /** Only approved entries past their review interval (the "Needs re-verification" tab). */
  reverify?: boolean;
  /** Only entries the signed-in user owns. */
  mine?: boolean;
}

/** The query string of a filter, leaving out empty parts so the server applies its defaults. */
export function filterParams(filter: Partial<LibraryFilter>): URLSearchParams {
  const params = new URLSearchParams();
  const q = filter.q?.trim();
  if (q) params.set('q', q);
  if (filter.status) params.set('status', filter.status);
  if (filter.tag) params.set('tag', filter.tag);
  if (filter.reverify) params.set('reverify', '1');
  if (filter.mine) params.set('mine', '1');
  return params;
}
