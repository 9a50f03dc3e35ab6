import type { InjectOptions } from 'fastify';
import type { buildApp } from '../server/app';
import { refusal } from './over-http';

/** What the in-process benchmarks (bench:ingest, bench:embed, bench:library) do through the app before timing. */
type App = Awaited<ReturnType<typeof buildApp>>;

/** app.inject that throws a RefusedRequest (method, URL, status, body) for any non-2xx reply. */
export async function injectOk(app: App, opts: InjectOptions & { url: string }) {
  const res = await app.inject(opts);
  if (res.statusCode >= 200 && res.statusCode < 300) return res;
  const retryAfter = res.headers['retry-after'];
  throw refusal(
    opts.method ?? 'GET',
    opts.url,
    res.statusCode,
    res.body,
    retryAfter === undefined ? null : String(retryAfter),
  );
}

/** Signs up a new organization's admin and returns the session cookie. */
export async function registerOrganization(app: App, prefix: string, organizationName: string): Promise<string> {
  const s = Date.now().toString(36);
  const reg = await injectOk(app, {
    method: 'POST',
    url: '/api/auth/register',
    payload: {
      username: `${prefix}${s}`,
      email: `${prefix}${s}@example.com`,
      password: 'bench-pass',
      organizationName: `${organizationName} ${s}`,
    },
  });
  return reg.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
}

/** Uploads a document the way the web app does: an upload URL, the PUT of its bytes, then its registration. */
export async function uploadDocument(app: App, cookie: string, bytes: Buffer, name: string): Promise<void> {
  const urlRes = await injectOk(app, { method: 'POST', url: '/api/objects/upload', headers: { cookie } });
  const uploadURL = (urlRes.json() as { uploadURL: string }).uploadURL;
  const u = new URL(uploadURL);
  await injectOk(app, { method: 'PUT', url: `${u.pathname}${u.search}`, payload: bytes });
  await injectOk(app, {
    method: 'PUT',
    url: '/api/documents',
    headers: { cookie },
    payload: { documentURL: uploadURL, originalName: name, size: bytes.length, tags: ['uploaded'] },
  });
}
