import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { toast } from './toasts';
import { launchBrowser, screenshot } from './browser';
import { apiCall, joinAsMember, openAdminPage } from './session';

const baseUrl = inject('baseUrl');
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser.close());

const SSO_SECRET = 'oidc-secret-never-shown-9f3k';

async function openDashboard(page: Page) {
  await page.goto(`${baseUrl}/admin-settings`);
  await page.getByRole('button', { name: 'Admin Dashboard' }).click();
  const dialog = page.getByRole('dialog', { name: 'Admin Dashboard' });
  await dialog.waitFor();
  return dialog;
}

describe('admin dashboard', () => {
  it('manages users, organization, SSO, shows analytics and filters the audit log', async () => {
    const {
      context: ctx,
      page,
      errors,
      suffix,
      username,
    } = await openAdminPage(browser, baseUrl, { viewport: { width: 1280, height: 900 } });

    // A second member, signed in in a browser of their own.
    const member = `member${suffix}`;
    const other = await joinAsMember(page, browser, baseUrl, member, errors, 'contributor');

    // Questions for the analytics: one the library answers, three it cannot.
    await apiCall(page, 'POST', '/api/canonical-answers', {
      question: 'Do you encrypt customer data at rest?',
      answer: 'Yes. Customer data at rest is encrypted with AES-256 using keys managed in AWS KMS.',
      tags: [],
      status: 'approved',
    });
    await apiCall(page, 'POST', '/api/qa/ask', { question: 'Do you encrypt customer data at rest?' });
    await apiCall(other, 'POST', '/api/qa/entries', {
      questions: [
        'Do you run a public bug bounty program?',
        'How are bug bounty reports triaged?',
        'What is the colour of your office?',
      ],
    });

    // Users & Roles: both people, their roles, and a role change.
    const dialog = await openDashboard(page);
    await dialog.getByText('Active Users (2)').waitFor();
    const memberRow = dialog.getByRole('row').filter({ hasText: member });
    await memberRow.getByText('Contributor').waitFor();
    await expect(memberRow.getByText(member.slice(0, 2).toUpperCase(), { exact: true }).count()).resolves.toBe(1);
    await screenshot(page, 'admin-dashboard-users');
    await memberRow.getByRole('button', { name: `Edit ${member}` }).click();
    const edit = page.getByRole('dialog', { name: 'Edit User' });
    await edit.getByRole('combobox').click();
    await page.getByRole('option', { name: 'Manager' }).click();
    await edit.getByRole('button', { name: 'Save Role' }).click();
    await toast(page, 'User role updated successfully');
    await memberRow.getByText('Manager').waitFor();

    // Add User sends an invitation and lists it as pending.
    await dialog.getByRole('button', { name: 'Add User' }).click();
    const add = page.getByRole('dialog', { name: 'Add User' });
    await add.getByLabel('Email').fill(`newcomer${suffix}@example.com`);
    await add.getByRole('button', { name: 'Send Invitation' }).click();
    // Once sent, the dialog (the same one as Workspace Settings' 'Invite user') is titled for what happened.
    const sent = page.getByRole('dialog', { name: 'Invitation sent' });
    await sent.getByLabel('Invitation link').waitFor();
    await screenshot(page, 'admin-dashboard-invite');
    await sent.getByRole('button', { name: 'Done' }).click();
    await dialog.getByText('Pending Invitations (1)').waitFor();

    // Organization: a bad slug is refused where it is typed; a good one is saved.
    await dialog.getByRole('tab', { name: 'Organization' }).click();
    const slugBox = dialog.getByLabel('Organization Slug');
    await slugBox.fill('Not A Slug');
    await dialog.getByRole('button', { name: 'Save Changes' }).click();
    await dialog.getByText(/Slug may contain only lower-case letters/).waitFor();
    const slug = `trust-${suffix}`;
    await slugBox.fill(slug);
    await dialog.getByLabel('Application Brand Name').fill('Trust Desk');
    await dialog.getByRole('button', { name: 'Save Changes' }).click();
    await toast(page, 'Organization settings updated successfully');
    await expect(apiCall<{ slug: string }>(page, 'GET', '/api/organizations/current')).resolves.toMatchObject({ slug });
    await screenshot(page, 'admin-dashboard-organization');

    // SSO: saved, and the secret is never shown again.
    await dialog.getByRole('tab', { name: 'SSO Settings' }).click();
    await dialog.getByLabel('Redirect URI').waitFor();
    await dialog.getByLabel('Issuer URL').fill('http://login.example.com');
    await dialog.getByLabel('Client ID').fill('verity-web');
    await dialog.getByLabel('Client Secret').fill(SSO_SECRET);
    await dialog.getByRole('button', { name: 'Save SSO Settings' }).click();
    await dialog.getByText(/must be an https:\/\/ address/).waitFor();
    await dialog.getByLabel('Issuer URL').fill('https://login.example.com/tenant-7');
    await dialog.getByRole('button', { name: 'Save SSO Settings' }).click();
    await toast(page, 'SSO settings saved');
    await dialog.getByText('Client secret stored').waitFor();
    await expect(dialog.getByLabel('Client Secret').inputValue()).resolves.toBe('');
    await screenshot(page, 'admin-dashboard-sso');
    // (Escape would first dismiss the toast, the newest layer.)
    await dialog.getByRole('button', { name: 'Close' }).last().click();
    await dialog.waitFor({ state: 'hidden' });
    const again = await openDashboard(page);
    await again.getByRole('tab', { name: 'SSO Settings' }).click();
    await expect(again.getByLabel('Issuer URL').inputValue()).resolves.toBe('https://login.example.com/tenant-7');
    await expect(again.getByLabel('Client Secret').inputValue()).resolves.toBe('');
    expect(await page.content()).not.toContain(SSO_SECRET);

    // Brand Profile: Workspace Settings' own form.
    await again.getByRole('tab', { name: 'Brand Profile' }).click();
    await again.getByText('Customize tone, language rules, and disclaimers.').waitFor();
    await again.getByLabel('Disclaimers').waitFor();
    await screenshot(page, 'admin-dashboard-brand-profile');

    // Analytics: the four questions, charted.
    await again.getByRole('tab', { name: 'Analytics' }).click();
    const questionsCard = again.getByText('Questions Asked').locator('..');
    await questionsCard.getByText('4', { exact: true }).waitFor();
    await again.getByText('by 2 people').waitFor();
    await again.locator('.recharts-bar-rectangle').first().waitFor();
    await again.locator('.recharts-pie-sector').first().waitFor();
    await again.getByRole('list', { name: 'Top unanswered topics' }).getByText('Bug bounty', { exact: true }).waitFor();
    await screenshot(page, 'admin-dashboard-analytics');
    await again
      .getByRole('tabpanel', { name: 'Analytics', exact: true })
      .evaluate((panel) => panel.scrollTo({ top: panel.scrollHeight }));
    await screenshot(page, 'admin-dashboard-analytics-lower');

    // Audit Log: filtered to one action, then to one user.
    await again.getByRole('tab', { name: 'Audit Log' }).click();
    const table = again.getByRole('table', { name: 'Audit log' });
    await table.getByText('SSO SETTINGS UPDATED').waitFor();
    await again.getByRole('combobox', { name: 'Action' }).click();
    await page.getByRole('option', { name: 'USER ROLE CHANGED' }).click();
    await table.getByText('contributor → manager').waitFor();
    await page.waitForFunction(() => document.querySelectorAll('[aria-label="Audit log"] tbody tr').length === 1);
    await again.getByRole('combobox', { name: 'Action' }).click();
    await page.getByRole('option', { name: 'All actions' }).click();
    await again.getByRole('combobox', { name: 'User' }).click();
    await page.getByRole('option', { name: member }).click();
    // Until the filtered page arrives the previous one stays on screen: wait for the rows to be the member's only.
    await page.waitForFunction((name) => {
      const cells = Array.from(document.querySelectorAll('[aria-label="Audit log"] tbody tr td:nth-child(2)'));
      return cells.length > 0 && cells.every((cell) => cell.textContent === name);
    }, member);
    await table.getByText('INVITATION ACCEPTED').waitFor();
    await screenshot(page, 'admin-dashboard-audit-log');

    // The member (now a manager) may open Workspace Settings, and of the Admin Dashboard only Analytics (for its
    // Accuracy part): users, settings, usage and the audit log stay an admin's.
    await other.goto(`${baseUrl}/admin-settings`);
    await other.getByRole('heading', { name: 'Workspace Settings' }).waitFor();
    await other.getByRole('button', { name: 'Admin Dashboard' }).click();
    const managerDialog = other.getByRole('dialog', { name: 'Admin Dashboard' });
    await managerDialog.getByRole('heading', { name: /^Accuracy/ }).waitFor();
    expect(await managerDialog.getByRole('tab').allTextContents()).toEqual(['Analytics']);
    expect(await managerDialog.getByText('Questions Asked').count()).toBe(0);
    await other.keyboard.press('Escape');

    // Removing the member asks first, then ends their access.
    await again.getByRole('tab', { name: 'Users & Roles' }).click();
    await again.getByRole('button', { name: `Remove ${member}` }).click();
    const confirm = page.getByRole('alertdialog', { name: `Remove ${member}?` });
    await confirm.getByRole('button', { name: 'Remove' }).click();
    await toast(page, 'User removed');
    await again.getByText('Active Users (1)').waitFor();
    expect(await again.getByRole('button', { name: `Remove ${username}` }).isDisabled()).toBe(true);
    await other.context().close();

    expect(errors).toEqual([]);
    await ctx.close();
  });
});
