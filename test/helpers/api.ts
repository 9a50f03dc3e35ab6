import type { TestApp } from './app';

export type Session = { cookie: string; workspaceId?: string };
type Method = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';

/** One call through the real HTTP stack (app.inject), as the given signed-in user or anonymously. */
export async function call(
  app: TestApp,
  method: Method,
  url: string,
  opts: { as?: Session | null; body?: unknown; headers?: Record<string, string> } = {},
) {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.as) {
    headers.cookie = opts.as.cookie;
    if (opts.as.workspaceId && !('x-workspace-id' in headers)) headers['x-workspace-id'] = opts.as.workspaceId;
  }
  const res = await app.inject({
    method,
    url,
    headers,
    ...(opts.body !== undefined && { payload: opts.body as Record<string, unknown> }),
  });
  return Object.assign(res, { body: res.body, data: safeJson(res.body) });
}

// Responses are checked by assertions, not by the compiler: a loose type keeps tests readable.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function safeJson(body: string): any {
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

/** The `name=value` pair of the session cookie a response set, for the next request's Cookie header. */
export function sessionCookieFrom(res: { cookies: Array<{ name: string; value: string }> }): string {
  const c = res.cookies.find((x) => x.name === 'verity_session');
  if (!c) throw new Error('response set no session cookie');
  return `verity_session=${c.value}`;
}
