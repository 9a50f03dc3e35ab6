import type { buildApp } from '../server/app';

/** What the in-process benchmarks (bench:ingest, bench:embed, bench:library) do through the app before timing. */
type App = Awaited<ReturnType<typeof buildApp>>;

/** Signs up a new organization's admin and returns the session cookie. */
export async function registerOrganization(app: App, prefix: string, organizationName: string): Promise<string> {
  const s = Date.now().toString(36);
  const reg = await app.inject({
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
  const urlRes = await app.inject({ method: 'POST', url: '/api/objects/upload', headers: { cookie } });
  const uploadURL = (urlRes.json() as { uploadURL: string }).uploadURL;
  const u = new URL(uploadURL);
  const put = await app.inject({ method: 'PUT', url: `${u.pathname}${u.search}`, payload: bytes });
  if (put.statusCode !== 200) throw new Error(`PUT failed: ${put.statusCode} ${put.body}`);
  const reg = await app.inject({
    method: 'PUT',
    url: '/api/documents',
    headers: { cookie },
    payload: { documentURL: uploadURL, originalName: name, size: bytes.length, tags: ['uploaded'] },
  });
  if (reg.statusCode !== 201) throw new Error(`register failed: ${reg.statusCode} ${reg.body}`);
}
