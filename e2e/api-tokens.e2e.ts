import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, screenshot } from './browser';
import { apiCall, joinAsViewer, registerAdmin, uniqueSuffix } from './session';

const baseUrl = inject('baseUrl');
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser.close());

async function see(page: Page, text: string | RegExp) {
  await page.getByText(text).first().waitFor();
}

/** A script's call: no browser, no cookie, only the token. */
async function libraryWithToken(token: string): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${baseUrl}/api/canonical-answers`, { headers: { Authorization: `Bearer ${token}` } });
  return { status: res.status, body: (await res.json()) as unknown };
}

async function openApiTokensTab(page: Page) {
  await page.goto(`${baseUrl}/admin-settings`);
  await page.getByRole('heading', { name: 'Workspace Settings' }).waitFor();
  await page.getByRole('tab', { name: 'API Tokens' }).click();
  await page.getByRole('tab', { name: 'API Tokens', selected: true }).waitFor();
}

describe('API tokens in Workspace Settings', () => {
  it('an admin creates a token, a script reads the library with it, and revoking it shuts the script out', async () => {
    const errors: string[] = [];
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await ctx.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl });
    const admin = await ctx.newPage();
    admin.on('pageerror', (e) => errors.push(e.message));
    await registerAdmin(admin, baseUrl, uniqueSuffix());
    const question = 'Do you encrypt customer data at rest?';
    await apiCall(admin, 'POST', '/api/canonical-answers', {
      question,
      answer: 'Yes. Customer data at rest is encrypted with AES-256.',
      tags: [],
      status: 'approved',
    });

    // No tokens yet: the empty state says what they are for.
    await openApiTokensTab(admin);
    await see(admin, 'No API tokens yet');
    await see(admin, "Create one to let scripts and integrations call Verity's API.");
    await screenshot(admin, 'api-tokens-empty');

    // Create: a name, a role and an expiry.
    await admin.getByRole('button', { name: 'Create token' }).click();
    const form = admin.getByRole('dialog', { name: 'Create API token' });
    await form.getByRole('button', { name: 'Create token' }).click();
    await see(admin, 'Token name is required');
    await form.getByLabel('Token name').fill('Nightly library export');
    await form.getByRole('combobox', { name: 'Role' }).click();
    await admin.getByRole('option', { name: 'Contributor' }).click();
    await form.getByRole('combobox', { name: 'Expiry' }).click();
    await admin.getByRole('option', { name: '30 days' }).click();
    await see(admin, /Stops working on/);
    await screenshot(admin, 'api-tokens-create');
    await form.getByRole('button', { name: 'Create token' }).click();

    // The whole token, once, with Copy and how to use it.
    const created = admin.getByRole('dialog', { name: 'API token created' });
    await created.waitFor();
    await see(admin, 'Copy this token now. You will not be able to see it again.');
    expect(await created.locator('pre').textContent()).toBe(
      `curl -H "Authorization: Bearer vrt_…" \\\n  ${baseUrl}/api/canonical-answers`,
    );
    const shown = await created.getByLabel('API token').inputValue();
    expect(shown).toMatch(/^vrt_[\w-]{40,}$/);
    await created.getByRole('button', { name: 'Copy' }).click();
    await see(admin, 'Copied to clipboard');
    const token = await admin.evaluate(() => navigator.clipboard.readText());
    expect(token).toBe(shown);
    await screenshot(admin, 'api-tokens-created');
    // A stray click beside the dialog does not throw the token away.
    await admin.mouse.click(5, 5);
    // Radix marks a closing dialog at once, before its fade-out ends.
    expect(await created.getAttribute('data-state')).toBe('open');
    await created.getByRole('button', { name: 'Done' }).click();
    await created.waitFor({ state: 'detached' });

    // A script with the token reads this organization's library.
    const read = await libraryWithToken(token);
    expect(read.status).toBe(200);
    expect(read.body).toEqual([expect.objectContaining({ question })]);

    // The list shows the token by its prefix only; the secret is never sent again.
    const listed = await apiCall<Array<Record<string, unknown>>>(admin, 'GET', '/api/admin/api-tokens');
    expect(listed).toHaveLength(1);
    expect(listed[0]).not.toHaveProperty('token');
    expect(JSON.stringify(listed)).not.toContain(token);
    const prefix = `${token.slice(0, 'vrt_'.length + 6)}…`;

    // A second token that never expires and is never used, for the table's other states.
    await admin.getByRole('button', { name: 'Create token' }).click();
    await form.getByLabel('Token name').fill('Trust portal sync');
    await form.getByRole('combobox', { name: 'Expiry' }).click();
    await admin.getByRole('option', { name: 'No expiry' }).click();
    await see(admin, 'Works until it is revoked.');
    await form.getByRole('button', { name: 'Create token' }).click();
    await created.getByRole('button', { name: 'Done' }).click();

    await admin.reload();
    const table = admin.getByRole('table', { name: 'API tokens' });
    const exportRow = table.getByRole('row').filter({ hasText: 'Nightly library export' });
    const syncRow = table.getByRole('row').filter({ hasText: 'Trust portal sync' });
    await exportRow.waitFor();
    expect(await exportRow.getByText(prefix, { exact: true }).count()).toBe(1);
    expect(await exportRow.getByText('Contributor').count()).toBe(1);
    expect(await exportRow.getByText('Never used').count()).toBe(0);
    expect(await exportRow.getByText('Active', { exact: true }).count()).toBe(1);
    expect(await syncRow.getByText('Viewer').count()).toBe(1);
    expect(await syncRow.getByText('Never', { exact: true }).count()).toBe(1);
    expect(await syncRow.getByText('Never used').count()).toBe(1);
    await screenshot(admin, 'api-tokens-list');

    // Revoke asks first; then the same call is refused at once, and the token stays listed as Revoked.
    await admin.getByRole('button', { name: 'Revoke Nightly library export' }).click();
    const confirm = admin.getByRole('alertdialog', { name: 'Revoke API token' });
    await confirm.waitFor();
    await see(admin, 'Revoke this token? Scripts using it stop working at once.');
    await screenshot(admin, 'api-tokens-revoke-confirm');
    await confirm.getByRole('button', { name: 'Revoke token' }).click();
    await see(admin, 'Token revoked');
    await exportRow.getByText('Revoked', { exact: true }).waitFor();
    expect(await admin.getByRole('button', { name: 'Revoke Nightly library export' }).count()).toBe(0);
    expect((await libraryWithToken(token)).status).toBe(401);
    await screenshot(admin, 'api-tokens-revoked');

    expect(errors).toEqual([]);
    await ctx.close();
  }, 120_000);

  it('a manager sees no API Tokens tab, and the server refuses the calls too', async () => {
    const errors: string[] = [];
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const admin = await ctx.newPage();
    admin.on('pageerror', (e) => errors.push(e.message));
    const suffix = uniqueSuffix();
    await registerAdmin(admin, baseUrl, suffix);
    const manager = await joinAsViewer(admin, browser, baseUrl, `mgr${suffix}`, errors);
    const me = await apiCall<{ user: { id: string } }>(manager, 'GET', '/api/auth/me');
    await apiCall(admin, 'PUT', `/api/organizations/users/${me.user.id}/role`, { role: 'manager' });

    await manager.goto(`${baseUrl}/admin-settings?tab=api-tokens`);
    await manager.getByRole('tab', { name: 'Workspaces', selected: true }).waitFor();
    expect(await manager.getByRole('tab', { name: 'API Tokens' }).count()).toBe(0);
    expect(await manager.getByRole('button', { name: 'Create token' }).count()).toBe(0);
    const status = await manager.evaluate(async () => (await fetch('/api/admin/api-tokens')).status);
    expect(status).toBe(403);
    await screenshot(manager, 'api-tokens-manager');

    expect(errors).toEqual([]);
    await manager.context().close();
    await ctx.close();
  }, 60_000);
});
