import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { toast } from './toasts';
import { launchBrowser, screenshot, SCREENSHOT_DIR } from './browser';
import {
  HECVAT_PREFILLED,
  HECVAT_QUESTIONS,
  HECVAT_REFERENCE,
  HECVAT_ROW_OF,
  HECVAT_SHEET,
  hecvatQuestion,
  hecvatWorkbook,
} from './hecvat-workbook';
import { LIBRARY, QUESTIONS, ROW_OF, SHEET, questionOf, questionnaireWorkbook } from './questionnaire-workbook';
import { apiCall, joinAsViewer, openAdminPage } from './session';

const baseUrl = inject('baseUrl');
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser.close());

const DP04_ANSWER = 'Customer data is deleted within 30 days of contract end, and backups expire after 35 days.';
/** Contradicts the library's answer to DP-01, which the consistency check must flag. */
const FU01_ANSWER = 'No. Customer data in the analytics environment is not encrypted at rest yet.';

function tempFile(name: string, bytes: Buffer | string): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'verity-assessments-')), name);
  fs.writeFileSync(file, bytes);
  return file;
}

/**
 * A screenshot of a screen with spinners: `screenshot` waits for every animation to end, which a spinner never does,
 * so this waits only for the finite ones (dialogs opening, bars moving).
 */
async function screenshotWhileBusy(page: Page, name: string) {
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().iterations === Infinity),
  );
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
}

/** A question's card on the detail page, by its text. */
function questionCard(page: Page, question: string): Locator {
  return page.getByRole('list', { name: 'Assessment questions' }).getByRole('article').filter({ hasText: question });
}

/** The detail page's header: the title, its status badge, the description and the details under it. */
function detailHeader(page: Page): Locator {
  return page.locator('header').filter({ has: page.getByRole('heading', { level: 1 }) });
}

/** Every cell's text by its address ('C7'), the empty ones left out. */
function cellTexts(sheet: ExcelJS.Worksheet | undefined): Map<string, string> {
  const texts = new Map<string, string>();
  sheet?.eachRow({ includeEmpty: false }, (row) =>
    row.eachCell({ includeEmpty: false }, (cell) => {
      if (cell.text !== '') texts.set(cell.address, cell.text);
    }),
  );
  return texts;
}

async function loadWorkbook(bytes: Buffer): Promise<ExcelJS.Workbook> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(new Uint8Array(bytes).buffer);
  return workbook;
}

/** Waits (through the page's own polling) until the assessment is done. */
async function waitForCompleted(page: Page) {
  await detailHeader(page).getByText('Completed', { exact: true }).waitFor();
}

describe('bulk assessments', () => {
  it('previews a questionnaire workbook, answers it, takes review and hands the workbook back filled in', async () => {
    const {
      context: ctx,
      page,
      errors,
      username,
    } = await openAdminPage(browser, baseUrl, { viewport: { width: 1440, height: 900 }, acceptDownloads: true });
    const entries: { id: string }[] = [];
    for (const entry of LIBRARY) {
      entries.push(
        await apiCall(page, 'POST', '/api/canonical-answers', { ...entry, tags: ['security'], status: 'approved' }),
      );
    }

    await page.goto(`${baseUrl}/assessments`);
    await page.getByRole('heading', { name: 'Bulk Assessments' }).waitFor();
    await page.getByText('No assessments yet').waitFor();
    await screenshot(page, 'assessments-empty');

    // The dialog's rules: a name and a file are required.
    await page.getByRole('button', { name: 'Import Assessment' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Import Assessment' });
    await dialog.getByRole('button', { name: 'Import Assessment' }).click();
    await toast(page, 'Please provide assessment name and upload a CSV file.');
    await dialog.getByLabel('CSV, Excel or Word file *').setInputFiles(tempFile('notes.txt', 'not a questionnaire'));
    await toast(page, 'Please select a CSV, Excel or Word file.');

    // The example name is this year's, not a year gone by.
    expect(await dialog.getByLabel('Assessment Name *').getAttribute('placeholder')).toContain(
      String(new Date().getFullYear()),
    );
    await dialog.getByLabel('Assessment Name *').fill('Acme Corp vendor review');
    await dialog.getByLabel('Customer Name').fill('Acme Corp');
    await dialog.getByLabel('Assessment Type').fill('Vendor questionnaire');
    await dialog.getByLabel('Description').fill('Annual security review requested by Acme procurement.');
    await dialog
      .getByLabel('CSV, Excel or Word file *')
      .setInputFiles(tempFile('acme-security.xlsx', await questionnaireWorkbook()));

    // The preview: the detected question and answer columns, the count and the first questions.
    const preview = dialog.getByRole('region', { name: 'Preview' });
    await preview.getByText(`${QUESTIONS.length} questions found`).waitFor();
    const questionColumn = preview.getByRole('combobox', { name: `Question column of ${SHEET}` });
    const answerColumn = preview.getByRole('combobox', { name: `Answer column of ${SHEET}` });
    expect(await questionColumn.textContent()).toBe('B · Question');
    expect(await answerColumn.textContent()).toBe('C · Response');
    const firstQuestions = preview.getByRole('list', { name: 'First questions' });
    await firstQuestions.getByText(questionOf('DP-01')).waitFor();
    await firstQuestions.getByText('DP-01', { exact: true }).waitFor();
    expect(await firstQuestions.getByRole('listitem').count()).toBe(QUESTIONS.length);
    // One scroll: the dialog's. The list of questions grows with them instead of scrolling inside the dialog.
    expect(
      await firstQuestions.evaluate((list) => ({
        overflow: getComputedStyle(list).overflowY,
        clipped: list.scrollHeight > list.clientHeight + 1,
      })),
    ).toEqual({ overflow: 'visible', clipped: false });
    // Where the filled-in workbook writes: a value of the dropdown, and the full answer in the comments column.
    const written = preview.getByRole('list', { name: `Columns filled in ${SHEET}` });
    await written.getByText('C · Response', { exact: true }).waitFor();
    await written.getByText('— A value from its dropdown list', { exact: true }).waitFor();
    await written.getByText('D · Comments', { exact: true }).waitFor();
    await written.getByText('— The full answer', { exact: true }).waitFor();
    // The hidden list sheet is not a questionnaire: folded away under a summary, with the reason inside.
    await preview.getByText('1 sheet not imported (without questions)', { exact: true }).click();
    const lists = preview.getByRole('list', { name: 'Sheets not imported' }).getByRole('listitem', { name: 'Lists' });
    await lists.getByText('Not imported', { exact: true }).waitFor();
    await lists.getByText('No questions found on it.', { exact: true }).waitFor();

    // A changed column is previewed again; changing it back restores the detection.
    await answerColumn.click();
    await page.getByRole('option', { name: 'D · Comments' }).click();
    await page.waitForFunction(
      (name) => document.querySelector(`[aria-label="${name}"]`)?.textContent === 'D · Comments',
      `Answer column of ${SHEET}`,
    );
    await preview.getByText(`${QUESTIONS.length} questions found`).waitFor();
    await answerColumn.click();
    await page.getByRole('option', { name: 'C · Response' }).click();
    await page.waitForFunction(
      (name) => document.querySelector(`[aria-label="${name}"]`)?.textContent === 'C · Response',
      `Answer column of ${SHEET}`,
    );
    await page.waitForFunction(() => !document.querySelector('[aria-label="Preview"][aria-busy="true"]'));
    // The dialog scrolls: show the preview and the buttons under it.
    await dialog.evaluate((element) => element.scrollTo(0, element.scrollHeight));
    await screenshot(page, 'assessments-import-preview');

    await dialog.getByRole('button', { name: 'Import Assessment' }).click();
    await toast(page, 'Assessment created');
    await toast(page, new RegExp(`^Processing ${QUESTIONS.length} questions\\. Estimated time: .+`));
    await dialog.waitFor({ state: 'hidden' });

    // The specification's CSV path makes a second assessment for the list.
    await apiCall(page, 'POST', '/api/assessments/import-csv', {
      csvContent: 'Question\nDo you encrypt customer data at rest?\nDo you have a SOC 2 Type II report?\n',
      name: 'Globex quick check',
      description: 'Two questions from the Globex sales call.',
      metadata: { sourceFile: 'globex.csv', customerName: 'Globex', assessmentType: 'Sales follow-up' },
    });
    await page.reload();
    const cards = page.getByRole('list', { name: 'Assessments' }).getByRole('article');
    const acme = cards.filter({ hasText: 'Acme Corp vendor review' });
    const globex = cards.filter({ hasText: 'Globex quick check' });
    await acme.getByText(`${QUESTIONS.length} / ${QUESTIONS.length} questions`).waitFor();
    await acme.getByText('Completed', { exact: true }).waitFor();
    await globex.getByText('2 / 2 questions').waitFor();
    await globex.getByText('Completed', { exact: true }).waitFor();
    await acme.getByText('Acme Corp', { exact: true }).waitFor();
    await acme.getByText('Vendor questionnaire').waitFor();
    await acme.getByText(/^Completed \w{3} \d+, \d{4}$/).waitFor();
    await screenshot(page, 'assessments-list');

    // The card's menu: the export dialog with CSV chosen, saying first that nothing is reviewed yet; the file is named
    // after the assessment. Then delete with a confirmation.
    await globex.getByRole('button', { name: 'Actions for Globex quick check' }).click();
    await page.getByRole('menuitem', { name: 'Export Excel', exact: true }).waitFor();
    await page.getByRole('menuitem', { name: 'Export CSV' }).click();
    const listExport = page.getByRole('dialog', { name: 'Export answers' });
    await listExport.getByText('2 of 2 questions are not reviewed yet').waitFor();
    await listExport.getByRole('radio', { name: 'Export all answers', checked: true }).waitFor();
    expect(await listExport.getByRole('radio', { checked: true }).allTextContents()).toEqual([
      'Export all answersApproved answers, and the unreviewed ones you choose below.',
      'CSVOne row per question.',
    ]);
    await screenshot(page, 'assessments-list-export');
    const [csvDownload] = await Promise.all([
      page.waitForEvent('download'),
      listExport.getByRole('button', { name: 'Export', exact: true }).click(),
    ]);
    await listExport.waitFor({ state: 'hidden' });
    expect(csvDownload.suggestedFilename()).toBe('Globex quick check - all answers including unreviewed.csv');
    expect(fs.readFileSync(await csvDownload.path(), 'utf8')).toContain('Do you have a SOC 2 Type II report?');
    await toast(page, 'Export successful');
    await globex.getByRole('button', { name: 'Actions for Globex quick check' }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete this assessment?' });
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await toast(page, 'Assessment deleted');
    await globex.waitFor({ state: 'detached' });

    // The detail page.
    await acme.getByRole('link', { name: 'Acme Corp vendor review' }).click();
    await page.waitForURL('**/assessments/*');
    await page.getByRole('heading', { name: 'Acme Corp vendor review', level: 1 }).waitFor();
    await waitForCompleted(page);
    const header = detailHeader(page);
    await header.getByText('acme-security.xlsx').waitFor();
    await header.getByText('Annual security review requested by Acme procurement.').waitFor();
    const progress = page.getByRole('region', { name: 'Progress' });
    await progress.getByText('100%').waitFor();
    expect(await page.getByRole('list', { name: 'Assessment questions' }).getByRole('article').count()).toBe(
      QUESTIONS.length,
    );

    // Library answers carry their type, confidence and a library source; what nothing covers needs review.
    const dp01 = questionCard(page, questionOf('DP-01'));
    await dp01.getByText('Canonical Answer', { exact: true }).waitFor();
    await dp01.getByText(/^Confidence \d+%$/).waitFor();
    // The library entry asked word for word: its source shows a match near certainty (the figure is the ranker's).
    // The first source is the entry that answered; a related entry may follow it.
    const librarySource = dp01.getByText(/^Library · \d+% match$/).first();
    await librarySource.waitFor();
    expect(Number(/\d+/.exec((await librarySource.textContent()) ?? '')?.[0])).toBeGreaterThanOrEqual(95);
    await dp01.getByText('#1', { exact: true }).waitFor();
    // The engine's answers are drafts until someone approves them.
    await dp01.getByText('Drafted', { exact: true }).waitFor();
    // The value the customer's dropdown cell will get, beside the answer that decides it.
    const dp01Dropdown = dp01.getByRole('region', { name: "Customer's dropdown" });
    expect(await dp01Dropdown.getByRole('combobox', { name: "Value for the customer's dropdown" }).textContent()).toBe(
      'Yes',
    );
    await dp01Dropdown.getByText('Chosen from the answer.').waitFor();
    const dp04 = questionCard(page, questionOf('DP-04'));
    await dp04.getByText('Needs Review', { exact: true }).waitFor();
    await dp04.getByText('Needs answer', { exact: true }).waitFor();
    // The admin may approve: the contributor's step (submit for review) is not offered beside it.
    expect(await dp01.getByRole('button', { name: 'Submit for review' }).count()).toBe(0);
    // Nothing to approve without an answer.
    expect(await dp04.getByRole('button', { name: 'Approve', exact: true }).count()).toBe(0);

    // A reviewer picks another value from the cell's own list; the export writes it (below).
    const ac02 = questionCard(page, questionOf('AC-02'));
    await ac02.getByRole('combobox', { name: "Value for the customer's dropdown" }).click();
    await page.getByRole('option', { name: 'N/A', exact: true }).click();
    await toast(page, 'Dropdown value saved');
    await ac02.getByText('Picked by a person.').waitFor();
    await ac02.getByRole('button', { name: 'Follow the answer' }).waitFor();
    // The card at phone width, as a reviewer on the move sees it.
    await page.setViewportSize({ width: 390, height: 844 });
    await ac02.screenshot({ path: path.join(SCREENSHOT_DIR, 'assessment-dropdown-card-390.png') });
    await page.setViewportSize({ width: 1440, height: 900 });

    // Review: write the missing answer, approve a library answer, save the new answer to the library.
    await dp04.getByRole('button', { name: 'Write answer' }).click();
    await dp04.getByRole('textbox', { name: 'Answer' }).fill(DP04_ANSWER);
    await dp04.getByRole('button', { name: 'Save' }).click();
    await toast(page, 'Answer saved');
    await dp04.getByText(DP04_ANSWER).waitFor();
    // A person's answer says whose it is; the engine's type, confidence and sources no longer describe it.
    await dp04.getByText(new RegExp(`^Written by ${username} · .+$`)).waitFor();
    expect(await dp04.getByText('Needs Review', { exact: true }).count()).toBe(0);
    expect(await dp04.getByText(/^Confidence \d+%$/).count()).toBe(0);
    expect(await dp04.getByRole('list', { name: 'Sources' }).count()).toBe(0);
    // Even an admin's own wording is a draft until approved.
    await dp04.getByText('Drafted', { exact: true }).waitFor();
    expect(await dp04.getByText('Approved', { exact: true }).count()).toBe(0);
    await dp04.getByRole('button', { name: 'Approve', exact: true }).click();
    await toast(page, 'Answer approved');
    await dp04.getByText('Approved', { exact: true }).waitFor();
    await dp04.getByRole('button', { name: 'Withdraw approval' }).waitFor();
    expect(await dp04.getByRole('button', { name: 'Approve', exact: true }).count()).toBe(0);

    await dp01.getByRole('button', { name: 'Approve', exact: true }).click();
    await dp01.getByText('Approved', { exact: true }).waitFor();
    await dp01.getByText(`Approved by ${username}`, { exact: true }).waitFor();
    expect(await dp01.getByRole('button', { name: 'Approve', exact: true }).count()).toBe(0);

    await dp04.getByRole('button', { name: 'Save to library' }).click();
    await toast(page, 'Saved to the library');
    // Saved once: the button says so and cannot save a second copy.
    expect(await dp04.getByRole('button', { name: 'Saved to library' }).isDisabled()).toBe(true);
    expect(await dp04.getByRole('button', { name: 'Save to library' }).count()).toBe(0);
    // A library answer as it stands is not offered to the library again.
    expect(await dp01.getByRole('button', { name: 'Save to library' }).count()).toBe(0);

    // The consistency check: a 'No' where another answer about the same control says 'Yes'.
    const fu01 = questionCard(page, questionOf('FU-01'));
    await fu01.getByRole('button', { name: /^(Edit|Write answer)$/ }).click();
    await fu01.getByRole('textbox', { name: 'Answer' }).fill(FU01_ANSWER);
    await fu01.getByRole('button', { name: 'Save' }).click();
    await fu01.getByText(FU01_ANSWER).waitFor();
    await fu01.getByRole('button', { name: 'Approve', exact: true }).click();
    await fu01.getByText('Approved', { exact: true }).waitFor();
    await dp01.getByText('Inconsistent', { exact: true }).waitFor();
    await dp01.getByText('Contradicts #16').waitFor();
    await fu01.getByText('Contradicts #1').waitFor();
    await dp01.getByRole('button', { name: '#16' }).click();
    await page.waitForFunction(() => {
      const box = document.getElementById('question-16')?.getBoundingClientRect();
      return box !== undefined && box.top >= 0 && box.bottom <= window.innerHeight;
    });
    await screenshot(page, 'assessment-detail-review');

    // A library entry that changed after it answered marks the answer.
    const [, tlsEntry] = entries;
    if (!tlsEntry) throw new Error('no TLS entry');
    await apiCall(page, 'PUT', `/api/canonical-answers/${tlsEntry.id}`, {
      answer: 'Yes. All connections use TLS 1.3; TLS 1.2 is accepted only for legacy integrations.',
    });
    await page.reload();
    await questionCard(page, questionOf('DP-02')).getByText('Source changed', { exact: true }).waitFor();

    // Filters: the review state (the combobox and the header's counts), the status and the search. Approved: DP-01,
    // DP-04 and FU-01.
    const approvedCount = detailHeader(page)
      .getByRole('list', { name: 'Review states' })
      .getByRole('button', { name: /^Approved/ });
    expect(await approvedCount.textContent()).toBe('Approved3');
    await page.getByRole('combobox', { name: 'Review state' }).click();
    await page.getByRole('option', { name: /^Approved \(3\)$/ }).click();
    await page.getByText(`3 of ${QUESTIONS.length} questions`).waitFor();
    await dp01.waitFor();
    await dp04.waitFor();
    await fu01.waitFor();
    expect(await approvedCount.getAttribute('aria-pressed')).toBe('true');
    // Opening a library source from the filtered list and coming Back keeps the filter.
    await dp01.getByRole('list', { name: 'Sources' }).getByRole('link').first().click();
    await page.waitForURL('**/library?*');
    await page.getByRole('heading', { name: 'Knowledge Library' }).waitFor();
    await page.goBack();
    await page.getByText(`3 of ${QUESTIONS.length} questions`).waitFor();
    expect(await approvedCount.getAttribute('aria-pressed')).toBe('true');
    // The pressed count again shows every question.
    await approvedCount.click();
    await page.getByText(`${QUESTIONS.length} questions`, { exact: true }).waitFor();
    expect(await approvedCount.getAttribute('aria-pressed')).toBe('false');
    await approvedCount.click();
    await page.getByText(`3 of ${QUESTIONS.length} questions`).waitFor();
    await approvedCount.click();
    // The status filter is the worker's progress, apart from review.
    await page.getByRole('combobox', { name: 'Status' }).click();
    expect(await page.getByRole('option', { name: /^Approved/ }).count()).toBe(0);
    await page.getByRole('option', { name: /^Completed \(/ }).click();
    await page.getByText(`${QUESTIONS.length} of ${QUESTIONS.length} questions`).waitFor();
    await page.getByRole('combobox', { name: 'Status' }).click();
    await page.getByRole('option', { name: /^All statuses/ }).click();
    await page.getByRole('searchbox', { name: 'Search questions' }).fill('BC-0');
    await page.getByText(`5 of ${QUESTIONS.length} questions`).waitFor();
    await page.getByRole('searchbox', { name: 'Search questions' }).fill('');
    await page.getByText(`${QUESTIONS.length} questions`, { exact: true }).waitFor();
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'assessment-detail-complete');

    // Export: the dialog says what nobody reviewed; all answers go into the customer's own workbook, in its Response
    // column.
    await detailHeader(page).getByRole('button', { name: 'Export', exact: true }).click();
    const exportDialog = page.getByRole('dialog', { name: 'Export answers' });
    await exportDialog
      .getByText(`${QUESTIONS.length - 3} of ${QUESTIONS.length} questions are not reviewed yet`)
      .waitFor();
    await exportDialog.getByText('3 approved · 0 not applicable').waitFor();
    await exportDialog.getByRole('radio', { name: 'Export all answers', checked: true }).waitFor();
    await exportDialog.getByRole('radio', { name: /^Excel \(filled original\)/, checked: true }).waitFor();
    // Answers only: no Source column unless asked.
    expect(await exportDialog.getByRole('checkbox', { name: 'Add a Source column' }).isChecked()).toBe(false);
    await screenshot(page, 'assessment-export-dialog');
    const [xlsxDownload] = await Promise.all([
      page.waitForEvent('download'),
      exportDialog.getByRole('button', { name: 'Export', exact: true }).click(),
    ]);
    await toast(page, 'Export successful');
    expect(xlsxDownload.suggestedFilename()).toBe('Acme Corp vendor review - all answers including unreviewed.xlsx');
    const filled = new ExcelJS.Workbook();
    await filled.xlsx.load(new Uint8Array(fs.readFileSync(await xlsxDownload.path())).buffer);
    const sheet = filled.getWorksheet(SHEET);
    if (!sheet) throw new Error('the filled workbook lost its questionnaire sheet');
    const row = (id: string) => sheet.getRow(ROW_OF.get(id) ?? 0);
    // Untouched: the title block, the questions, the hidden list sheet and the dropdowns.
    expect(sheet.getCell('A1').text).toBe('Acme Corp - Vendor Security Assessment 2025');
    expect(row('DP-01').getCell(2).text).toBe(questionOf('DP-01'));
    expect(filled.getWorksheet('Lists')?.state).toBe('hidden');
    expect(row('DP-01').getCell(3).dataValidation?.type).toBe('list');
    // Library answers: the dropdown's value in Response, the explanation in Comments.
    for (const id of ['DP-01', 'DP-02', 'AC-01', 'BC-04']) {
      expect(row(id).getCell(3).text, id).toBe('Yes');
      expect(row(id).getCell(4).text, id).toMatch(/^Yes/);
    }
    // The value the reviewer picked on the card, with the answer's text still in the comments.
    expect(row('AC-02').getCell(3).text).toBe('N/A');
    expect(row('AC-02').getCell(4).text).toMatch(/^Yes/);
    expect(row('DP-01').getCell(4).text).toContain('AES-256');
    // The reviewer's approved answer is there too, word for word.
    const dp04Cells = [row('DP-04').getCell(3).text, row('DP-04').getCell(4).text];
    expect(dp04Cells).toContain(DP04_ANSWER);
    expect(row('FU-01').getCell(3).text).toBe('No');
    // 'Needs Review' placeholders never reach the customer.
    expect(row('BC-05').getCell(3).text).toBe('');

    // Approved only: the same workbook holds exactly the three approved answers, every other answer left blank.
    await detailHeader(page).getByRole('button', { name: 'Export', exact: true }).click();
    await exportDialog.getByRole('radio', { name: /^Export approved only/ }).click();
    await exportDialog.getByRole('radio', { name: /^Excel \(filled original\)/, checked: true }).waitFor();
    const [approvedDownload] = await Promise.all([
      page.waitForEvent('download'),
      exportDialog.getByRole('button', { name: 'Export', exact: true }).click(),
    ]);
    const approvedOnly = (await loadWorkbook(fs.readFileSync(await approvedDownload.path()))).getWorksheet(SHEET);
    if (!approvedOnly) throw new Error('the approved-only workbook lost its questionnaire sheet');
    const approvedRow = (id: string) => approvedOnly.getRow(ROW_OF.get(id) ?? 0);
    expect(approvedRow('DP-01').getCell(3).text).toBe('Yes');
    expect(approvedRow('DP-01').getCell(4).text).toContain('AES-256');
    expect([approvedRow('DP-04').getCell(3).text, approvedRow('DP-04').getCell(4).text]).toContain(DP04_ANSWER);
    expect(approvedRow('FU-01').getCell(3).text).toBe('No');
    for (const { id } of QUESTIONS.filter((q) => !['DP-01', 'DP-04', 'FU-01'].includes(q.id))) {
      expect([approvedRow(id).getCell(3).text, approvedRow(id).getCell(4).text], id).toEqual(['', '']);
    }

    expect(errors).toEqual([]);
    await ctx.close();
  }, 180_000);

  it("reads a HECVAT-like workbook, skips its reference sheet, keeps the customer's answer and fills the original", async () => {
    const {
      context: ctx,
      page,
      errors,
    } = await openAdminPage(browser, baseUrl, { viewport: { width: 1440, height: 900 }, acceptDownloads: true });
    // Encryption answers DATA-01; multi-factor answers DOCU-02, which the customer already answered otherwise.
    for (const entry of LIBRARY.filter((e) => /encrypted at rest|multi-factor/.test(e.question))) {
      await apiCall(page, 'POST', '/api/canonical-answers', { ...entry, tags: ['security'], status: 'approved' });
    }
    const original = await hecvatWorkbook();

    await page.goto(`${baseUrl}/assessments`);
    await page.getByRole('button', { name: 'Import Assessment' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Import Assessment' });
    await dialog.getByLabel('Assessment Name *').fill('State University HECVAT');
    await dialog.getByLabel('CSV, Excel or Word file *').setInputFiles(tempFile('hecvat-3.06.xlsx', original));

    // Per sheet: the questionnaire first with its count and the customer's answers on it; the analyst's copy and the
    // prose folded away, each not imported for its own reason.
    const preview = dialog.getByRole('region', { name: 'Preview' });
    await preview
      .getByText(`${HECVAT_QUESTIONS.length} questions found, 1 already answered by the customer`, { exact: true })
      .waitFor();
    const sheets = preview.getByRole('list', { name: 'Sheets' });
    expect(
      await sheets.evaluate((list) => Array.from(list.children).map((item) => item.getAttribute('aria-label'))),
    ).toEqual([HECVAT_SHEET]);
    const vendor = sheets.getByRole('listitem', { name: HECVAT_SHEET });
    await vendor.getByText('Imported', { exact: true }).waitFor();
    await vendor.getByText(`${HECVAT_QUESTIONS.length} questions`, { exact: true }).waitFor();
    await vendor.getByText('· 1 already answered by the customer', { exact: true }).waitFor();
    // The full answer goes to Additional Information beside the dropdown's value, and the preview says so.
    const written = vendor.getByRole('list', { name: `Columns filled in ${HECVAT_SHEET}` });
    await written.getByText('C · Vendor Answers', { exact: true }).waitFor();
    await written.getByText('D · Additional Information', { exact: true }).waitFor();
    await written.getByText('— The full answer, on rows with a dropdown', { exact: true }).waitFor();
    // The section headers leave the question column blank; the answers go under "Vendor Answers".
    expect(await preview.getByRole('combobox', { name: `Question column of ${HECVAT_SHEET}` }).textContent()).toBe(
      'Column B',
    );
    expect(await preview.getByRole('combobox', { name: `Answer column of ${HECVAT_SHEET}` }).textContent()).toBe(
      'C · Vendor Answers',
    );
    const summary = preview.getByText('2 sheets not imported: 1 not for answering, 1 without questions', {
      exact: true,
    });
    await summary.click();
    const notImported = preview.getByRole('list', { name: 'Sheets not imported' });
    expect(
      await notImported.evaluate((list) => Array.from(list.children).map((item) => item.getAttribute('aria-label'))),
    ).toEqual([HECVAT_REFERENCE, 'Instructions']);
    const reference = notImported.getByRole('listitem', { name: HECVAT_REFERENCE });
    await reference.getByText('Not imported', { exact: true }).waitFor();
    await reference
      .getByText(`Questions found, but not imported because it repeats the questions of "${HECVAT_SHEET}".`)
      .waitFor();
    const instructions = notImported.getByRole('listitem', { name: 'Instructions' });
    await instructions.getByText('Not imported', { exact: true }).waitFor();
    await instructions.getByText('No questions found on it.', { exact: true }).waitFor();

    // The customer's answer: counted, shown with its question, and kept unless the user says otherwise.
    const choice = preview.getByRole('radiogroup', { name: '1 question already has an answer in the file' });
    const keep = /^Keep the customer's answers/;
    const replace = /^Replace them where Verity is confident/;
    await choice.getByRole('radio', { name: keep, checked: true }).waitFor();
    // The keyboard chooses too. Radix moves focus a tick after the arrow key (checking only if the key is still
    // down by then), so each move is confirmed with Space as a user's second key would.
    const focused = (name: RegExp) =>
      page.waitForFunction((source) => new RegExp(source).test(document.activeElement?.textContent ?? ''), name.source);
    await choice.getByRole('radio', { name: keep }).focus();
    await page.keyboard.press('ArrowDown');
    await focused(replace);
    await page.keyboard.press('Space');
    await choice.getByRole('radio', { name: replace, checked: true }).waitFor();
    await page.keyboard.press('ArrowUp');
    await focused(keep);
    await page.keyboard.press('Space');
    await choice.getByRole('radio', { name: keep, checked: true }).waitFor();
    const prefilledQuestion = preview
      .getByRole('list', { name: 'First questions' })
      .getByRole('listitem')
      .filter({ hasText: hecvatQuestion(HECVAT_PREFILLED.id) });
    await prefilledQuestion.getByText(`Customer's answer: ${HECVAT_PREFILLED.answer}`).waitFor();

    // The dialog is the one scroller, and at a phone's width nothing in it is wider than the screen.
    const scrollers = () =>
      dialog.evaluate((root) =>
        [root, ...Array.from(root.querySelectorAll('*'))]
          .filter(
            (el) => ['auto', 'scroll'].includes(getComputedStyle(el).overflowY) && el.scrollHeight > el.clientHeight,
          )
          .map((el) => (el === root ? 'dialog' : (el.getAttribute('aria-label') ?? el.tagName))),
      );
    const top = async () => {
      await preview.evaluate((region) => region.scrollIntoView({ block: 'start' }));
    };
    await top();
    await screenshot(page, 'assessments-import-hecvat-preview');
    expect(await scrollers()).toEqual(['dialog']);
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await dialog.evaluate((root) => root.scrollWidth <= root.clientWidth)).toBe(true);
    expect(await scrollers()).toEqual(['dialog']);
    await top();
    await screenshot(page, 'assessments-import-hecvat-preview-phone');
    await choice.scrollIntoViewIfNeeded();
    await screenshot(page, 'assessments-import-hecvat-choice-phone');
    // The first questions end the one scroll, the dialog's buttons under them.
    await dialog.evaluate((root) => root.scrollTo(0, root.scrollHeight));
    await screenshot(page, 'assessments-import-hecvat-questions-phone');
    await page.setViewportSize({ width: 1440, height: 900 });

    await dialog.getByRole('button', { name: 'Import Assessment' }).click();
    await toast(page, 'Assessment created');
    await dialog.waitFor({ state: 'hidden' });
    const card = page.getByRole('list', { name: 'Assessments' }).getByRole('article').first();
    await card.getByRole('link', { name: 'State University HECVAT' }).click();
    await page.waitForURL('**/assessments/*');
    await waitForCompleted(page);

    // The reviewer sees the customer's answer beside Verity's.
    const prefilledCard = questionCard(page, hecvatQuestion(HECVAT_PREFILLED.id));
    const customer = prefilledCard.getByRole('region', { name: "Customer's answer" });
    await customer.getByText(HECVAT_PREFILLED.answer, { exact: true }).waitFor();
    await prefilledCard.getByText('Canonical Answer', { exact: true }).waitFor();
    await questionCard(page, hecvatQuestion('DATA-01')).getByText('Canonical Answer', { exact: true }).waitFor();
    await prefilledCard.scrollIntoViewIfNeeded();
    await screenshot(page, 'assessment-detail-customer-answer');

    await detailHeader(page).getByRole('button', { name: 'Export', exact: true }).click();
    const exportDialog = page.getByRole('dialog', { name: 'Export answers' });
    await exportDialog.getByRole('radio', { name: /^Excel \(filled original\)/, checked: true }).waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      exportDialog.getByRole('button', { name: 'Export', exact: true }).click(),
    ]);
    const before = await loadWorkbook(original);
    const after = await loadWorkbook(fs.readFileSync(await download.path()));
    expect(after.worksheets.map((w) => w.name)).toEqual(before.worksheets.map((w) => w.name));
    const sheet = after.getWorksheet(HECVAT_SHEET);
    if (!sheet) throw new Error('the filled workbook lost its Vendor Response sheet');
    const row = (id: string) => sheet.getRow(HECVAT_ROW_OF.get(id) ?? 0);
    // Verity's answer: the dropdown's value in C, the explanation in D, the dropdown still there.
    expect(row('DATA-01').getCell(3).text).toBe('Yes');
    expect(row('DATA-01').getCell(4).text).toContain('AES-256');
    expect(row('DATA-01').getCell(3).dataValidation?.type).toBe('list');
    // The customer's answer stands, with nothing written beside it.
    expect(row(HECVAT_PREFILLED.id).getCell(3).text).toBe(HECVAT_PREFILLED.answer);
    expect(row(HECVAT_PREFILLED.id).getCell(4).text).toBe('');
    // Nothing changed outside the answer and comments cells of question rows; the other sheets are as sent.
    const targets = new Set([...HECVAT_ROW_OF.values()].flatMap((n) => [`C${String(n)}`, `D${String(n)}`]));
    const outside = (texts: Map<string, string>) => [...texts].filter(([address]) => !targets.has(address));
    expect(outside(cellTexts(sheet))).toEqual(outside(cellTexts(before.getWorksheet(HECVAT_SHEET))));
    for (const name of [HECVAT_REFERENCE, 'Instructions']) {
      expect([...cellTexts(after.getWorksheet(name))], name).toEqual([...cellTexts(before.getWorksheet(name))]);
    }

    expect(errors).toEqual([]);
    await ctx.close();
  }, 120_000);

  it('starts an assessment from the Ask screen, shows its progress in the chat and links to it', async () => {
    const {
      context: ctx,
      page,
      errors,
    } = await openAdminPage(browser, baseUrl, { viewport: { width: 1440, height: 900 } });
    const [encryption] = LIBRARY;
    if (!encryption) throw new Error('no library entry');
    await apiCall(page, 'POST', '/api/canonical-answers', { ...encryption, tags: ['encryption'], status: 'approved' });

    await page.goto(`${baseUrl}/dashboard`);
    const composer = page.getByRole('textbox', { name: 'Question' });
    await composer.fill('Is customer data encrypted at rest?');
    await composer.press('Enter');
    const messages = page.getByRole('list', { name: 'Messages' }).getByRole('article');
    await messages.first().getByText('Canonical Answer', { exact: true }).waitFor();

    await page.getByRole('button', { name: 'Bulk Import' }).click();
    const bulk = page.getByRole('dialog', { name: 'Bulk Assessment Import' });
    await bulk.getByLabel('Customer/Account Name *').fill('Initech');
    await bulk.getByLabel('Assessment File *').setInputFiles(tempFile('initech.xlsx', await questionnaireWorkbook()));
    await bulk.getByText(/^Selected: initech\.xlsx \([\d.]+ KB\)$/).waitFor();
    await bulk.getByRole('button', { name: 'Import Assessment' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Start New Assessment?' });
    await confirm.getByText('Starting a bulk assessment for Initech will:').waitFor();
    await confirm.getByRole('button', { name: 'Continue' }).click();
    await toast(page, 'Bulk Import Started');
    await toast(page, 'Processing assessment for Initech');
    await page.getByText('Current chat: Bulk Assessment - Initech').waitFor();

    // One message: the file, then the assessment's progress and, once done, how it went.
    const card = page.getByRole('article', { name: 'Bulk assessment for Initech' });
    await card.getByText('initech.xlsx').waitFor();
    await card
      .getByText(new RegExp(`^Answering \\d+ of ${String(QUESTIONS.length)} questions…$`))
      .or(card.getByText(/^Assessment complete:/))
      .first()
      .waitFor();
    await card.getByText(/^Assessment complete: \d+ answered, \d+ needs? review$/).waitFor();
    expect(await messages.count()).toBe(1);
    await screenshot(page, 'ask-assessment-progress');

    await card.getByRole('link', { name: 'Open assessment' }).click();
    await page.waitForURL('**/assessments/*');
    await page.getByRole('heading', { name: 'Initech - initech', level: 1 }).waitFor();
    await detailHeader(page).getByText('Initech', { exact: true }).waitFor();
    await waitForCompleted(page);

    // A file the server cannot read is refused with its reason, and the chat is left empty.
    await page.getByRole('link', { name: 'Ask Questions' }).click();
    await page.getByRole('button', { name: 'Bulk Import' }).click();
    await bulk.getByLabel('Customer/Account Name *').fill('Hooli');
    await bulk.getByLabel('Assessment File *').setInputFiles(tempFile('empty.csv', '\n'));
    await bulk.getByRole('button', { name: 'Import Assessment' }).click();
    await confirm.getByRole('button', { name: 'Continue' }).click();
    await toast(page, 'Import Failed');
    await page.getByRole('heading', { name: 'Ask a security question' }).waitFor();

    expect(errors).toEqual([]);
    await ctx.close();
  }, 120_000);

  it('keeps a 1,000-question assessment usable while it is answered, and hides import from viewers', async () => {
    const {
      context: ctx,
      page,
      errors,
      suffix,
    } = await openAdminPage(browser, baseUrl, { viewport: { width: 1440, height: 900 } });
    for (const entry of LIBRARY) {
      await apiCall(page, 'POST', '/api/canonical-answers', { ...entry, tags: ['security'], status: 'approved' });
    }
    const topics = ['customer data', 'backups', 'audit logs', 'source code', 'employee laptops'];
    const lines = Array.from({ length: 1000 }, (_, i) => {
      const topic = topics[i % topics.length] ?? 'customer data';
      return `Control ${String(i + 1)}: is ${topic} protected by safeguard number ${String(i + 1)}?`;
    });
    const created = await apiCall<{ id: string; totalQuestions: number }>(page, 'POST', '/api/assessments/import-csv', {
      csvContent: ['Question', ...lines].join('\n'),
      name: 'Umbrella Corp full SIG',
      metadata: { sourceFile: 'umbrella-sig.csv', customerName: 'Umbrella Corp', assessmentType: 'SIG Core' },
    });
    expect(created.totalQuestions).toBe(1000);

    await page.goto(`${baseUrl}/assessments/${created.id}`);
    await page.getByRole('heading', { name: 'Umbrella Corp full SIG', level: 1 }).waitFor();
    const list = page.getByRole('list', { name: 'Assessment questions' });
    await list.getByRole('article').first().waitFor();
    const processing = await page
      .getByText('Processing in progress', { exact: false })
      .isVisible()
      .catch(() => false);
    if (processing) {
      await page.getByText('Generating answer...').first().waitFor();
      await screenshotWhileBusy(page, 'assessment-detail-processing');
    }
    // The search looks through every question, rendered or not.
    await page.getByRole('searchbox', { name: 'Search questions' }).fill('safeguard number 987?');
    await page.getByText('1 of 1,000 questions').waitFor();
    await list.getByText('Control 987:', { exact: false }).waitFor();
    await page.getByRole('searchbox', { name: 'Search questions' }).fill('');
    await waitForCompleted(page);
    await page.getByRole('region', { name: 'Progress' }).getByText('100%').waitFor();
    expect(processing, 'the detail page was opened before the worker finished').toBe(true);
    // What the admin may do to a question here, and the viewer below may not.
    const first = list.getByRole('article').first();
    await first.getByRole('button', { name: /^(Edit|Write answer)$/ }).waitFor();
    await first.getByRole('button', { name: 'Mark not applicable' }).waitFor();
    await first.getByRole('button', { name: 'Assign', exact: true }).waitFor();
    await first.getByRole('checkbox', { name: 'Select question #1' }).waitFor();

    // A viewer reads assessments but cannot import, review or delete them.
    const viewer = await joinAsViewer(page, browser, baseUrl, `viewer${suffix}`, errors);
    await viewer.goto(`${baseUrl}/assessments`);
    const card = viewer.getByRole('list', { name: 'Assessments' }).getByRole('article').first();
    await card.getByText('Umbrella Corp full SIG').waitFor();
    expect(await viewer.getByRole('button', { name: 'Import Assessment' }).count()).toBe(0);
    await card.getByRole('button', { name: 'Actions for Umbrella Corp full SIG' }).click();
    await viewer.getByRole('menuitem', { name: 'View Details' }).waitFor();
    expect(await viewer.getByRole('menuitem', { name: 'Delete' }).count()).toBe(0);
    await screenshot(viewer, 'assessments-viewer');
    await viewer.keyboard.press('Escape');
    await viewer.goto(`${baseUrl}/assessments/${created.id}`);
    await viewer.getByRole('list', { name: 'Assessment questions' }).getByRole('article').first().waitFor();
    expect(await viewer.getByRole('button', { name: /^(Edit|Write answer)$/ }).count()).toBe(0);
    expect(await viewer.getByRole('button', { name: 'Regenerate' }).count()).toBe(0);
    expect(await viewer.getByRole('button', { name: 'Mark not applicable' }).count()).toBe(0);
    expect(await viewer.getByRole('button', { name: 'Assign', exact: true }).count()).toBe(0);
    expect(await viewer.getByRole('checkbox', { name: /^Select question/ }).count()).toBe(0);

    // Another id, or a made-up one, is simply not found.
    await viewer.goto(`${baseUrl}/assessments/00000000-0000-4000-8000-000000000000`);
    await viewer.getByRole('heading', { name: 'Assessment not found' }).waitFor();
    await viewer.getByRole('link', { name: 'Back to Bulk Assessments' }).waitFor();
    await viewer.context().close();

    expect(errors).toEqual([]);
    await ctx.close();
  }, 240_000);
});
