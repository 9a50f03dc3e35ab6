import type { TestApp } from './app';

type InjectOptions = { method: string; url: string; headers?: Record<string, string>; payload?: unknown };

/**
 * A server started as its own process (`startServer`), driven by the same API helpers and factories as the
 * in-process test app: they only call `app.inject`, which this answers over real HTTP with the fields they read
 * (statusCode, body, cookies, headers). Anything else on TestApp is absent, hence the cast.
 */
export function remoteApp(baseUrl: string): TestApp {
  const inject = async (opts: InjectOptions) => {
    const headers = new Headers(opts.headers);
    let body: string | Uint8Array | undefined;
    if (typeof opts.payload === 'string' || opts.payload instanceof Uint8Array) body = opts.payload;
    else if (opts.payload !== undefined) {
      body = JSON.stringify(opts.payload);
      if (!headers.has('content-type')) headers.set('content-type', 'application/json');
    }
    const res = await fetch(new URL(opts.url, baseUrl), { method: opts.method, headers, body });
    const rawPayload = Buffer.from(await res.arrayBuffer());
    return {
      statusCode: res.status,
      headers: Object.fromEntries(res.headers),
      rawPayload,
      body: rawPayload.toString('utf8'),
      cookies: res.headers.getSetCookie().map((c) => {
        const [pair = ''] = c.split(';');
        const eq = pair.indexOf('=');
        return { name: pair.slice(0, eq).trim(), value: pair.slice(eq + 1).trim() };
      }),
    };
  };
  return { inject } as unknown as TestApp;
}
