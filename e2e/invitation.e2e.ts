import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, screenshot } from './browser';

const baseUrl = inject('baseUrl');
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser.close());

describe('joining an organization through an invitation link', () => {
  it('the invitee signs up from the link and gets the invited role, without admin items', async () => {
    const suffix = Date.now().toString(36);
    // The admin signs up and invites through the API, as the Workspace Settings screen will.
    const adminCtx = await browser.newContext();
    const admin = await adminCtx.newPage();
    await admin.goto(`${baseUrl}/login`);
    const invite = (await admin.evaluate(async (s) => {
      const json = { 'content-type': 'application/json' };
      await fetch('/api/auth/register', {
        method: 'POST',
        headers: json,
        body: JSON.stringify({
          username: `boss${s}`,
          email: `boss${s}@example.com`,
          password: 'secret-1234',
          organizationName: `Globex ${s}`,
        }),
      });
      const res = await fetch('/api/organizations/invitations', {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ email: `new${s}@example.com`, role: 'viewer' }),
      });
      return res.json();
    }, suffix)) as { url: string; token: string };
    expect(invite.url).toContain('/login?invite=');
    await adminCtx.close();

    const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await ctx.newPage();
    await page.goto(`${baseUrl}/login?invite=${invite.token}`);
    await page.getByText(`You've been invited to join Globex ${suffix} as viewer`).waitFor();
    expect(await page.getByLabel('Email').inputValue()).toBe(`new${suffix}@example.com`);
    expect(await page.getByLabel('Organization Name').count()).toBe(0);
    await screenshot(page, 'invitation');
    await page.getByLabel('Username').fill(`new${suffix}`);
    await page.getByLabel('Password').fill('secret-1234');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await page.waitForURL('**/dashboard');
    await page.getByText('Current workspace: Default').waitFor();
    expect(await page.getByRole('link', { name: 'Workspace Settings' }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Chat History' }).count()).toBe(0);
    await screenshot(page, 'dashboard-viewer');

    // The link is single-use.
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL('**/login');
    await page.goto(`${baseUrl}/login?invite=${invite.token}`);
    await page
      .getByText(/invalid or has expired/)
      .first()
      .waitFor();
    await ctx.close();
  });
});
