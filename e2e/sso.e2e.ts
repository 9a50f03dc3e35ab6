import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContextOptions, Locator, Page } from 'playwright-core';
import { SSO_ERRORS } from '../common/schemas/sso';
import { startOidcProvider, type TestOidcProvider } from '../test/helpers/oidc-provider';
import { expectNoHorizontalOverflow, expectNoSeriousAxeViolations } from './a11y';
import { launchBrowser, screenshot } from './browser';
import { apiCall, joinAsMember, openAdminPage, uniqueSuffix } from './session';
import { publishTxt } from './dns-records';

const baseUrl = inject('baseUrl');
const dnsDir = inject('dnsDir');
const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };
const PASSWORD = 'secret-1234';
const NOT_FOUND =
  'No organization signs in with SSO for this e-mail domain. Sign in with your password, or ask your admin.';
const SSO_REQUIRED = /Your organization signs in with SSO\. Use “Sign in with SSO”/;

let browser: Browser;
// A real OpenID provider on loopback; Verity reaches it by its issuer URL, the browser by its redirects.
let provider: TestOidcProvider;
beforeAll(async () => {
  browser = await launchBrowser();
  provider = await startOidcProvider({ redirectUris: [`${baseUrl}/api/auth/sso/callback`] });
});
afterAll(async () => {
  await browser.close();
  await provider.close();
});

/** A fresh browser (no session) whose uncaught errors land in `errors`. */
async function freshPage(errors: string[], options: BrowserContextOptions = { viewport: DESKTOP }): Promise<Page> {
  const page = await browser.newPage(options);
  page.on('pageerror', (e) => errors.push(e.message));
  return page;
}

async function openSsoTab(page: Page): Promise<Locator> {
  await page.goto(`${baseUrl}/admin-settings`);
  await page.getByRole('button', { name: 'Admin Dashboard' }).click();
  const dialog = page.getByRole('dialog', { name: 'Admin Dashboard' });
  await dialog.getByRole('tab', { name: 'SSO Settings' }).click();
  await dialog.getByLabel('Issuer URL').waitFor();
  return dialog;
}

async function fillProvider(dialog: Locator): Promise<void> {
  await dialog.getByLabel('Issuer URL').fill(provider.issuer);
  await dialog.getByLabel('Client ID').fill(provider.clientId);
  await dialog.getByLabel('Client Secret').fill(provider.clientSecret);
}

async function addDomain(dialog: Locator, domain: string): Promise<void> {
  const box = dialog.getByRole('textbox', { name: 'E-mail domains' });
  await box.fill(domain);
  await box.press('Enter');
}

async function saveSso(page: Page, dialog: Locator): Promise<void> {
  await dialog.getByRole('button', { name: 'Save SSO Settings' }).click();
  await page.getByText('SSO settings saved').first().waitFor();
}

/** The dialog's section scrolls on its own (a full-page screenshot shows only what is in view). */
async function scrollSsoTab(dialog: Locator, to: 'top' | 'bottom'): Promise<void> {
  await dialog
    .getByRole('tabpanel')
    .evaluate((panel, where) => panel.scrollTo({ top: where === 'top' ? 0 : panel.scrollHeight }), to);
}

/** Opens "Sign in with SSO" on the login page and asks for the organization of `lookup`. */
async function continueWithSso(page: Page, lookup: string): Promise<void> {
  await page.goto(`${baseUrl}/login`);
  await page.getByRole('button', { name: 'Sign in with SSO' }).click();
  await page.getByLabel('Work e-mail or organization').fill(lookup);
  await page.getByRole('button', { name: 'Continue', exact: true }).click();
}

/** At the provider's own sign-in page: types the login and sends it. */
async function signInAtProvider(page: Page, login: string): Promise<void> {
  await page.waitForURL((url) => url.origin === provider.issuer);
  await page.getByLabel('Login').fill(login);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Overflow and axe on the page as it is now, then a screenshot. */
async function checkScreen(page: Page, name: string): Promise<void> {
  await expectNoHorizontalOverflow(page);
  await expectNoSeriousAxeViolations(page);
  await screenshot(page, name);
}

async function passwordSignIn(page: Page, username: string): Promise<void> {
  await page.goto(`${baseUrl}/login`);
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
}

describe('SSO sign-in', () => {
  it('an admin sets SSO up in the SSO tab and a person signs in through the identity provider', async () => {
    const admin = await openAdminPage(browser, baseUrl, { viewport: DESKTOP });
    const { page, errors, suffix } = admin;
    const domain = `acme${suffix}.example`;

    const dialog = await openSsoTab(page);
    // The address to register at the provider, read-only beside a Copy button.
    await expect(dialog.getByLabel('Redirect URI').inputValue()).resolves.toBe(`${baseUrl}/api/auth/sso/callback`);
    await fillProvider(dialog);
    // Typed with an @ and in capitals, it is kept as the bare lower-case domain.
    await addDomain(dialog, `@${domain.toUpperCase()}`);
    await dialog.getByRole('list', { name: 'E-mail domains' }).getByText(domain, { exact: true }).waitFor();
    await dialog.getByRole('button', { name: 'Add group mapping' }).click();
    await dialog.getByRole('textbox', { name: 'Group 1' }).fill('verity-managers');
    await dialog.getByRole('combobox', { name: 'Role for group 1' }).click();
    await page.getByRole('option', { name: 'Manager' }).click();
    await saveSso(page, dialog);
    await dialog.getByText('Client secret stored').waitFor();
    await scrollSsoTab(dialog, 'top');
    await checkScreen(page, 'sso-tab-1440');

    // The saved domain waits for its DNS record: the admin publishes it and presses Verify.
    const row = dialog.getByRole('listitem', { name: domain });
    await row.getByText('Not verified').waitFor();
    await row.getByRole('button', { name: `Verify ${domain}` }).scrollIntoViewIfNeeded();
    await checkScreen(page, 'sso-tab-domain-1440');
    // Pressed before the record is published, it says what is missing.
    await row.getByRole('button', { name: `Verify ${domain}` }).click();
    await page
      .getByText(new RegExp(`^No TXT record verity-domain-verification=\\w+ was found at _verity-challenge\\.`))
      .first()
      .waitFor();
    const recordName = await row.getByLabel('TXT record name').inputValue();
    const recordValue = await row.getByLabel('TXT record value').inputValue();
    expect(recordName).toBe(`_verity-challenge.${domain}`);
    publishTxt(dnsDir, recordName, [recordValue]);
    await row.getByRole('button', { name: `Verify ${domain}` }).click();
    await row.getByText(/^Verified/).waitFor();
    await page.getByText(`${domain} verified`).first().waitFor();
    const saved = await apiCall<{ domains: string[]; groupRoles: unknown[]; defaultRole: string }>(
      page,
      'GET',
      '/api/admin/sso',
    );
    expect(saved).toMatchObject({
      domains: [domain],
      groupRoles: [{ group: 'verity-managers', role: 'manager' }],
      defaultRole: 'viewer',
    });

    // The same tab on a phone.
    const phone = await freshPage(errors, { viewport: PHONE, storageState: await admin.context.storageState() });
    const phoneDialog = await openSsoTab(phone);
    await phoneDialog.getByRole('textbox', { name: 'Group 1' }).waitFor();
    await checkScreen(phone, 'sso-tab-390');
    await phoneDialog.getByRole('listitem', { name: domain }).scrollIntoViewIfNeeded();
    await checkScreen(phone, 'sso-tab-390-domain');
    await scrollSsoTab(phoneDialog, 'bottom');
    await checkScreen(phone, 'sso-tab-390-lower');
    await phone.context().close();

    // A domain another organization verified is refused under the domains box; so is a public mail domain.
    const other = await openAdminPage(browser, baseUrl, { viewport: DESKTOP });
    const otherDialog = await openSsoTab(other.page);
    await fillProvider(otherDialog);
    await addDomain(otherDialog, 'gmail.com');
    await otherDialog.getByRole('button', { name: 'Save SSO Settings' }).click();
    await otherDialog.getByText(/^gmail\.com is the domain of a public e-mail service/).waitFor();
    await otherDialog.getByRole('button', { name: 'Remove gmail.com' }).click();
    await addDomain(otherDialog, domain);
    await otherDialog.getByRole('button', { name: 'Save SSO Settings' }).click();
    await otherDialog
      .getByText(`${domain} already signs in to another organization. Remove it from the list.`)
      .waitFor();
    await other.context.close();

    // A person of that domain, in the groups the admin mapped.
    const login = `ada${suffix}`;
    provider.addAccount({
      login,
      sub: `sub-${login}`,
      email: `ada@${domain}`,
      emailVerified: true,
      givenName: 'Ada',
      familyName: 'Lovelace',
      groups: ['verity-managers', 'everyone'],
    });
    const person = await freshPage(errors);
    // An address no organization claims is answered on the spot.
    await continueWithSso(person, `ada@nobody-${suffix}.example`);
    await person.getByText(NOT_FOUND).waitFor();
    expect(new URL(person.url()).pathname).toBe('/login');

    await person.getByLabel('Work e-mail or organization').fill(`ada@${domain}`);
    await checkScreen(person, 'sso-login-1440');
    await person.getByRole('button', { name: 'Continue', exact: true }).click();
    await signInAtProvider(person, login);
    await person.waitForURL(`${baseUrl}/dashboard`);
    await person.getByRole('heading', { name: 'Ask Questions', level: 1 }).waitFor();
    // Signed in as the account the first sign-in made, with the role of the mapped group.
    await person.getByText(login, { exact: true }).waitFor();
    await person.getByText('Manager', { exact: true }).waitFor();
    const me = await apiCall<{ user: Record<string, unknown> }>(person, 'GET', '/api/auth/me');
    expect(me.user).toMatchObject({ username: login, email: `ada@${domain}`, firstName: 'Ada', role: 'manager' });

    // The login page remembers the address for the next SSO sign-in.
    await person.context().clearCookies();
    await person.goto(`${baseUrl}/login`);
    await person.getByRole('button', { name: 'Sign in with SSO' }).click();
    await expect(person.getByLabel('Work e-mail or organization').inputValue()).resolves.toBe(`ada@${domain}`);

    // The login page with the SSO path open on a phone.
    const phoneLogin = await freshPage(errors, { viewport: PHONE });
    await phoneLogin.goto(`${baseUrl}/login`);
    await phoneLogin.getByRole('button', { name: 'Sign in with SSO' }).click();
    await phoneLogin.getByLabel('Work e-mail or organization').fill(`ada@${domain}`);
    await checkScreen(phoneLogin, 'sso-login-390');
    await phoneLogin.context().close();

    await person.context().close();
    expect(errors).toEqual([]);
    await admin.context.close();
  }, 120_000);

  it('a sign-in the identity provider refuses comes back to the login page with its sentence, shown once', async () => {
    const admin = await openAdminPage(browser, baseUrl, { viewport: DESKTOP });
    const { errors } = admin;
    await apiCall(admin.page, 'PUT', '/api/admin/sso', {
      issuer: provider.issuer,
      clientId: provider.clientId,
      clientSecret: provider.clientSecret,
    });
    const { slug } = await apiCall<{ slug: string }>(admin.page, 'GET', '/api/organizations/current');
    await admin.context.close();

    // Found by the organization's short name; the provider does not know this login and refuses.
    const page = await freshPage(errors);
    await continueWithSso(page, slug);
    await signInAtProvider(page, `nobody-${uniqueSuffix()}`);
    await page.waitForURL((url) => url.pathname === '/login' && !url.searchParams.has('sso_error'));
    const alert = page.getByRole('alert').filter({ hasText: SSO_ERRORS.sso_denied });
    await alert.waitFor();
    await screenshot(page, 'sso-login-error');
    // The code left the address, so a reload does not repeat the message.
    await page.reload();
    await page.getByRole('button', { name: 'Sign In', exact: true }).waitFor();
    expect(await alert.count()).toBe(0);

    // Another code's sentence; a code Verity never sends shows nothing.
    await page.goto(`${baseUrl}/login?sso_error=sso_expired`);
    await page.getByRole('alert').filter({ hasText: SSO_ERRORS.sso_expired }).waitFor();
    await page.goto(`${baseUrl}/login?sso_error=%3Cb%3Ehello`);
    await page.getByRole('button', { name: 'Sign In', exact: true }).waitFor();
    await page.waitForURL((url) => !url.searchParams.has('sso_error'));
    expect(await page.getByRole('alert').count()).toBe(0);

    expect(errors).toEqual([]);
    await page.context().close();
  }, 120_000);

  it('with SSO required, passwords work only for the break-glass admin', async () => {
    const admin = await openAdminPage(browser, baseUrl, { viewport: DESKTOP });
    const { page, errors, suffix, username } = admin;
    const member = `member${suffix}`;
    const memberPage = await joinAsMember(page, browser, baseUrl, member, errors, 'contributor');
    await memberPage.context().close();

    const dialog = await openSsoTab(page);
    await fillProvider(dialog);
    await dialog.getByRole('switch', { name: 'Require SSO' }).click();
    // Requiring SSO without a way back in is refused where the admin chooses it.
    await dialog.getByRole('button', { name: 'Save SSO Settings' }).click();
    await dialog.getByText(/^Choose a break-glass admin/).waitFor();
    await dialog.getByRole('combobox', { name: 'Break-glass admin' }).click();
    // Only admins are offered.
    expect(await page.getByRole('option', { name: new RegExp(member) }).count()).toBe(0);
    await page.getByRole('option', { name: new RegExp(`^${username} `) }).click();
    await saveSso(page, dialog);
    await dialog.getByText('SSO required', { exact: true }).waitFor();
    await screenshot(page, 'sso-tab-required');

    // The member's password no longer signs in: the sentence, and the SSO path opens.
    const memberAgain = await freshPage(errors);
    await passwordSignIn(memberAgain, member);
    await memberAgain.getByRole('alert').filter({ hasText: SSO_REQUIRED }).waitFor();
    await memberAgain.getByLabel('Work e-mail or organization').waitFor();
    await screenshot(memberAgain, 'sso-login-required');
    await memberAgain.context().close();

    // The break-glass admin still signs in with a password.
    const adminAgain = await freshPage(errors);
    await passwordSignIn(adminAgain, username);
    await adminAgain.waitForURL(`${baseUrl}/dashboard`);
    await adminAgain.getByText(username, { exact: true }).waitFor();
    await adminAgain.context().close();

    expect(errors).toEqual([]);
    await admin.context.close();
  }, 120_000);
});
