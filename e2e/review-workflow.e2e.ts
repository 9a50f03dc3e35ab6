import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import type { AssessmentDetail } from '../common/schemas/assessments';
import { expectNoHorizontalOverflow } from './a11y';
import { launchBrowser, screenshot } from './browser';
import { waitForMailMatch } from './mail-inbox';
import { LIBRARY, QUESTIONS, ROW_OF, SHEET, questionOf, questionnaireWorkbook } from './questionnaire-workbook';
import { apiCall, joinAsMember, openAdminPage } from './session';

const baseUrl = inject('baseUrl');
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser.close());

const SECTION = '3. Business Continuity';
const BC05_ANSWER = 'No. We do not carry cyber liability insurance; incidents are covered by our reserve fund.';
const BC01_ANSWER = 'Yes. Our business continuity plan is documented, owned by the COO and reviewed every year.';

function questionCard(page: Page, question: string): Locator {
  return page.getByRole('list', { name: 'Assessment questions' }).getByRole('article').filter({ hasText: question });
}

/** The day `days` from today as a date input takes it. */
function dayFromToday(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

async function detailOf(page: Page, id: string): Promise<AssessmentDetail> {
  return apiCall<AssessmentDetail>(page, 'GET', `/api/assessments/${id}`);
}

describe('review workflow', () => {
  it('a manager bulk-accepts and assigns a section; the contributor answers it; approved answers alone are exported', async () => {
    const { context, page: admin, errors, suffix } = await openAdminPage(browser, baseUrl);
    const managerName = `mgr${suffix}`;
    const contributorName = `ctb${suffix}`;
    const manager = await joinAsMember(admin, browser, baseUrl, managerName, errors, 'manager');
    const contributor = await joinAsMember(admin, browser, baseUrl, contributorName, errors, 'contributor');
    await manager.setViewportSize({ width: 1440, height: 900 });
    for (const entry of LIBRARY) {
      await apiCall(manager, 'POST', '/api/canonical-answers', { ...entry, tags: ['security'], status: 'approved' });
    }

    // The manager imports the customer's workbook.
    await manager.goto(`${baseUrl}/assessments`);
    await manager.getByRole('button', { name: 'Import Assessment' }).first().click();
    const dialog = manager.getByRole('dialog', { name: 'Import Assessment' });
    await dialog.getByLabel('Assessment Name *').fill('Initech vendor review');
    await dialog.getByLabel('Customer Name').fill('Initech');
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'verity-review-')), 'initech.xlsx');
    const original = await questionnaireWorkbook();
    fs.writeFileSync(file, original);
    await dialog.getByLabel('CSV, Excel or Word file *').setInputFiles(file);
    await dialog.getByRole('region', { name: 'Preview' }).getByText(`${QUESTIONS.length} questions found`).waitFor();
    await dialog.getByRole('button', { name: 'Import Assessment' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const card = manager.getByRole('list', { name: 'Assessments' }).getByRole('article').filter({
      hasText: 'Initech vendor review',
    });
    await card.getByText('Completed', { exact: true }).waitFor();
    await card.getByRole('link', { name: 'Initech vendor review' }).click();
    await manager.waitForURL('**/assessments/*');
    const batchId = manager.url().split('/').pop() ?? '';
    await manager.getByRole('list', { name: 'Assessment questions' }).waitFor();

    // Bulk accept: the popover says how many machine answers reach 90% before anything changes.
    const before = await detailOf(manager, batchId);
    const confident = before.questions.filter(
      (q) => q.answerOrigin === 'machine' && q.reviewState === 'drafted' && (q.confidence ?? 0) >= 90,
    );
    expect(confident.length).toBeGreaterThan(0);
    await manager.getByRole('button', { name: /^Accept all/ }).click();
    await manager.getByRole('button', { name: `Approve ${confident.length} answers` }).click();
    await manager
      .getByRole('list', { name: 'Review states' })
      .getByRole('button', { name: new RegExp(`^Approved\\s*${confident.length}$`) })
      .waitFor();
    const accepted = await detailOf(manager, batchId);
    expect(accepted.batch.reviewCounts.approved).toBe(confident.length);

    // Assign the Business Continuity section to the contributor, due in a week.
    const due = dayFromToday(7);
    await manager.getByRole('button', { name: 'Assign section' }).click();
    const assign = manager.getByRole('dialog');
    await assign.getByLabel('Section').click();
    await manager.getByRole('option', { name: new RegExp(`^${SECTION.replace('.', '\\.')}`) }).click();
    await assign.getByLabel('Person').click();
    await manager.getByRole('option', { name: new RegExp(`^${contributorName}`) }).click();
    await assign.getByLabel('Due date (optional)').fill(due);
    await screenshot(manager, 'review-assign-section');
    await assign.getByRole('button', { name: 'Assign' }).click();
    await assign.waitFor({ state: 'hidden' });
    await questionCard(manager, questionOf('BC-05')).getByText(`Assigned to ${contributorName}`).waitFor();

    // The contributor is e-mailed a link to My questions, and answers there.
    const link = await waitForMailMatch(
      `${contributorName}@example.com`,
      /http:\/\/\S+\/my-questions\?workspace=[\w-]+/,
    );
    await contributor.setViewportSize({ width: 1440, height: 900 });
    await contributor.goto(link);
    await contributor.getByRole('heading', { name: 'My questions' }).waitFor();
    const mine = contributor.getByRole('list', { name: 'Questions of Initech vendor review' });
    const sectionIds = QUESTIONS.filter((q) => q.id.startsWith('BC-')).map((q) => q.id);
    const stillOpen = accepted.questions.filter(
      (q) => sectionIds.some((id) => questionOf(id) === q.question) && q.reviewState !== 'approved',
    );
    await mine
      .getByRole('article')
      .nth(stillOpen.length - 1)
      .waitFor();
    expect(await mine.getByRole('article').count()).toBe(stillOpen.length);
    for (const [id, answer] of [
      ['BC-05', BC05_ANSWER],
      ['BC-01', BC01_ANSWER],
    ] as const) {
      const item = mine.getByRole('article').filter({ hasText: questionOf(id) });
      await item.getByRole('button', { name: /^(Edit|Write answer)$/ }).click();
      if (id === 'BC-05') {
        // Writing from nothing, the contributor looks through the library for other words and cites what backs
        // the answer; the insurance answer rests on the incident-notice entry.
        const finder = item.getByRole('region', { name: 'Find in library and documents' });
        await finder.getByRole('searchbox').fill('security incidents notified');
        await finder.getByRole('button', { name: 'Search' }).click();
        const cite = finder.getByRole('button', { name: `Cite: ${LIBRARY[4]?.question ?? ''}` });
        await cite.click();
        await finder.getByRole('button', { name: `Cited: ${LIBRARY[4]?.question ?? ''}` }).waitFor();
        // Entries the ranker sees nothing in are not listed ("0% match" would bury the one that matches).
        expect(await finder.getByText(/^0% match$/).count()).toBe(0);
        await screenshot(contributor, 'review-find-evidence');
        // On a phone the results and their buttons wrap inside the screen.
        await contributor.setViewportSize({ width: 390, height: 844 });
        await screenshot(contributor, 'review-find-evidence-phone');
        await expectNoHorizontalOverflow(contributor);
        await contributor.setViewportSize({ width: 1440, height: 900 });
      }
      await item.getByRole('textbox', { name: 'Answer' }).fill(answer);
      await item.getByRole('button', { name: 'Save and submit for review' }).click();
      await item.getByText('In review', { exact: true }).waitFor();
    }
    await screenshot(contributor, 'review-my-questions');

    // The contributor suggests one answer for the library: it waits for an approver instead of entering it.
    await contributor.getByRole('link', { name: 'Open the assessment Initech vendor review' }).click();
    await contributor.waitForURL('**/assessments/*');
    const suggested = questionCard(contributor, questionOf('BC-05'));
    await suggested.getByRole('button', { name: 'Save to library' }).click();
    const suggestedButton = suggested.getByRole('button', { name: 'Suggested to library' });
    await suggestedButton.waitFor();
    expect(await suggestedButton.isDisabled()).toBe(true);

    // The manager approves it from the library's approval inbox; it is then an approved entry.
    await manager.goto(`${baseUrl}/library`);
    await manager.getByRole('button', { name: /^Approval inbox/ }).click();
    const inbox = manager.getByRole('dialog', { name: 'Approval inbox' });
    const suggestion = inbox.getByRole('article', { name: questionOf('BC-05') });
    await suggestion.getByText(BC05_ANSWER).waitFor();
    await screenshot(manager, 'review-approval-inbox');
    await suggestion.getByRole('button', { name: 'Approve', exact: true }).click();
    await manager.getByText('Suggestion approved').first().waitFor();
    await manager.keyboard.press('Escape');
    const entries = await apiCall<Array<{ question: string; answer: string; status: string }>>(
      manager,
      'GET',
      `/api/canonical-answers?q=${encodeURIComponent('cyber liability insurance')}`,
    );
    expect(entries).toEqual([expect.objectContaining({ question: questionOf('BC-05'), status: 'approved' })]);
    await contributor.reload();
    await questionCard(contributor, questionOf('BC-05')).getByRole('button', { name: 'Saved to library' }).waitFor();

    // The manager sees who wrote them, and approves.
    await manager.goto(`${baseUrl}/assessments/${batchId}`);
    for (const [id, answer] of [
      ['BC-05', BC05_ANSWER],
      ['BC-01', BC01_ANSWER],
    ] as const) {
      const item = questionCard(manager, questionOf(id));
      await item.getByText(answer).waitFor();
      await item.getByText(new RegExp(`^Written by ${contributorName}`)).waitFor();
      if (id === 'BC-05') {
        await item
          .getByRole('list', { name: 'Cited source' })
          .getByRole('link', { name: /^Library/ })
          .waitFor();
      }
      await item.getByText('In review', { exact: true }).waitFor();
      await item.getByRole('button', { name: 'Approve' }).click();
      await item.getByText('Approved', { exact: true }).first().waitFor();
    }
    const reviewed = await detailOf(manager, batchId);
    const approved = new Set(reviewed.questions.filter((q) => q.reviewState === 'approved').map((q) => q.question));
    expect(approved.size).toBe(confident.length + 2);
    // Not everything is approved: the export has something to leave out.
    expect(approved.size).toBeLessThan(QUESTIONS.length);

    // A question nothing answered ('Needs Review') is marked not applicable: its card says so, in neutral colours,
    // and no longer shows the red Needs Review badge nor the engine's sentence.
    const unanswerable = reviewed.questions.find((q) => q.answerType === 'unknown' && q.reviewState === 'needs_answer');
    if (!unanswerable) throw new Error('no question the engine left for review');
    const naCard = questionCard(manager, unanswerable.question);
    await naCard.getByText('Needs Review', { exact: true }).waitFor();
    await naCard.getByRole('button', { name: 'Mark not applicable' }).click();
    await naCard.getByRole('button', { name: 'Reopen' }).waitFor();
    await naCard.getByText('Not applicable', { exact: true }).waitFor();
    await naCard.getByText(/This question does not apply\. The export writes "N\/A"/).waitFor();
    expect(await naCard.textContent()).not.toMatch(/needs review/i);
    expect(await naCard.getByRole('img', { name: 'Not applicable' }).count()).toBe(1);
    await manager.setViewportSize({ width: 1280, height: 900 });
    await naCard.scrollIntoViewIfNeeded();
    await screenshot(manager, 'review-not-applicable-desktop');
    await manager.setViewportSize({ width: 390, height: 844 });
    await naCard.scrollIntoViewIfNeeded();
    const naBox = await naCard.boundingBox();
    expect(naBox && naBox.x + naBox.width).toBeLessThanOrEqual(390);
    await screenshot(manager, 'review-not-applicable-phone');
    await manager.setViewportSize({ width: 1440, height: 900 });
    const notApplicable = new Set([unanswerable.question]);

    // Export approved only, into the customer's own workbook.
    await manager.getByRole('button', { name: 'Export', exact: true }).click();
    const exportDialog = manager.getByRole('dialog', { name: 'Export answers' });
    await exportDialog.getByRole('radio', { name: /Export approved only/ }).click();
    await exportDialog.getByRole('radio', { name: /Excel \(filled original\)/ }).click();
    await screenshot(manager, 'review-export-dialog');
    const [download] = await Promise.all([
      manager.waitForEvent('download'),
      exportDialog.getByRole('button', { name: 'Export', exact: true }).click(),
    ]);
    // Not the name "all answers" gets: the two never land side by side as "(1)".
    expect(download.suggestedFilename()).toBe('Initech vendor review - approved answers only.xlsx');
    const filled = new ExcelJS.Workbook();
    await filled.xlsx.load(new Uint8Array(fs.readFileSync(await download.path())).buffer);
    const given = new ExcelJS.Workbook();
    await given.xlsx.load(new Uint8Array(original).buffer);
    const sheet = filled.getWorksheet(SHEET);
    const sheetBefore = given.getWorksheet(SHEET);
    if (!sheet || !sheetBefore) throw new Error('the questionnaire sheet is missing');
    for (const q of QUESTIONS) {
      const row = ROW_OF.get(q.id) ?? 0;
      const cells = [sheet.getRow(row).getCell(3).text, sheet.getRow(row).getCell(4).text];
      const cellsBefore = [sheetBefore.getRow(row).getCell(3).text, sheetBefore.getRow(row).getCell(4).text];
      if (notApplicable.has(q.question)) {
        expect(cells[0], q.id).toBe('N/A');
      } else if (approved.has(q.question)) {
        expect(cells.join(''), q.id).not.toBe(cellsBefore.join(''));
      } else {
        expect(cells, q.id).toEqual(cellsBefore);
      }
    }
    const bc05Row = sheet.getRow(ROW_OF.get('BC-05') ?? 0);
    expect([bc05Row.getCell(3).text, bc05Row.getCell(4).text]).toContain(BC05_ANSWER);

    expect(errors).toEqual([]);
    await context.close();
  }, 240_000);
});
