import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, screenshot } from './browser';

const baseUrl = inject('baseUrl');
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser.close());

async function expectVisible(page: Page, text: string | RegExp) {
  await page.getByText(text).first().waitFor({ state: 'visible' });
}

describe('sign up, sign out, sign in', () => {
  it('a new user signs up, lands on /dashboard as admin of a new organization, signs out and signs in again', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const suffix = Date.now().toString(36);
    const username = `ada${suffix}`;
    const password = 'correct-horse';

    await page.goto(`${baseUrl}/dashboard`);
    await page.waitForURL('**/login');
    await screenshot(page, 'login');

    await page.getByRole('tab', { name: 'Sign Up' }).click();
    await page.getByRole('button', { name: 'Create Account' }).click();
    await expectVisible(page, 'Username must be at least 3 characters');
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Email').fill(`${username}@example.com`);
    await page.getByLabel('Password').fill(password);
    await page.getByLabel('Organization Name').fill(`Acme ${suffix}`);
    await page.getByRole('button', { name: 'Create Account' }).click();

    await page.waitForURL('**/dashboard');
    await expectVisible(page, 'Ask Questions');
    await expectVisible(page, 'Current workspace: Default');
    await expectVisible(page, 'Workspace Settings');
    await screenshot(page, 'dashboard');
    const me = (await page.evaluate(async () => (await fetch('/api/auth/me')).json())) as { user: unknown };
    expect(me.user).toMatchObject({ username, role: 'admin' });

    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL('**/login');
    const after = await page.evaluate(async () => (await fetch('/api/auth/me')).status);
    expect(after).toBe(401);

    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Password').fill('wrong-password');
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await expectVisible(page, 'Invalid username or password');
    await screenshot(page, 'login-error');

    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await page.waitForURL('**/dashboard');
    await expectVisible(page, 'Current workspace: Default');

    await page.goto(`${baseUrl}/no/such/page`);
    await expectVisible(page, '404 Page Not Found');
    await screenshot(page, 'not-found');

    // A fresh browser asks for a reset link from the login page.
    const anon = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const resetPage = await anon.newPage();
    await resetPage.goto(`${baseUrl}/login`);
    await resetPage.getByRole('link', { name: 'Forgot your password?' }).click();
    await resetPage.waitForURL('**/reset-password');
    await resetPage.getByLabel('Email').fill(`${username}@example.com`);
    await resetPage.getByRole('button', { name: 'Send reset link' }).click();
    await resetPage.getByText('Password reset email sent. Check your inbox for instructions.').waitFor();
    await screenshot(resetPage, 'forgot-password');
    await anon.close();

    expect(errors).toEqual([]);
    await context.close();
  });
});
