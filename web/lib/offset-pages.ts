/**
 * Rows in all pages, from the X-Total-Count header of an offset-paged list. Without the header, the page itself is
 * the best estimate: what it reaches, plus one when it is a full `pageSize` page (so more may follow it). Lists paged
 * by a pager, not read on, pass no `pageSize`.
 */
export function totalFromHeader(headers: Headers, offset: number, rows: number, pageSize?: number): number {
  const total = Number(headers.get('x-total-count') ?? Number.NaN);
  if (Number.isFinite(total)) return total;
  return offset + rows + (pageSize !== undefined && rows === pageSize ? 1 : 0);
}

/** For an infinite query: the offset of the page after one that starts at `offset`, or undefined after the last. */
export function nextPageOffset(offset: number, rows: number, total: number): number | undefined {
  const next = offset + rows;
  return rows > 0 && next < total ? next : undefined;
}
