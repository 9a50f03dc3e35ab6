import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import PDFDocument from 'pdfkit';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { toast } from './toasts';
import { launchBrowser, screenshot } from './browser';
import { apiCall, joinAsViewer, uploadThroughApi, openAdminPage } from './session';

const baseUrl = inject('baseUrl');
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser.close());

const ENCRYPTION_SENTENCE =
  'All customer data is encrypted at rest with AES-256 and in transit with TLS 1.2 or higher.';
const ACCESS_SENTENCE = 'Access to production systems requires single sign-on and hardware security keys.';

/** A two-page policy as customers' reviewers receive them. */
function policyPdf(file: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ size: 'A4', margin: 56 });
    const out = fs.createWriteStream(file);
    out.on('finish', () => resolve());
    out.on('error', reject);
    doc.pipe(out);
    doc.fontSize(20).text('Information Security Policy');
    doc.moveDown().fontSize(14).text('1. Data Protection');
    doc
      .moveDown(0.5)
      .fontSize(11)
      .text(`${ENCRYPTION_SENTENCE} Keys are rotated every year and kept in a managed key service.`);
    doc.addPage();
    doc.fontSize(14).text('2. Access Control');
    doc.moveDown(0.5).fontSize(11).text(`${ACCESS_SENTENCE} Access is reviewed every quarter by the security team.`);
    doc.end();
  });
}

/** A PDF whose only page is blank: it registers, but no text can be extracted from it. */
function blankPdf(): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ size: 'A4' });
    const parts: Buffer[] = [];
    doc.on('data', (part: Buffer) => parts.push(part));
    doc.on('end', () => resolve(Buffer.concat(parts)));
    doc.on('error', reject);
    doc.end();
  });
}

function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'verity-docs-'));
}

function cards(page: Page) {
  return page.getByRole('list', { name: 'Documents' }).getByRole('article');
}

/** The upload widget once open: Uppy's modal dashboard. */
function widget(page: Page) {
  return page.locator('.uppy-Dashboard--modal:not([aria-hidden="true"]) .uppy-Dashboard-inner');
}

async function openWidget(page: Page) {
  await page.locator('aside').getByRole('button', { name: 'Upload Files' }).click();
  await widget(page).waitFor();
}

async function addFiles(page: Page, files: string[]) {
  await page.locator('.uppy-Dashboard-input[name="files[]"]').first().setInputFiles(files);
}

describe('document library and upload widget', () => {
  it('uploads through the widget, reads the extracted text, searches, exports and deletes', async () => {
    const {
      context: ctx,
      page,
      errors,
    } = await openAdminPage(browser, baseUrl, { viewport: { width: 1280, height: 800 }, acceptDownloads: true });

    const dir = tempDir();
    const pdf = path.join(dir, 'security-policy.pdf');
    await policyPdf(pdf);
    const notes = path.join(dir, 'incident-response.md');
    fs.writeFileSync(
      notes,
      '# Incident Response\n\nIncidents are triaged within one hour by the on-call engineer.\n\n' +
        '- Contain the affected systems\n- Notify the security lead\n- Record the timeline\n',
    );

    // An empty library says so and points at the sidebar.
    await page.goto(`${baseUrl}/documents`);
    await page.getByRole('heading', { name: 'Document Library' }).waitFor();
    await page.getByText('No documents yet').waitFor();
    await screenshot(page, 'documents-empty');

    // Upload two files through the widget: nothing starts until asked.
    await openWidget(page);
    await widget(page).getByText('Up to 5 files, 50 MB each').waitFor();
    await screenshot(page, 'upload-widget-empty');
    await addFiles(page, [pdf, notes]);
    await widget(page).getByText('security-policy.pdf').waitFor();
    await widget(page).getByText('incident-response.md').waitFor();
    await screenshot(page, 'upload-widget');
    await widget(page).getByRole('button', { name: 'Upload 2 files' }).click();
    await toast(page, 'Document uploaded successfully');
    await widget(page).waitFor({ state: 'hidden' });

    // The list refreshes by itself and follows processing to the end.
    const pdfCard = cards(page).filter({ hasText: 'security-policy.pdf' });
    await pdfCard.waitFor();
    await pdfCard.getByText(/Processed: \d+ text chunks? extracted/).waitFor();
    const mdCard = cards(page).filter({ hasText: 'incident-response.md' });
    await mdCard.getByText(/Processed: \d+ text chunks? extracted/).waitFor();
    await expect(pdfCard.getByText('PDF', { exact: true }).count()).resolves.toBe(1);
    await expect(pdfCard.getByText('uploaded', { exact: true }).count()).resolves.toBe(1);
    await screenshot(page, 'documents-list');

    // Read the PDF's text by page and section.
    await pdfCard.getByRole('button', { name: 'Read the text of security-policy.pdf' }).click();
    const reader = page.getByRole('dialog', { name: 'security-policy.pdf' });
    await reader.getByText(ACCESS_SENTENCE, { exact: false }).waitFor();
    await reader.getByText(ENCRYPTION_SENTENCE, { exact: false }).waitFor();
    await reader
      .getByText(/Page 2/)
      .first()
      .waitFor();
    await screenshot(page, 'documents-text');
    await page.keyboard.press('Escape');
    await reader.waitFor({ state: 'hidden' });

    // The Markdown file's heading shows once, over its text, and its list keeps one item a line.
    await mdCard.getByRole('button', { name: 'Read the text of incident-response.md' }).click();
    const notesReader = page.getByRole('dialog', { name: 'incident-response.md' });
    const notesText = notesReader.locator('p', { hasText: 'Incidents are triaged' });
    await notesText.waitFor();
    expect(await notesReader.getByText('Incident Response', { exact: true }).count()).toBe(1);
    expect(await notesText.innerText()).toBe(
      'Incidents are triaged within one hour by the on-call engineer.\n' +
        '- Contain the affected systems\n- Notify the security lead\n- Record the timeline',
    );
    await screenshot(page, 'documents-text-markdown');
    await page.keyboard.press('Escape');
    await notesReader.waitFor({ state: 'hidden' });

    // A cited source's link opens the text at the quoted passage, marked and in view.
    const listed = await apiCall<Array<{ id: string; originalName: string }>>(page, 'GET', '/api/documents');
    const pdfId = listed.find((d) => d.originalName === 'security-policy.pdf')?.id ?? '';
    const link = new URLSearchParams({ document: pdfId, page: '2', passage: ACCESS_SENTENCE });
    await page.goto(`${baseUrl}/documents?${link.toString()}`);
    const marked = reader.locator('mark');
    await marked.waitFor();
    expect(await marked.textContent()).toBe(ACCESS_SENTENCE);
    expect(await reader.locator('[aria-current="location"]').textContent()).toContain(ACCESS_SENTENCE);
    await expect(marked.isVisible()).resolves.toBe(true);
    await screenshot(page, 'documents-cited-passage');
    await page.keyboard.press('Escape');
    await reader.waitFor({ state: 'hidden' });

    // Search by name and tag, and filter by type.
    const search = page.getByRole('searchbox', { name: 'Search documents' });
    await search.fill('incident');
    await page.waitForFunction(() => document.querySelectorAll('[aria-label="Documents"] article').length === 1);
    await mdCard.waitFor();
    await search.fill('no such document');
    await page.getByText('No matching documents found').waitFor();
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await page.waitForFunction(() => document.querySelectorAll('[aria-label="Documents"] article').length === 2);
    await page.getByRole('button', { name: 'PDFs', exact: true }).click();
    await page.waitForFunction(() => document.querySelectorAll('[aria-label="Documents"] article').length === 1);
    await pdfCard.waitFor();
    await page.getByRole('button', { name: 'Images', exact: true }).click();
    await page.getByText('No matching documents found').waitFor();
    await page.getByRole('button', { name: 'Text', exact: true }).click();
    await mdCard.waitFor();
    await page.getByRole('button', { name: 'All', exact: true }).click();
    await page.waitForFunction(() => document.querySelectorAll('[aria-label="Documents"] article').length === 2);

    // Export the selection as a dated CSV.
    await page.getByRole('button', { name: 'Select All' }).click();
    await page.getByText('2 selected').waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export', exact: true }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^documents-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = fs.readFileSync(await download.path(), 'utf8');
    expect(csv).toContain('security-policy.pdf');
    expect(csv).toContain('incident-response.md');
    await toast(page, 'Documents exported successfully');
    await page.getByRole('button', { name: 'Deselect All' }).click();

    // The original file downloads under its own name.
    const [original] = await Promise.all([
      page.waitForEvent('download'),
      pdfCard.getByRole('button', { name: 'Download security-policy.pdf' }).click(),
    ]);
    expect(original.suggestedFilename()).toBe('security-policy.pdf');
    expect(
      fs
        .readFileSync(await original.path())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');

    // A file the server refuses fails in the widget with the server's reason.
    const fake = path.join(dir, 'not-really.pdf');
    fs.writeFileSync(fake, 'This is plain text pretending to be a PDF.');
    await openWidget(page);
    await addFiles(page, [fake]);
    await widget(page).getByRole('button', { name: 'Upload 1 file' }).click();
    await toast(page, 'Upload failed');
    await page.getByText('The file is damaged or is not a valid PDF.').first().waitFor();
    await widget(page).getByText('Upload failed').first().waitFor();
    await screenshot(page, 'upload-widget-error');

    // A sixth file is refused before anything is sent.
    const extra = Array.from({ length: 5 }, (_, i) => {
      const file = path.join(dir, `note-${i + 1}.txt`);
      fs.writeFileSync(file, `Note ${i + 1}: backups are tested every month.`);
      return file;
    });
    await widget(page).getByRole('button', { name: 'Add more' }).click();
    await addFiles(page, extra);
    await widget(page).getByText('You can only upload 5 files').first().waitFor();
    await page.keyboard.press('Escape');
    await widget(page).waitFor({ state: 'hidden' });

    // Delete one document from its card, then the rest as a selection.
    await mdCard.getByRole('button', { name: 'Delete incident-response.md' }).click();
    const confirmOne = page.getByRole('alertdialog', { name: 'Delete this document?' });
    await confirmOne.getByRole('button', { name: 'Delete' }).click();
    await toast(page, 'Document deleted successfully');
    await mdCard.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Select All' }).click();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    const confirmMany = page.getByRole('alertdialog', { name: 'Delete documents?' });
    await confirmMany
      .getByText('Are you sure you want to delete 1 document(s)? This action cannot be undone.')
      .waitFor();
    await screenshot(page, 'documents-delete-confirm');
    await confirmMany.getByRole('button', { name: 'Delete' }).click();
    await toast(page, '1 document deleted successfully');
    await page.getByText('No documents yet').waitFor();

    // The same file uploaded again is a new upload and registers again.
    await openWidget(page);
    await widget(page).locator('.uppy-DashboardContent-back').click();
    await addFiles(page, [pdf]);
    await widget(page).getByRole('button', { name: 'Upload 1 file' }).click();
    await toast(page, 'Document uploaded successfully');
    await cards(page).filter({ hasText: 'security-policy.pdf' }).waitFor();

    expect(errors).toEqual([]);
    await ctx.close();
  });

  it('asks before adding a file the library already has, and shows why a damaged file was refused', async () => {
    const {
      context: ctx,
      page,
      errors,
    } = await openAdminPage(browser, baseUrl, { viewport: { width: 1280, height: 800 } });
    const dir = tempDir();
    const pdf = path.join(dir, 'security-policy.pdf');
    await policyPdf(pdf);
    const copy = path.join(dir, 'policy-2025.pdf');
    fs.copyFileSync(pdf, copy);
    await page.goto(`${baseUrl}/documents`);
    await page.getByText('No documents yet').waitFor();

    const upload = async (file: string) => {
      await openWidget(page);
      const back = widget(page).locator('.uppy-DashboardContent-back');
      if (await back.isVisible()) await back.click();
      await addFiles(page, [file]);
      await widget(page).getByRole('button', { name: 'Upload 1 file' }).click();
    };
    await upload(pdf);
    await toast(page, 'Document uploaded successfully');
    await cards(page).filter({ hasText: 'security-policy.pdf' }).waitFor();

    // The same bytes again: a question, not a silent second copy. Cancel adds nothing.
    const question = page.getByRole('alertdialog', { name: 'This file is already in the library' });
    await upload(pdf);
    await question.getByText('“security-policy.pdf” has already been uploaded, with the same content.').waitFor();
    await screenshot(page, 'upload-duplicate-question');
    await question.getByRole('button', { name: 'Cancel' }).click();
    await toast(page, 'Nothing added');
    expect(await cards(page).count()).toBe(1);

    // Keep both: a second document.
    await upload(copy);
    await question.getByText('“policy-2025.pdf” has the same content as “security-policy.pdf”.').waitFor();
    await question.getByRole('button', { name: 'Keep both' }).click();
    await toast(page, 'Document uploaded successfully');
    await page.waitForFunction(() => document.querySelectorAll('[aria-label="Documents"] article').length === 2);

    // Replace: still two documents, the newest copy renamed.
    const renamed = path.join(dir, 'security-policy-final.pdf');
    fs.copyFileSync(pdf, renamed);
    await upload(renamed);
    await question.getByRole('button', { name: 'Replace' }).click();
    await toast(page, 'Document replaced');
    await cards(page).filter({ hasText: 'security-policy-final.pdf' }).waitFor();
    expect(await cards(page).count()).toBe(2);

    // A damaged Word file: "Upload failed" with the reason on the file, no "Uploading 1 file", no Retry.
    const broken = path.join(dir, 'broken.docx');
    fs.writeFileSync(broken, Buffer.concat([Buffer.from('PK\u0003\u0004'), Buffer.alloc(300, 7)]));
    await upload(broken);
    await toast(page, 'Upload failed');
    await widget(page).locator('.uppy-StatusBar.is-error').waitFor();
    const reason = await widget(page)
      .locator('.uppy-Dashboard-Item-errorDetails')
      .evaluate((el) => ({ label: el.getAttribute('aria-label'), shown: getComputedStyle(el, '::after').content }));
    expect(reason.label).toBeTruthy();
    expect(reason.shown).toBe(`"${String(reason.label)}"`);
    expect(await widget(page).getByText('Uploading 1 file').isVisible()).toBe(false);
    // One message in the widget, not a "Failed to upload" bubble over the reason as well.
    expect(await widget(page).getByText('Failed to upload broken.docx').isVisible()).toBe(false);
    await screenshot(page, 'upload-widget-refused');
    expect(await widget(page).getByRole('button', { name: /retry/i }).count()).toBe(0);
    await page.keyboard.press('Escape');

    expect(errors).toEqual([]);
    await ctx.close();
  });

  it('lets a viewer read and download documents but not upload or delete them', async () => {
    const {
      context: ctx,
      page,
      errors,
      suffix,
    } = await openAdminPage(browser, baseUrl, { viewport: { width: 1280, height: 800 } });

    // The admin uploads a text file and a blank PDF straight through the API, the way the widget does.
    const body = 'Vendors are reviewed every year against our security requirements.';
    await uploadThroughApi(page, 'vendor-management.txt', Buffer.from(body), 'text/plain', ['uploaded', 'vendors']);
    await uploadThroughApi(page, 'scanned-contract.pdf', await blankPdf(), 'application/pdf');

    const viewer = await joinAsViewer(page, browser, baseUrl, `docviewer${suffix}`, errors);
    await viewer.goto(`${baseUrl}/documents`);
    const card = cards(viewer).filter({ hasText: 'vendor-management.txt' });
    await card.getByText(/Processed: \d+ text chunks? extracted/).waitFor();
    // A file with no readable text says why, in the card.
    await cards(viewer)
      .filter({ hasText: 'scanned-contract.pdf' })
      .getByText('No text could be extracted from this file.', { exact: false })
      .waitFor();
    await screenshot(viewer, 'documents-viewer-list');
    expect(await viewer.getByRole('button', { name: 'Upload Files' }).count()).toBe(0);
    expect(await card.getByRole('button', { name: /^Delete/ }).count()).toBe(0);
    expect(await viewer.getByRole('button', { name: 'Delete', exact: true }).count()).toBe(0);

    // A tag finds it; its text reads back.
    await viewer.getByRole('button', { name: 'vendors', exact: true }).click();
    await expect(viewer.getByRole('searchbox', { name: 'Search documents' }).inputValue()).resolves.toBe('vendors');
    await card.getByRole('button', { name: 'Read the text of vendor-management.txt' }).click();
    await viewer.getByRole('dialog', { name: 'vendor-management.txt' }).getByText(body).waitFor();
    await screenshot(viewer, 'documents-viewer');

    expect(errors).toEqual([]);
    await viewer.context().close();
    await ctx.close();
  });
});
