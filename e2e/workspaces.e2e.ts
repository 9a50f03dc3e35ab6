import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, screenshot } from './browser';

const baseUrl = inject('baseUrl');
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser.close());

describe('workspace picker', () => {
  it('searches, switches the current workspace, and remembers the choice after a reload', async () => {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await ctx.newPage();
    const s = Date.now().toString(36);
    await page.goto(`${baseUrl}/login`);
    await page.evaluate(async (suffix) => {
      const json = { 'content-type': 'application/json' };
      await fetch('/api/auth/register', {
        method: 'POST',
        headers: json,
        body: JSON.stringify({
          username: `ws${suffix}`,
          email: `ws${suffix}@example.com`,
          password: 'secret-1234',
          organizationName: `Initech ${suffix}`,
        }),
      });
      await fetch('/api/workspaces', {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ name: 'EMEA Deals', description: 'Questionnaires from EMEA customers' }),
      });
    }, s);
    await page.goto(`${baseUrl}/dashboard`);
    await page.getByText('Current workspace: Default').waitFor();

    await page.getByRole('button', { name: 'Default' }).click();
    await page.getByPlaceholder('Search workspaces...').fill('zzz');
    await page.getByText('No workspace found.').waitFor();
    await page.getByPlaceholder('Search workspaces...').fill('emea');
    await screenshot(page, 'workspace-picker');
    const statsRequest = page.waitForRequest((r) => r.url().endsWith('/api/organizations/stats'));
    await page.getByRole('option', { name: /EMEA Deals/ }).click();
    await page.getByText('Current workspace: EMEA Deals').waitFor();
    const workspaces = (await page.evaluate(async () => (await fetch('/api/workspaces')).json())) as Array<{
      id: string;
      name: string;
    }>;
    const emea = workspaces.find((w) => w.name === 'EMEA Deals');
    expect((await statsRequest).headers()['x-workspace-id']).toBe(emea?.id);

    await page.reload();
    await page.getByText('Current workspace: EMEA Deals').waitFor();
    await ctx.close();
  });
});
