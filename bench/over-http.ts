/** Calls the benchmarks make over real HTTP against a listening app (not app.inject), before or while timing. */
import { IMPORT_MAX_ENTRIES } from '../common/constants';

/**
 * A reply that is not 2xx. A benchmark stops on it, saying which call, what status and what the server said: a
 * refusal timed as an answer, or a run that ends early without a word, would be a wrong figure.
 */
export class RefusedRequest extends Error {
  override name = 'RefusedRequest';
}

/** The message of a RefusedRequest; a 429 points at the limits line every benchmark prints at its start. */
export function refusal(
  method: string,
  url: string,
  status: number,
  body: string,
  retryAfter?: string | null,
): RefusedRequest {
  const limit =
    status === 429
      ? ` (a limit refused it${retryAfter ? `, Retry-After ${retryAfter} s` : ''}; the limits this run set are on its first line)`
      : '';
  return new RefusedRequest(`${method} ${url} answered ${status}${limit}: ${body.slice(0, 2000)}`);
}

/** fetch that throws a RefusedRequest for any non-2xx reply; the reply's body is left unread otherwise. */
export async function fetchOk(url: string, init: RequestInit = {}): Promise<Response> {
  const res = await fetch(url, init);
  if (res.ok) return res;
  throw refusal(init.method ?? 'GET', url, res.status, await res.text(), res.headers.get('retry-after'));
}

/**
 * Imports library entries through `POST /api/canonical-answers/import`, at most IMPORT_MAX_ENTRIES per call as the
 * API requires; returns how many calls it took.
 */
export async function importOverHttp(base: string, cookie: string, entries: unknown[]): Promise<number> {
  let calls = 0;
  for (let i = 0; i < entries.length; i += IMPORT_MAX_ENTRIES) {
    await fetchOk(`${base}/api/canonical-answers/import`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ entries: entries.slice(i, i + IMPORT_MAX_ENTRIES) }),
    });
    calls += 1;
  }
  return calls;
}

export type BenchAccount = { username: string; email: string; organizationName: string };

/** Signs up a new organization's admin; returns the session cookie and the signed-up user. */
export async function signUpOverHttp(
  base: string,
  account: BenchAccount,
): Promise<{ cookie: string; user: { id: string; organizationId: string } }> {
  const reg = await fetchOk(`${base}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      username: account.username,
      email: account.email,
      password: 'bench-pass',
      organizationName: account.organizationName,
    }),
  });
  const { user } = (await reg.json()) as { user: { id: string; organizationId: string } };
  return { cookie: (reg.headers.get('set-cookie') ?? '').split(';')[0] ?? '', user };
}

/**
 * GET /api/documents over HTTP, timed. Over HTTP so that requests arrive as I/O events like a browser's, between
 * the worker's file reads and thread messages (app.inject would run them as one unbroken chain of promises).
 */
export function timedDocumentList(base: string, cookie: string) {
  return async () => {
    const t = performance.now();
    const res = await fetchOk(`${base}/api/documents`, { headers: { cookie } });
    const docs = (await res.json()) as Array<{ status: string; extractedChunks: number }>;
    return { ms: performance.now() - t, docs };
  };
}
