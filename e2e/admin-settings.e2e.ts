import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, screenshot } from './browser';
import { waitForMailMatch } from './mail-inbox';
import { apiCall, registerAdmin, uniqueSuffix } from './session';
import { waitUntil } from '../test/helpers/wait';

const baseUrl = inject('baseUrl');
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser.close());

async function see(page: Page, text: string | RegExp) {
  await page.getByText(text).first().waitFor({});
}

/** The status of a call made from the page, for checking what the server refuses. */
function statusOf(page: Page, method: string, path: string, body?: unknown): Promise<number> {
  return page.evaluate(
    async ({ m, p, b }) =>
      (
        await fetch(p, {
          method: m,
          headers: b === undefined ? {} : { 'content-type': 'application/json' },
          body: b === undefined ? undefined : JSON.stringify(b),
        })
      ).status,
    { m: method, p: path, b: body },
  );
}

describe('Workspace Settings', () => {
  it('an admin brands the organization and invites a user, who joins, is made manager and sees only manager parts', async () => {
    const errors: string[] = [];
    const adminCtx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const admin = await adminCtx.newPage();
    admin.on('pageerror', (e) => errors.push(e.message));
    const suffix = uniqueSuffix();
    await registerAdmin(admin, baseUrl, suffix);

    await admin.goto(`${baseUrl}/dashboard`);
    await admin.getByRole('link', { name: 'Workspace Settings' }).click();
    await admin.waitForURL('**/admin-settings');
    await admin.getByRole('heading', { name: 'Workspace Settings' }).waitFor();
    for (const name of ['Organization', 'Branding', 'User Management', 'Workspaces']) {
      expect(await admin.getByRole('tab', { name }).count(), name).toBe(1);
    }

    // Organization: the brand name is the sidebar's label, and it changes as soon as it is saved.
    await admin.getByRole('link', { name: /InfoSec Agent/ }).waitFor();
    await admin.getByLabel('Brand Name').fill('Acme Trust Center');
    await admin.getByRole('button', { name: 'Save Changes' }).click();
    await see(admin, 'Organization settings updated successfully');
    await admin.getByRole('link', { name: /Acme Trust Center/ }).waitFor();
    await screenshot(admin, 'admin-settings-organization');

    // Branding: tone, disclaimers and banned tokens (plain text, pattern characters included).
    await admin.getByRole('tab', { name: 'Branding' }).click();
    await admin.getByRole('combobox', { name: 'Tone' }).click();
    await admin.getByRole('option', { name: 'Friendly' }).click();
    await admin.getByLabel('Disclaimers').fill('Answers are provided for information only.');
    const tokenInput = admin.getByRole('textbox', { name: 'Banned Tokens' });
    for (const token of ['guarantee', 'C++ (legacy)']) {
      await tokenInput.fill(token);
      await tokenInput.press('Enter');
    }
    await admin.getByRole('button', { name: 'Remove guarantee' }).waitFor();
    await admin.getByRole('button', { name: 'Save Changes' }).click();
    await see(admin, 'Organization settings updated successfully');
    await screenshot(admin, 'admin-settings-branding');
    const org = await apiCall<{ brandName: string; brandProfile: Record<string, unknown> }>(
      admin,
      'GET',
      '/api/organizations/current',
    );
    expect(org).toMatchObject({
      brandName: 'Acme Trust Center',
      brandProfile: {
        tone: 'friendly',
        disclaimers: 'Answers are provided for information only.',
        bannedTokens: ['guarantee', 'C++ (legacy)'],
      },
    });

    // User Management: invite by e-mail; the dialog shows the same single-use link the e-mail carries.
    const invitee = `joiner${suffix}`;
    const inviteeEmail = `${invitee}@example.com`;
    await admin.getByRole('tab', { name: 'User Management' }).click();
    await admin.getByRole('button', { name: 'Invite user' }).click();
    const inviteDialog = admin.getByRole('dialog', { name: 'Invite user' });
    await inviteDialog.getByLabel('Email').fill(inviteeEmail);
    await inviteDialog.getByRole('button', { name: 'Send Invitation' }).click();
    const sent = admin.getByRole('dialog', { name: 'Invitation sent' });
    await sent.waitFor();
    const link = await sent.getByLabel('Invitation link').inputValue();
    expect(link).toContain('/login?invite=');
    expect(await waitForMailMatch(inviteeEmail, /http:\/\/\S+\/login\?invite=[\w-]+/)).toBe(link);
    await screenshot(admin, 'admin-settings-invite');
    await sent.getByRole('button', { name: 'Done' }).click();
    await admin.getByRole('list', { name: 'Pending invitations' }).getByText(inviteeEmail).waitFor();

    // The invitee signs up through the link and starts as a viewer: no admin-level items.
    const inviteeCtx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const member = await inviteeCtx.newPage();
    member.on('pageerror', (e) => errors.push(e.message));
    await member.goto(link);
    await see(member, /You've been invited to join/);
    await member.getByLabel('Username').fill(invitee);
    await member.getByLabel('Password').fill('secret-1234');
    await member.getByRole('button', { name: 'Create Account' }).click();
    await member.waitForURL('**/dashboard');
    await see(member, 'Current workspace: Default');
    expect(await member.getByRole('link', { name: 'Workspace Settings' }).count()).toBe(0);
    await member.goto(`${baseUrl}/admin-settings`);
    await see(member, 'Workspace Settings are for admins');
    expect(await member.getByRole('tab').count()).toBe(0);
    await screenshot(member, 'admin-settings-viewer');

    // The admin makes them a manager.
    await admin.reload();
    const roleSelect = admin.getByRole('combobox', { name: `Role of ${invitee}` });
    await roleSelect.click();
    await admin.getByRole('option', { name: 'Manager' }).click();
    await see(admin, 'User role updated successfully');
    await expect.poll(() => roleSelect.textContent()).toBe('Manager');
    expect(await admin.getByRole('list', { name: 'Pending invitations' }).count()).toBe(0);
    await screenshot(admin, 'admin-settings-users');

    // The manager sees the admin-level items (PRODUCT §4) but only the manager parts of Workspace Settings.
    await member.reload();
    await member.getByRole('link', { name: 'Chat History' }).waitFor();
    await member.getByRole('link', { name: 'Workspace Settings' }).click();
    await member.getByRole('heading', { name: 'Workspace Settings' }).waitFor();
    await see(member, 'Organization, branding and user management are for admins.');
    for (const name of ['Organization', 'Branding', 'User Management']) {
      expect(await member.getByRole('tab', { name }).count(), name).toBe(0);
    }
    expect(await member.getByRole('tab', { name: 'Workspaces', selected: true }).count()).toBe(1);
    // Asking for an admin tab by its address does not open it either, and the server refuses the calls.
    await member.goto(`${baseUrl}/admin-settings?tab=users`);
    await member.getByRole('tab', { name: 'Workspaces', selected: true }).waitFor();
    expect(await member.getByRole('button', { name: 'Invite user' }).count()).toBe(0);
    expect(await statusOf(member, 'PUT', '/api/organizations/current', { brandName: 'Hijacked' })).toBe(403);
    expect(
      await statusOf(member, 'POST', '/api/organizations/invitations', {
        email: `x${suffix}@example.com`,
        role: 'admin',
      }),
    ).toBe(403);

    // Managers manage workspaces.
    await member.getByRole('button', { name: 'New Workspace' }).click();
    const wsDialog = member.getByRole('dialog', { name: 'New Workspace' });
    await wsDialog.getByLabel('Workspace Name').fill('EMEA Deals');
    await wsDialog.getByRole('button', { name: 'Create Workspace' }).click();
    await see(member, 'Workspace created');
    await member.getByRole('list', { name: 'Workspaces' }).getByText('EMEA Deals').waitFor();
    await member.getByRole('button', { name: 'Rename EMEA Deals' }).click();
    const renameDialog = member.getByRole('dialog', { name: 'Rename Workspace' });
    await renameDialog.getByLabel('Workspace Name').fill('EMEA Enterprise');
    await renameDialog.getByRole('button', { name: 'Save Changes' }).click();
    await see(member, 'Workspace updated');
    await member.getByRole('list', { name: 'Workspaces' }).getByText('EMEA Enterprise').waitFor();
    await screenshot(member, 'admin-settings-manager');
    await member.getByRole('button', { name: 'Delete EMEA Enterprise' }).click();
    await member.getByRole('alertdialog').getByRole('button', { name: 'Delete Workspace' }).click();
    await see(member, 'Workspace deleted');
    expect(await member.getByRole('list', { name: 'Workspaces' }).getByText('EMEA Enterprise').count()).toBe(0);

    // Remove asks first; once confirmed, the person is signed out for good.
    await admin.getByRole('button', { name: `Remove ${invitee}` }).click();
    const confirm = admin.getByRole('alertdialog', { name: `Remove ${invitee}?` });
    await confirm.waitFor();
    await screenshot(admin, 'admin-settings-remove-confirm');
    await confirm.getByRole('button', { name: 'Remove' }).click();
    await see(admin, 'User removed');
    await expect.poll(() => admin.getByRole('combobox', { name: `Role of ${invitee}` }).count()).toBe(0);
    await member.reload();
    await member.waitForURL('**/login');

    expect(errors).toEqual([]);
    await inviteeCtx.close();
    await adminCtx.close();
  }, 120_000);
});

describe('Account Settings', () => {
  it('a user updates their profile, changes their password, signs out elsewhere and resets it by e-mail', async () => {
    const errors: string[] = [];
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await ctx.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
    const { username } = await registerAdmin(page, baseUrl, uniqueSuffix());
    let email = `${username}@example.com`;
    // A second browser of the same user.
    const otherCtx = await browser.newContext();
    const other = await otherCtx.newPage();
    const signInOther = async (password: string) => {
      await other.goto(`${baseUrl}/login`);
      await apiCall(other, 'POST', '/api/auth/login', { username, password });
    };
    await signInOther('secret-1234');

    await page.goto(`${baseUrl}/dashboard`);
    await page.getByRole('link', { name: 'Account' }).click();
    await page.waitForURL('**/account');
    await page.getByRole('heading', { name: 'Account Settings' }).waitFor();

    // Profile.
    expect(await page.getByLabel('Username').inputValue()).toBe(username);
    await page.getByLabel('First Name').fill('Grace');
    await page.getByLabel('Last Name').fill('Hopper');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await see(page, 'Profile updated successfully');
    // The sidebar's avatar follows at once (PRODUCT §3 initials).
    await page.getByRole('complementary').getByText('GH', { exact: true }).waitFor();
    await screenshot(page, 'account-profile');

    // A new e-mail address changes only through the link mailed to it.
    const newEmail = `${username}-new@example.com`;
    await page.getByLabel('Email').fill(newEmail);
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await see(page, `We sent a link to ${newEmail}.`);
    expect(await page.getByLabel('Email').inputValue()).toBe(email);
    const confirmLink = await waitForMailMatch(newEmail, /http:\/\/\S+\/confirm-email\?token=[\w-]+/);
    await other.goto(confirmLink);
    await other.getByRole('button', { name: 'Confirm e-mail address' }).click();
    await see(other, `Your e-mail address is now ${newEmail}.`);
    await screenshot(other, 'account-email-confirmed');
    email = newEmail;
    await page.reload();
    await page.getByRole('heading', { name: 'Account Settings' }).waitFor();
    await waitUntil(async () => expect(await page.getByLabel('Email').inputValue()).toBe(email));

    // Security: change the password (wrong current password, mismatch, then right).
    await page.getByRole('tab', { name: 'Security' }).click();
    await see(page, 'You are signed in here and in 1 other place.');
    const current = page.getByLabel('Current Password');
    const next = page.getByLabel('New Password', { exact: true });
    const confirm = page.getByLabel('Confirm New Password');
    await current.fill('not-my-password');
    await next.fill('brand-new-pass');
    await confirm.fill('brand-new-pass');
    await page.getByRole('button', { name: 'Change Password' }).click();
    await see(page, 'Current password is incorrect');
    await current.fill('secret-1234');
    // A password from the lists of leaked ones is refused under its field.
    await next.fill('password123');
    await confirm.fill('password123');
    await page.getByRole('button', { name: 'Change Password' }).click();
    await see(page, 'This password is too common');
    await next.fill('brand-new-pass');
    await confirm.fill('brand-new-typo');
    await page.getByRole('button', { name: 'Change Password' }).click();
    await see(page, "New passwords don't match");
    await confirm.fill('brand-new-pass');
    await page.getByRole('button', { name: 'Change Password' }).click();
    await see(page, 'Password changed successfully');
    await see(page, 'You are signed in only here.');
    expect(await statusOf(other, 'GET', '/api/auth/me')).toBe(401);
    await screenshot(page, 'account-security');

    // Sign out of all other sessions.
    await signInOther('brand-new-pass');
    await page.reload();
    await see(page, 'You are signed in here and in 1 other place.');
    await page.getByRole('button', { name: 'Sign out of all other sessions' }).click();
    await see(page, 'Signed out of 1 other session.');
    await see(page, 'You are signed in only here.');
    expect(await statusOf(other, 'GET', '/api/auth/me')).toBe(401);
    expect(await statusOf(page, 'GET', '/api/auth/me')).toBe(200);

    // Password Reset: the e-mail's link opens /reset-password and sets a new password.
    await page.getByRole('tab', { name: 'Password Reset' }).click();
    expect(await page.getByLabel('Email').inputValue()).toBe(email);
    await page.getByRole('button', { name: 'Send Reset Email' }).click();
    await see(page, 'Password reset email sent. Check your inbox for instructions.');
    await screenshot(page, 'account-password-reset');
    const resetLink = await waitForMailMatch(email, /http:\/\/\S+\/reset-password\?token=[\w-]+/);
    await other.goto(resetLink);
    await other.getByText('Choose a new password').waitFor();
    await other.getByLabel('New Password', { exact: true }).fill('from-the-email');
    await other.getByLabel('Confirm Password').fill('from-the-email');
    await other.getByRole('button', { name: 'Set new password' }).click();
    await see(other, 'Your password has been reset. Sign in with the new one.');
    await screenshot(other, 'account-reset-link');

    // The reset ended every session; the new password signs in.
    await page.reload();
    await page.waitForURL('**/login');
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Password').fill('from-the-email');
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await page.waitForURL('**/dashboard');
    // The link worked once.
    await other.goto(resetLink);
    await other.getByLabel('New Password', { exact: true }).fill('second-try');
    await other.getByLabel('Confirm Password').fill('second-try');
    await other.getByRole('button', { name: 'Set new password' }).click();
    await see(other, 'This reset link is invalid or has expired. Request a new one.');

    expect(errors).toEqual([]);
    await otherCtx.close();
    await ctx.close();
  }, 120_000);
});
