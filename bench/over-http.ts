/** Calls the benchmarks make over real HTTP against a listening app (not app.inject), before or while timing. */

export type BenchAccount = { username: string; email: string; organizationName: string };

/** Signs up a new organization's admin; returns the session cookie and the signed-up user. */
export async function signUpOverHttp(
  base: string,
  account: BenchAccount,
): Promise<{ cookie: string; user: { id: string; organizationId: string } }> {
  const reg = await fetch(`${base}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      username: account.username,
      email: account.email,
      password: 'bench-pass',
      organizationName: account.organizationName,
    }),
  });
  if (!reg.ok) throw new Error(`register failed: ${reg.status} ${await reg.text()}`);
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
    const res = await fetch(`${base}/api/documents`, { headers: { cookie } });
    if (res.status !== 200) throw new Error(`list failed: ${res.status}`);
    const docs = (await res.json()) as Array<{ status: string; extractedChunks: number }>;
    return { ms: performance.now() - t, docs };
  };
}
