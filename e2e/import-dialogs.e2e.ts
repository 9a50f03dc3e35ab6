import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { launchBrowser, screenshot } from './browser';
import { questionnaireWorkbook } from './questionnaire-workbook';
import { apiCall, openAdminPage } from './session';

const baseUrl = inject('baseUrl');
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser.close());

function tempFile(name: string, bytes: Buffer | string): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'verity-import-')), name);
  fs.writeFileSync(file, bytes);
  return file;
}

/** True when a click at the middle of `target` would reach it, not something drawn over it (a toast). */
async function isUncovered(page: Page, target: Locator): Promise<boolean> {
  const box = await target.boundingBox();
  if (!box) return false;
  const handle = await target.elementHandle();
  return page.evaluate(
    ({ x, y, el }) => {
      const hit = document.elementFromPoint(x, y);
      return hit !== null && el !== null && (hit === el || el.contains(hit));
    },
    { x: box.x + box.width / 2, y: box.y + box.height / 2, el: handle },
  );
}

const EXISTING = 'Do you encrypt customer data at rest?';
const ANSWER = 'Yes, all customer data is encrypted at rest with AES-256.';

describe('Import Q&A', () => {
  it('shows a hint, not content, reports a parse error beside the form, and counts duplicates apart', async () => {
    const {
      context: ctx,
      page,
      errors,
    } = await openAdminPage(browser, baseUrl, { viewport: { width: 1280, height: 800 } });
    await apiCall(page, 'POST', '/api/canonical-answers', { question: EXISTING, answer: ANSWER, status: 'approved' });

    await page.goto(`${baseUrl}/import`);
    const content = page.getByLabel('Content');
    await content.waitFor();
    // The placeholder is plainly an example with slots, not entries that seem already typed.
    const placeholder = (await content.getAttribute('placeholder')) ?? '';
    expect(placeholder.startsWith('Example:')).toBe(true);
    expect(placeholder).toContain('<question>');

    // A parse error shows in the form, and the Preview button stays reachable.
    await content.fill('name,size\nDo you back up data?,Yes daily.');
    const previewButton = page.getByRole('button', { name: 'Preview Import' });
    await previewButton.click();
    await page.getByText("Parse error: CSV must contain 'question' and 'answer' columns").waitFor();
    await screenshot(page, 'import-parse-error');
    expect(await isUncovered(page, previewButton)).toBe(true);

    // One entry the library has, one repeated: both are duplicates, and only the rest is counted as ready.
    await content.fill(
      [
        'question,answer,tags',
        `"${EXISTING.toUpperCase()}","${ANSWER}",encryption`,
        '"Is MFA enforced for employees?","Yes, with hardware keys for every employee.",mfa',
        '"Is MFA enforced for employees","Yes, with hardware keys for every employee.",mfa',
      ].join('\n'),
    );
    await previewButton.click();
    const preview = page.getByRole('dialog', { name: 'Import Preview' });
    await preview.getByText('1 entry ready to import. 2 duplicates will be skipped.').waitFor();
    await preview.getByText('Already in the library: will be skipped').waitFor();
    await preview.getByText('Repeats entry 2: will be skipped').waitFor();
    await screenshot(page, 'import-preview-duplicates');
    await preview.getByRole('button', { name: 'Import 1 Answer', exact: true }).click();
    await page.getByText('Imported 1 canonical answer successfully', { exact: true }).first().waitFor();
    await page.getByText('2 entries were skipped as duplicates.').first().waitFor();
    // The result stays on the page until the next import is started, with an empty form.
    const result = page.getByRole('region', { name: 'Import complete' });
    await result.getByText('1 entry was added to the Knowledge Library.', { exact: false }).waitFor();
    await result.getByRole('link', { name: 'Open the Knowledge Library' }).waitFor();
    await result.getByRole('button', { name: 'Import more' }).click();
    await result.waitFor({ state: 'detached' });
    expect(await content.inputValue()).toBe('');

    expect(errors).toEqual([]);
    await ctx.close();
  });
});

describe('assessment import dialog', () => {
  it('drops a message once it no longer applies, and names every accepted file type', async () => {
    const {
      context: ctx,
      page,
      errors,
    } = await openAdminPage(browser, baseUrl, { viewport: { width: 1280, height: 800 } });
    await page.goto(`${baseUrl}/assessments`);
    await page.getByRole('button', { name: 'Import Assessment' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Import Assessment' });
    await dialog.getByRole('button', { name: 'Import Assessment' }).click();
    await dialog.getByText('Please enter an assessment name.').waitFor();
    await dialog.getByText('Please select a file to import.').waitFor();

    const fileField = dialog.getByLabel('CSV, Excel or Word file *');
    await fileField.setInputFiles(tempFile('notes.txt', 'not a questionnaire'));
    await dialog.getByText('Please select a CSV, Excel or Word file.').waitFor();

    // A valid file: no sentence in the dialog still asks for a file or another type.
    await fileField.setInputFiles(tempFile('acme.xlsx', await questionnaireWorkbook()));
    await dialog.getByRole('region', { name: 'Preview' }).waitFor();
    expect(await dialog.getByText(/upload a CSV file|select a file|select a CSV/i).count()).toBe(0);
    await dialog.getByText('Please enter an assessment name.').waitFor();
    await screenshot(page, 'assessments-import-validation');

    expect(errors).toEqual([]);
    await ctx.close();
  });
});
