import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { toast } from './toasts';
import { launchBrowser, screenshot } from './browser';
import { apiCall, joinAsViewer, registerAdmin, uniqueSuffix, openAdminPage } from './session';

const baseUrl = inject('baseUrl');
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser.close());

const SSO_QUESTION = 'Do you support single sign-on for customer accounts?';
const SSO_ANSWER = 'Yes, we support SAML 2.0 and OpenID Connect for all customer accounts.';
const AES_ANSWER = 'Yes, we use AES-256 for every stored byte.';
const HTML_ANSWER = '<b>Twelve months</b> in write-once storage.';

// The quoted values hold commas; the last row repeats the entry made in the dialog, so the import skips it.
const CSV = `question,answer,tags
"Do you encrypt data at rest?","${AES_ANSWER}",encryption;storage
"Is there a public bug bounty program?","Yes, researchers can report issues through our public program.",security testing
"How long are audit logs retained?","${HTML_ANSWER}",logging
"Do you run yearly penetration tests?","Yes, an outside firm tests us every year.",pentest
"${SSO_QUESTION}","${SSO_ANSWER}",sso
`;

function cards(page: Page) {
  return page.getByRole('list', { name: 'Canonical answers' }).getByRole('article');
}

describe('knowledge library and import', () => {
  it('creates, imports, searches, edits, exports and cleans up entries', async () => {
    const {
      context: ctx,
      page,
      errors,
      suffix,
    } = await openAdminPage(browser, baseUrl, { viewport: { width: 1280, height: 800 } });

    // An empty library says so and offers both ways in.
    await page.goto(`${baseUrl}/library`);
    await page.getByText('No canonical answers yet').waitFor();
    await page.getByRole('heading', { name: 'Knowledge Library' }).waitFor();
    await screenshot(page, 'library-empty');

    // Create one entry through the dialog, seeing the specification's validation messages first.
    await page.getByRole('button', { name: 'Create Question' }).first().click();
    const createDialog = page.getByRole('dialog', { name: 'Add New Canonical Answer' });
    await createDialog.getByRole('button', { name: 'Create Answer' }).click();
    await createDialog.getByText('Question must be at least 10 characters').waitFor();
    await createDialog.getByText('Answer must be at least 20 characters').waitFor();
    await createDialog.getByLabel('Question').fill(SSO_QUESTION);
    await createDialog.getByLabel('Answer').fill(SSO_ANSWER);
    await createDialog.getByLabel('Tags').fill('sso, authentication, ');
    await screenshot(page, 'library-create-dialog');
    await createDialog.getByRole('button', { name: 'Create Answer' }).click();
    await toast(page, 'Canonical answer created successfully');
    await createDialog.waitFor({ state: 'hidden' });
    await cards(page).filter({ hasText: SSO_QUESTION }).waitFor();
    await expect(cards(page).first().getByText('Confidence: 90%').count()).resolves.toBe(1);

    // Import a CSV by pasting it: preview, drop one entry, import.
    await page.getByRole('link', { name: 'Import Q&A' }).click();
    await page.waitForURL('**/import');
    // Managers may import too: the badge says so rather than 'Admin Only'.
    await page.getByText('Managers and admins', { exact: true }).waitFor();
    expect(await page.getByText('Admin Only').count()).toBe(0);
    await page.getByRole('button', { name: 'Preview Import' }).click();
    await page.getByText('Content is required').waitFor();
    await page.getByLabel('Content').fill(CSV);
    await screenshot(page, 'import-form');
    await page.getByRole('button', { name: 'Preview Import' }).click();
    const preview = page.getByRole('dialog', { name: 'Import Preview' });
    await preview.getByText(AES_ANSWER).waitFor();
    // The entry the library already has is shown as a duplicate and not counted.
    await preview.getByText('Already in the library: will be skipped').waitFor();
    await preview.getByRole('button', { name: 'Import 4 Answers' }).waitFor();
    await preview.getByRole('button', { name: 'Remove entry 4' }).click();
    await expect(preview.getByText('Do you run yearly penetration tests?').count()).resolves.toBe(0);
    await screenshot(page, 'import-preview');
    await preview.getByRole('button', { name: 'Import 3 Answers' }).click();
    await toast(page, 'Imported 3 canonical answers successfully');
    await toast(page, /1 entry was skipped/);
    await preview.waitFor({ state: 'hidden' });
    // The form gives way to what the import did, with the way on: the library, or another import.
    const result = page.getByRole('region', { name: 'Import complete' });
    await result
      .getByText('3 entries were added to the Knowledge Library. 1 entry was skipped as a duplicate.')
      .waitFor();
    await screenshot(page, 'import-result');

    // Back in the library: the server-side search finds the imported answer, markup shows as text.
    await result.getByRole('link', { name: 'Open the Knowledge Library' }).click();
    await page.waitForURL('**/library');
    await cards(page).filter({ hasText: HTML_ANSWER }).waitFor();
    await page.getByRole('tab', { name: /All\s*4/ }).waitFor();
    await screenshot(page, 'library-list');
    const search = page.getByRole('searchbox', { name: 'Search answers' });
    await search.fill('AES');
    await cards(page).filter({ hasText: AES_ANSWER }).waitFor();
    await page.waitForFunction(
      () => document.querySelectorAll('[aria-label="Canonical answers"] article').length === 1,
    );
    await search.fill('kubernetes');
    await page.getByText('No matching answers found').waitFor();
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await page.waitForFunction(
      () => document.querySelectorAll('[aria-label="Canonical answers"] article').length === 4,
    );

    // Select every entry and export them as CSV, then as Excel.
    await page.getByRole('button', { name: 'Select All' }).click();
    await page.getByText('4 selected').waitFor();
    await page.getByRole('button', { name: 'Deselect All' }).waitFor();
    const [csvDownload] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export selected' }).click(),
    ]);
    expect(csvDownload.suggestedFilename()).toMatch(/^canonical-answers-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = fs.readFileSync(await csvDownload.path(), 'utf8');
    expect(csv).toContain(`"${AES_ANSWER}"`);
    expect(csv).toContain(SSO_QUESTION);
    expect(csv.split('\r\n')).toHaveLength(5);
    await toast(page, 'Answers exported successfully');
    await page.getByRole('button', { name: 'Choose export format' }).click();
    const [xlsxDownload] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('menuitem', { name: 'Export as Excel (.xlsx)' }).click(),
    ]);
    expect(xlsxDownload.suggestedFilename()).toMatch(/^canonical-answers-\d{4}-\d{2}-\d{2}\.xlsx$/);
    expect(
      fs
        .readFileSync(await xlsxDownload.path())
        .subarray(0, 2)
        .toString(),
    ).toBe('PK');
    await page.getByRole('button', { name: 'Deselect All' }).click();
    await page.getByRole('button', { name: 'Select All' }).waitFor();

    // Edit an entry; the old text shows up in its history.
    await page.getByRole('button', { name: SSO_QUESTION, exact: true }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Canonical Answer' });
    await edit.getByText('No earlier versions').waitFor();
    await edit.getByLabel('Answer').fill(`${SSO_ANSWER} SCIM provisioning is available too.`);
    await edit.getByRole('button', { name: 'Save Changes' }).click();
    await toast(page, 'Canonical answer updated successfully');
    await cards(page).filter({ hasText: 'SCIM provisioning' }).waitFor();
    await page.getByRole('button', { name: SSO_QUESTION, exact: true }).click();
    await edit.getByText('Version 1').waitFor();
    await screenshot(page, 'library-edit-dialog');
    await page.keyboard.press('Escape');
    await edit.waitFor({ state: 'hidden' });

    // Archive one entry, find it in the Archived tab and delete it for good.
    await page.getByRole('button', { name: 'Actions for "Is there a public bug bounty program?"' }).click();
    await page.getByRole('menuitem', { name: 'Archive' }).click();
    await toast(page, 'Answer archived');
    await page.getByRole('tab', { name: /Archived\s*1/ }).click();
    await cards(page).filter({ hasText: 'bug bounty' }).waitFor();
    await page.getByRole('button', { name: 'Actions for "Is there a public bug bounty program?"' }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    await page
      .getByRole('alertdialog', { name: 'Delete this answer?' })
      .getByRole('button', { name: 'Delete' })
      .click();
    await toast(page, 'Answer deleted');
    await page.getByText('No archived answers').waitFor();
    await page.getByRole('tab', { name: /All\s*3/ }).click();

    // Library health: two entries that ask the same thing and disagree.
    await apiCall(page, 'POST', '/api/canonical-answers', {
      question: 'Do you encrypt all data at rest?',
      answer: 'No, only production databases are encrypted at rest today.',
      tags: ['encryption'],
    });
    // The conflict count arrives with the sidebar stats (refetched on an interval); a reload shows it now.
    await page.reload();
    await page.getByRole('button', { name: 'Library health 1 conflict' }).click();
    const health = page.getByRole('dialog', { name: 'Library health' });
    await health.getByRole('button', { name: 'Keep this one' }).first().waitFor();
    await screenshot(page, 'library-health');
    await health.getByRole('button', { name: 'Keep this one' }).first().click();
    await toast(page, 'Issue resolved');
    await health.getByText('No duplicates or conflicts found').waitFor();
    await page.keyboard.press('Escape');

    // A viewer reads the library but is offered no changes, and sees why the import is disabled.
    const viewer = await joinAsViewer(page, browser, baseUrl, `viewer${suffix}`, errors);
    await viewer.goto(`${baseUrl}/library`);
    await cards(viewer).first().waitFor();
    expect(await viewer.getByRole('button', { name: 'Create Question' }).count()).toBe(0);
    expect(await viewer.getByRole('link', { name: 'Import Q&A' }).count()).toBe(0);
    await screenshot(viewer, 'library-viewer');
    await viewer.getByRole('button', { name: `Actions for "${SSO_QUESTION}"` }).click();
    await viewer.getByRole('menuitem', { name: 'View details' }).waitFor();
    expect(await viewer.getByRole('menuitem', { name: 'Delete' }).count()).toBe(0);
    await viewer.keyboard.press('Escape');
    await viewer.goto(`${baseUrl}/import`);
    await viewer.getByText('Only managers and admins can import Q&A entries.').first().waitFor();
    await viewer.getByRole('tab', { name: 'Templates & Examples' }).click();
    await screenshot(viewer, 'import-templates');
    await viewer.getByRole('button', { name: 'Use this example' }).first().click();
    await viewer.getByRole('button', { name: 'Preview Import' }).click();
    const viewerPreview = viewer.getByRole('dialog', { name: 'Import Preview' });
    expect(await viewerPreview.getByRole('button', { name: /Import \d+ Answers/ }).isDisabled()).toBe(true);
    await screenshot(viewer, 'import-viewer');
    await viewer.context().close();

    expect(errors).toEqual([]);
    await ctx.close();
  });

  it('pages a large library 50 cards at a time and selects every match across pages', async () => {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await ctx.newPage();
    await registerAdmin(page, baseUrl, uniqueSuffix());
    const entries = Array.from({ length: 130 }, (_, i) => ({
      question: `Control ${i + 1}: is configuration item ${i + 1} reviewed every quarter?`,
      answer: `Yes, item ${i + 1} is reviewed quarterly by the platform team.`,
      tags: [i % 2 === 0 ? 'even' : 'odd'],
    }));
    await apiCall(page, 'POST', '/api/canonical-answers/import', { entries });

    await page.goto(`${baseUrl}/library`);
    await page.getByText('Showing 50 of 130').waitFor();
    expect(await cards(page).count()).toBe(50);
    await cards(page).last().scrollIntoViewIfNeeded();
    await page.getByText('Showing 100 of 130').waitFor();

    await page.getByRole('button', { name: 'Select All' }).click();
    await page.getByText('130 selected').waitFor();
    await page.getByRole('button', { name: 'All tags' }).click();
    await page.getByRole('option', { name: /even/ }).click();
    await page.getByText('Showing 50 of 65').waitFor();
    // A new filter is a new "all": the button offers to select its matches.
    await page.getByRole('button', { name: 'Select All' }).click();
    await page.getByText('65 selected').waitFor();
    await ctx.close();
  });

  it('reads an Excel workbook in the browser and imports it as drafts', async () => {
    const {
      context: ctx,
      page,
      errors,
    } = await openAdminPage(browser, baseUrl, { viewport: { width: 1280, height: 800 } });

    // A questionnaire as customers send them: a title above the header, a notes sheet first.
    const workbook = new ExcelJS.Workbook();
    workbook.addWorksheet('Instructions').addRow(['Answer every question below.']);
    const sheet = workbook.addWorksheet('Questions');
    sheet.addRow(['Vendor security questionnaire 2025']);
    sheet.addRow([]);
    sheet.addRow(['Question ID', 'Question', 'Response', 'Category']);
    sheet.addRow([
      'Q1',
      'Do you back up customer data daily?',
      'Yes, encrypted, to a second region.',
      'backup; resilience',
    ]);
    sheet.addRow(['Q2', 'Is there a documented disaster recovery plan?', 'Yes, tested twice a year.', 'resilience']);
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'verity-xlsx-')), 'vendor-questionnaire.xlsx');
    await workbook.xlsx.writeFile(file);

    await page.goto(`${baseUrl}/import`);
    await page.locator('input[type="file"]').setInputFiles(file);
    const preview = page.getByRole('dialog', { name: 'Import Preview' });
    await preview.getByText('Yes, encrypted, to a second region.').waitFor();
    await preview.getByText('resilience').first().waitFor();
    await preview.getByRole('radio', { name: /Import as draft/ }).click();
    await preview.getByRole('button', { name: 'Import 2 Answers' }).click();
    await toast(page, 'Imported 2 canonical answers successfully');
    await page.getByText('vendor-questionnaire.xlsx').waitFor({ state: 'detached' });

    await page.goto(`${baseUrl}/library`);
    await page.getByRole('tab', { name: /Draft\s*2/ }).waitFor();
    expect(errors).toEqual([]);
    await ctx.close();
  });
});
