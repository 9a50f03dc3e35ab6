import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser } from './browser';
import { apiCall, joinAsMember, openAdminPage } from './session';

const baseUrl = inject('baseUrl');
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser.close());

describe('chat history', () => {
  it('pages the chat history and shows each person what they may see', async () => {
    const {
      context: ctx,
      page,
      errors,
      suffix,
    } = await openAdminPage(browser, baseUrl, { viewport: { width: 1280, height: 800 } });
    const questions = Array.from({ length: 30 }, (_, i) => `Is control number ${i + 1} reviewed every quarter?`);
    await apiCall(page, 'POST', '/api/qa/entries', { questions });

    // A contributor asks one question of their own.
    const other = await joinAsMember(page, browser, baseUrl, `contrib${suffix}`, errors, 'contributor');
    await apiCall(other, 'POST', '/api/qa/ask', { question: 'Who reviews vendor contracts?' });

    // The admin sees everyone's questions, 25 to a page, and can narrow them to one person.
    await page.goto(`${baseUrl}/chat-history`);
    await page.getByText('Showing 1–25 of 31 questions').first().waitFor();
    await page.getByRole('button', { name: 'Next' }).first().click();
    await page.getByText('Showing 26–31 of 31 questions').first().waitFor();
    // A batch's answers share one timestamp, so which six land here is not fixed; how many is.
    await page.waitForFunction(() => document.querySelectorAll('[aria-label="Questions"] article').length === 6);
    await page.getByRole('combobox', { name: 'User' }).click();
    await page.getByRole('option', { name: `contrib${suffix}` }).click();
    await page.getByRole('list', { name: 'Questions' }).getByText('Who reviews vendor contracts?').waitFor();
    await page.waitForFunction(() => document.querySelectorAll('[aria-label="Questions"] article').length === 1);
    await page.getByRole('combobox', { name: 'Time period' }).click();
    await page.getByRole('option', { name: 'Today' }).click();
    await page.getByRole('list', { name: 'Questions' }).getByText('Who reviews vendor contracts?').waitFor();

    // The contributor sees only their own questions and no user filter.
    await other.goto(`${baseUrl}/chat-history`);
    await other.getByRole('list', { name: 'Questions' }).getByText('Who reviews vendor contracts?').waitFor();
    expect(await other.getByRole('list', { name: 'Questions' }).getByRole('article').count()).toBe(1);
    expect(await other.getByRole('combobox', { name: 'User' }).count()).toBe(0);
    await other.context().close();

    expect(errors).toEqual([]);
    await ctx.close();
  });
});
