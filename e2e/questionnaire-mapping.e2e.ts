import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { toast } from './toasts';
import { launchBrowser, screenshot } from './browser';
import { apiCall, openAdminPage } from './session';

// Issue 34: the user corrects what the machine got wrong, once. A supplier review of a layout detection has not seen
// (a title block, questions in column D, an answer column labelled "Our position" that detection does not take for
// one, a sign-off line under the table read as a question) is corrected in the preview, imported and handed back
// filled in the corrected column; the next file of that layout imports with the correction remembered.

const baseUrl = inject('baseUrl');
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser.close());

const SHEET = 'Supplier Review';
const HEADER_ROW = 4;
const SIGN_OFF = 'Name and title of the officer signing off for the supplier:';

const MFA_ANSWER = 'Yes. Every employee signs in with multi-factor authentication using hardware security keys.';
const FIRST = [
  'Is multi-factor authentication enforced for all staff?',
  'Are access rights reviewed every quarter?',
  'Is the production network segmented from the office network?',
];
const SECOND = [
  'Is customer data encrypted at rest?',
  'Are backups restored and tested every year?',
  'Are administrator actions logged and reviewed?',
  'Do you run a vulnerability scan every month?',
];

/** The spreadsheet row (1-based) of the question at `index`. */
const rowOf = (index: number) => HEADER_ROW + 1 + index;

async function supplierReview(customer: string, questions: readonly string[]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet(SHEET);
  sheet.columns = [{ width: 4 }, { width: 10 }, { width: 14 }, { width: 60 }, { width: 30 }, { width: 30 }];
  sheet.getCell('A1').value = `Supplier security review for ${customer}`;
  sheet.getCell('A1').font = { bold: true, size: 14 };
  sheet.getCell('A2').value = `Prepared by the ${customer} procurement team`;
  sheet.getRow(HEADER_ROW).values = ['', 'Ref', 'Area', 'Point to confirm', 'Our position', 'Evidence'];
  sheet.getRow(HEADER_ROW).font = { bold: true };
  questions.forEach((question, index) => {
    sheet.getRow(rowOf(index)).values = ['', `SR-0${String(index + 1)}`, 'Security', question, '', ''];
  });
  // The sign-off block has a reference of its own, so detection reads it as a question.
  sheet.getRow(rowOf(questions.length)).values = ['', 'SO-01', 'Sign-off', SIGN_OFF, '', ''];
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

function tempFile(name: string, bytes: Buffer): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'verity-mapping-')), name);
  fs.writeFileSync(file, bytes);
  return file;
}

async function openImport(page: Page, name: string, file: string): Promise<{ dialog: Locator; preview: Locator }> {
  await page.goto(`${baseUrl}/assessments`);
  await page.getByRole('button', { name: 'Import Assessment' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Import Assessment' });
  await dialog.getByLabel('Assessment Name *').fill(name);
  await dialog.getByLabel('CSV, Excel or Word file *').setInputFiles(file);
  return { dialog, preview: dialog.getByRole('region', { name: 'Preview' }) };
}

/** Waits until the preview shows the answer of its latest request. */
async function settled(page: Page) {
  await page.waitForFunction(() => !document.querySelector('[aria-label="Preview"][aria-busy="true"]'));
}

async function chooseOption(page: Page, combobox: Locator, option: string) {
  await combobox.click();
  await page.getByRole('option', { name: option, exact: true }).click();
  await settled(page);
  await expect.poll(() => combobox.textContent()).toBe(option);
}

async function loadWorkbook(bytes: Buffer): Promise<ExcelJS.Workbook> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(new Uint8Array(bytes).buffer);
  return workbook;
}

describe('correcting a questionnaire mapping once', () => {
  it('corrects an unfamiliar layout in the preview, fills the corrected column, and remembers it', async () => {
    const {
      context: ctx,
      page,
      errors,
    } = await openAdminPage(browser, baseUrl, { viewport: { width: 1440, height: 900 }, acceptDownloads: true });
    await apiCall(page, 'POST', '/api/canonical-answers', {
      question: 'Is multi-factor authentication enforced for all employees?',
      answer: MFA_ANSWER,
      tags: ['security'],
      status: 'approved',
    });

    const original = await supplierReview('Acme Corp', FIRST);
    const { dialog, preview } = await openImport(page, 'Acme supplier review', tempFile('acme.xlsx', original));

    // Detection: the questions in D, but no answer column (a Response column would be added) and the sign-off line
    // taken for a question.
    await preview.getByText(`${FIRST.length + 1} questions found`).waitFor();
    const card = preview.getByRole('list', { name: 'Sheets' }).getByRole('listitem', { name: SHEET });
    const answerColumn = card.getByRole('combobox', { name: `Answer column of ${SHEET}` });
    expect(await card.getByRole('combobox', { name: `Question column of ${SHEET}` }).textContent()).toBe(
      'D · Point to confirm',
    );
    expect(await answerColumn.textContent()).toMatch(/^None/);
    await expect.poll(() => preview.getByText('Layout remembered', { exact: false }).count()).toBe(0);

    // The corrections: the answer goes under "Our position", the questions end on the row above the sign-off line.
    await chooseOption(page, answerColumn, 'E · Our position');
    const lastRow = card.getByRole('spinbutton', { name: `Last question row of ${SHEET}` });
    await lastRow.fill(String(rowOf(FIRST.length - 1)));
    await lastRow.press('Enter');
    await settled(page);
    await preview.getByText(`${FIRST.length} questions found`).waitFor();
    const firstQuestions = preview.getByRole('list', { name: 'First questions' });
    await expect.poll(() => firstQuestions.getByRole('listitem').count()).toBe(FIRST.length);
    expect(await firstQuestions.getByText(SIGN_OFF).count()).toBe(0);
    expect(await card.getByRole('spinbutton', { name: `Header row of ${SHEET}` }).inputValue()).toBe(
      String(HEADER_ROW),
    );

    // The mapping editor at a desktop's width and a phone's: nothing wider than the dialog.
    await card.scrollIntoViewIfNeeded();
    await screenshot(page, 'questionnaire-mapping-editor');
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await dialog.evaluate((root) => root.scrollWidth <= root.clientWidth)).toBe(true);
    expect(await card.evaluate((root) => root.scrollWidth <= root.clientWidth)).toBe(true);
    await card.scrollIntoViewIfNeeded();
    await screenshot(page, 'questionnaire-mapping-editor-phone');
    await page.setViewportSize({ width: 1440, height: 900 });

    await dialog.getByRole('button', { name: 'Import Assessment' }).click();
    await toast(page, 'Assessment created');
    await dialog.waitFor({ state: 'hidden' });

    // The filled original: the answer under "Our position" (E), no column added, the sign-off line left alone.
    const assessment = page.getByRole('list', { name: 'Assessments' }).getByRole('article').first();
    await assessment.getByText(`${FIRST.length} / ${FIRST.length} questions`).waitFor();
    await assessment.getByRole('link', { name: 'Acme supplier review' }).click();
    await page.waitForURL('**/assessments/*');
    const header = page.locator('header').filter({ has: page.getByRole('heading', { level: 1 }) });
    await header.getByText('Completed', { exact: true }).waitFor();
    await header.getByRole('button', { name: 'Export', exact: true }).click();
    const exportDialog = page.getByRole('dialog', { name: 'Export answers' });
    await exportDialog.getByRole('radio', { name: /^Excel \(filled original\)/, checked: true }).waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      exportDialog.getByRole('button', { name: 'Export', exact: true }).click(),
    ]);
    const filled = (await loadWorkbook(fs.readFileSync(await download.path()))).getWorksheet(SHEET);
    if (!filled) throw new Error('the filled workbook lost its sheet');
    expect(filled.getCell(`E${String(rowOf(0))}`).text).toContain('multi-factor authentication');
    expect(filled.getRow(HEADER_ROW).cellCount).toBeLessThanOrEqual(6);
    expect(filled.getCell(`G${String(HEADER_ROW)}`).text).toBe('');
    expect(filled.getCell(`E${String(rowOf(FIRST.length))}`).text).toBe('');

    // A second file of the same layout, another customer and other questions: read with the correction, no change.
    const next = await openImport(
      page,
      'Globex supplier review',
      tempFile('globex.xlsx', await supplierReview('Globex', SECOND)),
    );
    await next.preview.getByText(`${SECOND.length} questions found`).waitFor();
    await next.preview.getByText(/^Layout remembered from \w{3} \d+, \d{4}/).waitFor();
    const nextCard = next.preview.getByRole('list', { name: 'Sheets' }).getByRole('listitem', { name: SHEET });
    expect(await nextCard.getByRole('combobox', { name: `Answer column of ${SHEET}` }).textContent()).toBe(
      'E · Our position',
    );
    const nextQuestions = next.preview.getByRole('list', { name: 'First questions' });
    for (const question of SECOND) await nextQuestions.getByText(question, { exact: true }).waitFor();
    expect(await nextQuestions.getByText(SIGN_OFF).count()).toBe(0);
    await screenshot(page, 'questionnaire-mapping-remembered');

    // Forgetting it returns the preview to detection.
    await next.preview.getByRole('button', { name: 'Forget' }).click();
    await next.preview.getByText(`${SECOND.length + 1} questions found`).waitFor();
    await expect.poll(() => next.preview.getByText('Layout remembered', { exact: false }).count()).toBe(0);
    expect(await next.preview.getByRole('combobox', { name: `Answer column of ${SHEET}` }).textContent()).toMatch(
      /^None/,
    );

    expect(errors).toEqual([]);
    await ctx.close();
  }, 180_000);
});
