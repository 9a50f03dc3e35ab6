import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import type { Role } from '../common/roles';

/** A unique-enough suffix for usernames and organization names within one test run. */
export function uniqueSuffix(): string {
  return `${Date.now().toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`;
}

/**
 * Registers a new user with a new organization from inside the page (same origin, so the session cookie sticks),
 * the way the other e2e files set up their admin. The caller ends up signed in as that organization's admin.
 */
export async function registerAdmin(page: Page, baseUrl: string, suffix: string): Promise<{ username: string }> {
  await page.goto(`${baseUrl}/login`);
  const username = `lib${suffix}`;
  const status = await page.evaluate(async (name) => {
    const res = await fetch('/api/auth/register', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        username: name,
        email: `${name}@example.com`,
        password: 'secret-1234',
        organizationName: `Org ${name}`,
      }),
    });
    return res.status;
  }, username);
  if (status >= 300) throw new Error(`registration failed with ${status}`);
  return { username };
}

/** A fresh browser context whose page is signed in as a new organization's admin. */
export type AdminPage = { context: BrowserContext; page: Page; errors: string[]; suffix: string; username: string };

/**
 * Opens a browser context, registers a new admin in its page and collects the page's uncaught errors (the specs
 * assert there are none): the way most e2e tests start.
 */
export async function openAdminPage(
  browser: Browser,
  baseUrl: string,
  options: BrowserContextOptions = {},
): Promise<AdminPage> {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const suffix = uniqueSuffix();
  const { username } = await registerAdmin(page, baseUrl, suffix);
  return { context, page, errors, suffix, username };
}

/** Sends a JSON call as the signed-in user and returns the parsed body (tests use it to set up data quickly). */
export async function apiCall<T>(page: Page, method: string, path: string, body?: unknown): Promise<T> {
  const result = await page.evaluate(
    async ({ method: m, path: p, body: b }) => {
      const res = await fetch(p, {
        method: m,
        headers: b === undefined ? {} : { 'content-type': 'application/json' },
        body: b === undefined ? undefined : JSON.stringify(b),
      });
      return { status: res.status, text: await res.text() };
    },
    { method, path, body },
  );
  if (result.status >= 300) throw new Error(`${method} ${path} failed with ${result.status}: ${result.text}`);
  return JSON.parse(result.text) as T;
}

/** Uploads bytes the way the upload widget does: a signed PUT, then registration. */
export async function uploadThroughApi(
  page: Page,
  name: string,
  bytes: Buffer,
  mimeType: string,
  tags: string[] = ['uploaded'],
): Promise<void> {
  const { uploadURL } = await apiCall<{ uploadURL: string }>(page, 'POST', '/api/objects/upload', {
    size: bytes.length,
  });
  const status = await page.evaluate(
    async ({ url, base64, type }) => {
      const body = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
      return (await fetch(url, { method: 'PUT', body, headers: { 'content-type': type } })).status;
    },
    { url: uploadURL, base64: bytes.toString('base64'), type: mimeType },
  );
  if (status !== 200) throw new Error(`upload PUT answered ${status}`);
  await apiCall(page, 'PUT', '/api/documents', {
    documentURL: uploadURL,
    originalName: name,
    mimeType,
    size: bytes.length,
    tags,
  });
}

/**
 * Invites `username` with `role` from the admin's page and registers them through the invitation in a new browser
 * context, whose page errors go to `errors`. Returns the member's signed-in page.
 */
export async function joinAsMember(
  admin: Page,
  browser: Browser,
  baseUrl: string,
  username: string,
  errors: string[],
  role: Role,
): Promise<Page> {
  const email = `${username}@example.com`;
  const invite = await apiCall<{ token: string }>(admin, 'POST', '/api/organizations/invitations', { email, role });
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const member = await context.newPage();
  member.on('pageerror', (e) => errors.push(e.message));
  await member.goto(`${baseUrl}/login`);
  await apiCall(member, 'POST', '/api/auth/register', {
    username,
    email,
    password: 'secret-1234',
    invitationToken: invite.token,
  });
  return member;
}

/** joinAsMember as a viewer: what most screens' "what a viewer may not do" checks start from. */
export function joinAsViewer(
  admin: Page,
  browser: Browser,
  baseUrl: string,
  username: string,
  errors: string[],
): Promise<Page> {
  return joinAsMember(admin, browser, baseUrl, username, errors, 'viewer');
}
