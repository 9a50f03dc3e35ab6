import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import PDFDocument from 'pdfkit';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { toast } from './toasts';
import { launchBrowser, screenshot } from './browser';
import { apiCall, joinAsViewer, registerAdmin, uniqueSuffix, uploadThroughApi, openAdminPage } from './session';

const baseUrl = inject('baseUrl');
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser.close());

const ENCRYPTION_QUESTION = 'Do you encrypt customer data at rest?';
const ENCRYPTION_ANSWER = 'Yes. All customer data is encrypted at rest with AES-256, and keys are rotated every year.';
const SSO_QUESTION = 'Do you support single sign-on for customer accounts?';
const SSO_ANSWER = 'Yes, we support SAML 2.0 and OpenID Connect single sign-on for all customer accounts.';
const PARAPHRASE = 'Is customer data encrypted at rest?';
const UNCOVERED = 'Do you run a public bug bounty program for security researchers?';

const ACCESS_SENTENCE = 'Access to production systems requires single sign-on and hardware security keys.';

/** A two-page policy; the access-control text is on page 2, so a source can point at that page. */
function policyPdf(): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ size: 'A4', margin: 56 });
    const parts: Buffer[] = [];
    doc.on('data', (part: Buffer) => parts.push(part));
    doc.on('end', () => resolve(Buffer.concat(parts)));
    doc.on('error', reject);
    doc.fontSize(20).text('Information Security Policy');
    doc.moveDown().fontSize(14).text('1. Data Retention');
    doc.moveDown(0.5).fontSize(11).text('Backups are kept for thirty days in a second region.');
    doc.addPage();
    doc.fontSize(14).text('2. Access Control');
    doc.moveDown(0.5).fontSize(11).text(`${ACCESS_SENTENCE} Access is reviewed every quarter by the security team.`);
    doc.end();
  });
}

/** The chat follows new answers with a smooth scroll; screenshots wait until it has reached the bottom. */
async function scrolledToBottom(page: Page) {
  await page.waitForFunction(() => {
    const root = document.querySelector('[aria-label="Messages"]')?.parentElement;
    return root !== null && root !== undefined && root.scrollTop + root.clientHeight >= root.scrollHeight - 2;
  });
}

function messages(page: Page) {
  return page.getByRole('list', { name: 'Messages' }).getByRole('article');
}

async function ask(page: Page, text: string) {
  const composer = page.getByRole('textbox', { name: 'Question' });
  await composer.fill(text);
  await composer.press('Enter');
  // PRODUCT §7: the box is cleared once the question is sent.
  await page.waitForFunction(
    () => (document.querySelector('textarea[aria-label="Question"]') as HTMLTextAreaElement).value === '',
  );
}

describe('ask questions and chat history', () => {
  it('answers from the library, flags what it cannot answer, batches, saves chats and exports history', async () => {
    const {
      context: ctx,
      page,
      errors,
      suffix,
      username,
    } = await openAdminPage(browser, baseUrl, {
      viewport: { width: 1440, height: 900 },
      permissions: ['clipboard-read', 'clipboard-write'],
    });

    // Two approved entries, created the way the library does it.
    await apiCall(page, 'POST', '/api/canonical-answers', {
      question: ENCRYPTION_QUESTION,
      answer: ENCRYPTION_ANSWER,
      tags: ['encryption', 'data protection'],
      status: 'approved',
    });
    await apiCall(page, 'POST', '/api/canonical-answers', {
      question: SSO_QUESTION,
      answer: SSO_ANSWER,
      tags: ['sso', 'authentication', 'encryption'],
      status: 'approved',
    });

    // The welcome card, and the side panel now that the workspace has answers.
    await page.goto(`${baseUrl}/dashboard`);
    await page.getByRole('heading', { name: 'Ask a security question' }).waitFor();
    const panel = page.getByRole('complementary', { name: 'Context & Tasks' });
    await panel.getByRole('link', { name: /encryption\s*2/ }).waitFor();
    await panel.getByText('Ask a question to see the closest library entries here.').waitFor();
    await panel.getByText('Complete tasks will appear here').waitFor();
    await page.getByText('0/2000').waitFor();
    await screenshot(page, 'ask-empty');

    // A paraphrase of a library question gets the library's answer, verbatim, with its source.
    await ask(page, PARAPHRASE);
    const first = messages(page).filter({ hasText: PARAPHRASE });
    await first
      .getByText('Processing your question...')
      .or(first.getByText('Canonical Answer', { exact: true }))
      .first()
      .waitFor();
    await first.getByText('Canonical Answer', { exact: true }).waitFor();
    await first.getByText(ENCRYPTION_ANSWER).waitFor();
    await first.getByRole('link', { name: new RegExp(ENCRYPTION_QUESTION.replace('?', '\\?')) }).waitFor();
    await first.getByText(/^Confidence \d+%$/).waitFor();
    // The panel's top matches follow the last question.
    await panel
      .getByRole('list', { name: `Matches for "${PARAPHRASE}"` })
      .getByText(ENCRYPTION_QUESTION)
      .waitFor();

    await first.getByRole('button', { name: 'Copy answer' }).click();
    await toast(page, 'Copied to clipboard');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(ENCRYPTION_ANSWER);

    // A question nothing covers is flagged, offered to the library and becomes a pending task.
    await ask(page, UNCOVERED);
    const uncovered = messages(page).filter({ hasText: UNCOVERED });
    await uncovered.getByText('Needs Review', { exact: true }).waitFor();
    await uncovered.getByRole('button', { name: 'Add to library' }).waitFor();
    await panel.getByRole('list', { name: 'Pending tasks' }).getByText(UNCOVERED).waitFor();
    await panel.getByText(`Assigned to ${username}`).waitFor();

    // Two lines are two questions, sent as one batch.
    const composer = page.getByRole('textbox', { name: 'Question' });
    await composer.fill('Do you support SSO for customer accounts?\nHow long do you keep backups of customer data?');
    await page
      .getByText(/^\d+\/2000$/)
      .filter({ hasNotText: '0/2000' })
      .waitFor();
    await composer.press('Enter');
    const sso = messages(page).filter({ hasText: 'Do you support SSO for customer accounts?' });
    await sso.getByText(SSO_ANSWER).waitFor();
    await messages(page)
      .filter({ hasText: 'How long do you keep backups' })
      .getByText('Needs Review', { exact: true })
      .waitFor();
    expect(await messages(page).count()).toBe(4);
    await scrolledToBottom(page);
    await screenshot(page, 'ask-answers');

    // The URL names the chat, so a reload shows it again (issue 20, defect 2).
    expect(new URL(page.url()).searchParams.get('session')).toMatch(/^[0-9a-f-]{36}$/);
    await page.reload();
    await messages(page).filter({ hasText: PARAPHRASE }).getByText(ENCRYPTION_ANSWER).waitFor();
    await page.waitForFunction(() => document.querySelectorAll('[aria-label="Messages"] > li').length === 4);
    await page.getByText(`Current chat: ${PARAPHRASE}`).waitFor();

    // Answer the uncovered question from the chat: the library dialog opens with the question filled in.
    await uncovered.getByRole('button', { name: 'Add to library' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add New Canonical Answer' });
    expect(await dialog.getByLabel('Question').inputValue()).toBe(UNCOVERED);
    await dialog.getByLabel('Answer').fill('Yes, researchers report issues through our public bug bounty program.');
    await dialog.getByLabel('Tags').fill('security testing');
    await dialog.getByRole('button', { name: 'Create Answer' }).click();
    await toast(page, 'Canonical answer created successfully');
    await dialog.waitFor({ state: 'hidden' });
    await panel.getByRole('link', { name: /security testing\s*1/ }).waitFor();
    await uncovered.getByText('Added to the library. Ask again to get the new answer.').waitFor();
    // Now answered in the library, the question is no longer a pending task.
    await panel.getByRole('list', { name: 'Pending tasks' }).getByText(UNCOVERED).waitFor({ state: 'detached' });

    // Ask it again: now the library answers it, and the panel shows its context.
    await ask(page, 'Is there a bug bounty program for security researchers?');
    await messages(page)
      .filter({ hasText: 'Is there a bug bounty program' })
      .getByText('Canonical Answer', { exact: true })
      .waitFor();
    await scrolledToBottom(page);
    await screenshot(page, 'ask-context-panel');

    // Tasks mode lists every unanswered question.
    await panel.getByRole('link', { name: 'View All' }).click();
    await page.getByRole('heading', { name: 'Pending Tasks', level: 1 }).waitFor();
    await page
      .getByRole('list', { name: 'Pending tasks' })
      .first()
      .getByText('How long do you keep backups of customer data?')
      .waitFor();
    await screenshot(page, 'ask-tasks');
    await page.goBack();
    // Coming back shows the same conversation.
    await messages(page).filter({ hasText: PARAPHRASE }).waitFor();

    // A library source opens the library searched for that entry.
    await messages(page)
      .filter({ hasText: PARAPHRASE })
      .getByRole('link', { name: new RegExp(ENCRYPTION_QUESTION.replace('?', '\\?')) })
      .click();
    await page.waitForURL('**/library?q=*');
    await page.getByRole('list', { name: 'Canonical answers' }).getByText(ENCRYPTION_ANSWER).waitFor();
    await page.getByRole('link', { name: 'Ask Questions' }).click();
    await messages(page).filter({ hasText: PARAPHRASE }).waitFor();

    // Bulk Import: a customer's questionnaire replaces the chat, after asking to save it.
    const questionnaire = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'verity-ask-')), 'acme-questionnaire.csv');
    fs.writeFileSync(
      questionnaire,
      'Vendor questionnaire 2025\n\nID,Question,Response\nQ1,Do you encrypt customer data at rest?,\nQ2,Do you have a tested disaster recovery plan?,\n',
    );
    await page.getByRole('button', { name: 'Bulk Import' }).click();
    const bulk = page.getByRole('dialog', { name: 'Bulk Assessment Import' });
    const importButton = bulk.getByRole('button', { name: 'Import Assessment' });
    expect(await importButton.isDisabled()).toBe(true);
    await bulk.getByLabel('Customer/Account Name *').fill('Acme Corp');
    await bulk.getByLabel('Assessment File *').setInputFiles(questionnaire);
    await bulk.getByText(/^Selected: acme-questionnaire\.csv \([\d.]+ KB\)$/).waitFor();
    await screenshot(page, 'ask-bulk-import');
    await importButton.click();
    const confirm = page.getByRole('alertdialog', { name: 'Start New Assessment?' });
    await confirm.getByText('Starting a bulk assessment for Acme Corp will:').waitFor();
    // Like a click outside, Escape does not answer it (defect 7).
    await page.keyboard.press('Escape');
    expect(await confirm.isVisible()).toBe(true);
    // Cancel imports nothing, and the form filled in comes back as it was.
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await bulk.waitFor();
    expect(await bulk.getByLabel('Customer/Account Name *').inputValue()).toBe('Acme Corp');
    await bulk.getByText(/^Selected: acme-questionnaire\.csv/).waitFor();
    await importButton.click();
    await confirm.getByRole('button', { name: 'Continue' }).click();
    await toast(page, 'Bulk Import Started');
    await page.getByText('Current chat: Bulk Assessment - Acme Corp').waitFor();
    // The questionnaire becomes an assessment answered in the background; the chat follows it (assessments.e2e.ts).
    await messages(page)
      .filter({ hasText: 'acme-questionnaire.csv' })
      .getByText('Assessment complete: 1 answered, 1 needs review')
      .waitFor();
    expect(await messages(page).count()).toBe(1);
    // The assessment's chat holds its questions only: a question typed here would start a new chat (defect 13).
    await page.getByText('This chat follows its bulk assessment. Questions you send start a new chat.').waitFor();

    // New Chat saves the chat and starts over; the latest chats can be reopened from here.
    await page.getByRole('button', { name: 'New Chat' }).click();
    await page.getByRole('heading', { name: 'Ask a security question' }).waitFor();
    expect(await page.getByText('Save Warning').count()).toBe(0);
    expect(new URL(page.url()).searchParams.get('session')).toBeNull();
    const recent = page.getByRole('list', { name: 'Recent chats' });
    await recent.getByRole('link', { name: /Bulk Assessment - Acme Corp/ }).waitFor();
    await recent.getByRole('link', { name: new RegExp(PARAPHRASE.replace('?', '\\?')) }).waitFor();
    await screenshot(page, 'ask-recent-chats');

    // Chat History: every question, its session, the filters and the CSV export.
    await page.getByRole('link', { name: 'Chat History' }).click();
    await page.waitForURL('**/chat-history');
    const questions = page.getByRole('list', { name: 'Questions' });
    await questions.getByRole('article', { name: PARAPHRASE }).waitFor();
    await questions.getByRole('article', { name: UNCOVERED }).waitFor();
    // Saving the chat re-sent its answers; the server kept each once. The bulk assessment's two answers are
    // recorded in its chat too.
    await questions.getByRole('article', { name: 'Do you have a tested disaster recovery plan?' }).waitFor();
    expect(await questions.getByRole('article').count()).toBe(7);
    await screenshot(page, 'chat-history');

    await page.getByRole('combobox', { name: 'Answer type' }).click();
    await page.getByRole('option', { name: 'Needs Review' }).click();
    await page.waitForFunction(() => document.querySelectorAll('[aria-label="Questions"] article').length === 3);
    await page.getByRole('searchbox', { name: 'Search chat history' }).fill('backups');
    await page.waitForFunction(() => document.querySelectorAll('[aria-label="Questions"] article').length === 1);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^chat_history-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = fs.readFileSync(await download.path(), 'utf8');
    expect(csv).toContain('How long do you keep backups of customer data?');
    expect(csv).not.toContain(PARAPHRASE);
    await toast(page, 'Export successful');

    await page.getByRole('searchbox', { name: 'Search chat history' }).fill('');
    await page.getByRole('tab', { name: 'Chat Sessions' }).click();
    const sessions = page.getByRole('list', { name: 'Chat sessions' });
    await sessions.getByRole('article', { name: PARAPHRASE }).getByText('5 questions').waitFor();
    const acme = sessions.getByRole('article', { name: 'Bulk Assessment - Acme Corp' });
    await acme.getByText('2 questions').waitFor();
    await acme.getByText(/ · Acme Corp$/).waitFor();
    await screenshot(page, 'chat-history-sessions');

    // A session reopens on Ask: its questions and answers, under the URL that names it (defect 2).
    await sessions.getByRole('link', { name: PARAPHRASE }).click();
    await page.waitForURL('**/dashboard?session=*');
    await page.getByText(`Current chat: ${PARAPHRASE}`).waitFor();
    await messages(page).filter({ hasText: PARAPHRASE }).getByText(ENCRYPTION_ANSWER).waitFor();
    await page.waitForFunction(() => document.querySelectorAll('[aria-label="Messages"] > li').length === 5);
    const reopenedUrl = page.url();
    // The bulk assessment's chat reopens as its progress.
    await page.goto(`${baseUrl}/chat-history`);
    await page.getByRole('tab', { name: 'Chat Sessions' }).click();
    await sessions.getByRole('link', { name: 'Bulk Assessment - Acme Corp' }).click();
    await messages(page)
      .filter({ hasText: 'acme-questionnaire.csv' })
      .getByText('Assessment complete: 1 answered, 1 needs review')
      .waitFor();

    // A viewer reads answers but cannot ask, and is told why beside the composer (defect 14).
    const viewer = await joinAsViewer(page, browser, baseUrl, `viewer${suffix}`, errors);
    await viewer.goto(`${baseUrl}/dashboard`);
    await viewer
      .getByRole('note')
      .getByText('Viewers can read answers but not ask questions. Ask an admin for contributor access.')
      .waitFor();
    expect(await viewer.getByRole('textbox', { name: 'Question' }).isDisabled()).toBe(true);
    // The side panel tells a viewer what they can do, not to upload documents.
    const viewerPanel = viewer.getByRole('complementary', { name: 'Context & Tasks' });
    await viewerPanel.getByRole('link', { name: 'Search the library' }).waitFor();
    expect(await viewerPanel.getByText(/Upload documents/).count()).toBe(0);
    await screenshot(viewer, 'ask-viewer');
    // Someone else's chat is not found, never shown.
    await viewer.goto(reopenedUrl);
    await viewer.getByRole('heading', { name: 'Chat not found' }).waitFor();
    expect(await viewer.getByText(ENCRYPTION_ANSWER).count()).toBe(0);
    await viewer.context().close();

    expect(errors).toEqual([]);
    await ctx.close();
  });

  it('answers from a document and opens the cited passage', async () => {
    const {
      context: ctx,
      page,
      errors,
    } = await openAdminPage(browser, baseUrl, { viewport: { width: 1440, height: 900 } });
    await uploadThroughApi(page, 'security-policy.pdf', await policyPdf(), 'application/pdf');

    await page.goto(`${baseUrl}/documents`);
    await page.getByText(/Processed: \d+ text chunks? extracted/).waitFor();
    await page.getByRole('link', { name: 'Ask Questions' }).click();

    await ask(page, 'Does access to production systems require hardware security keys?');
    const message = messages(page).first();
    await message.getByText('Generated Answer', { exact: true }).waitFor();
    await message.getByText(ACCESS_SENTENCE, { exact: false }).first().waitFor();
    const source = message.getByRole('link', { name: /security-policy\.pdf/ });
    await source.getByText('Page 2').waitFor();
    await screenshot(page, 'ask-document-answer');

    // The source opens the document's text at the cited passage.
    await source.click();
    await page.waitForURL('**/documents?document=*');
    const dialog = page.getByRole('dialog', { name: 'security-policy.pdf' });
    const cited = dialog.locator('[aria-current="location"]');
    await dialog
      .locator('section', { has: page.locator('[aria-current="location"]') })
      .getByText(/Page 2/)
      .waitFor();
    await cited.getByText(ACCESS_SENTENCE, { exact: false }).first().waitFor();
    // The words the answer used are marked, not just the page.
    expect(await cited.locator('mark').first().textContent()).toContain(ACCESS_SENTENCE.slice(0, 40));
    await screenshot(page, 'ask-document-source');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect(new URL(page.url()).search).toBe('');

    expect(errors).toEqual([]);
    await ctx.close();
  });
});

describe('a question longer than the engine reads', () => {
  it('is answered from its start, and the answer says only that part was read', async () => {
    for (const viewport of [
      { width: 1440, height: 900, name: 'ask-long-question' },
      { width: 390, height: 844, name: 'ask-long-question-phone' },
    ]) {
      const ctx = await browser.newContext({ viewport: { width: viewport.width, height: viewport.height } });
      const page = await ctx.newPage();
      await registerAdmin(page, baseUrl, uniqueSuffix());
      await apiCall(page, 'POST', '/api/canonical-answers', {
        question: ENCRYPTION_QUESTION,
        answer: ENCRYPTION_ANSWER,
        tags: ['encryption'],
        status: 'approved',
      });
      await page.goto(`${baseUrl}/dashboard`);
      await page.getByRole('heading', { name: 'Ask a security question' }).waitFor();
      // One question (no '?' before its end, or the chat would split it): a pasted section of a policy.
      const detail = ' Describe the controls, their owners, the evidence you keep and how often you review them.';
      const long = `Do you encrypt customer data at rest.${detail.repeat(20)}`.slice(0, 1499) + '?';
      await ask(page, long);
      const message = messages(page).first();
      await message.getByText(/only its first 1,000 were used to find the answer/).waitFor();
      expect(await messages(page).count()).toBe(1);
      await scrolledToBottom(page);
      await screenshot(page, viewport.name);
      await ctx.close();
    }
  });
});

describe('the rough edges of asking (issue 20)', () => {
  it('never cuts a paste, keeps a failed question with Retry, and keeps small talk out of the tasks', async () => {
    const {
      context: ctx,
      page,
      errors,
    } = await openAdminPage(browser, baseUrl, { viewport: { width: 1440, height: 900 } });
    await apiCall(page, 'POST', '/api/canonical-answers', {
      question: ENCRYPTION_QUESTION,
      answer: ENCRYPTION_ANSWER,
      tags: ['encryption'],
      status: 'approved',
    });
    await page.goto(`${baseUrl}/dashboard`);
    await page.getByRole('heading', { name: 'Ask a security question' }).waitFor();
    const composer = page.getByRole('textbox', { name: 'Question' });

    // Defect 6: "hi" is no task; a real question is, with a priority from how often and how recently it was asked,
    // and can be dismissed.
    await ask(page, 'hi');
    await messages(page).first().getByText('Needs Review', { exact: true }).waitFor();
    await ask(page, UNCOVERED);
    await messages(page).nth(1).getByText('Needs Review', { exact: true }).waitFor();
    const panel = page.getByRole('complementary', { name: 'Context & Tasks' });
    const tasks = panel.getByRole('list', { name: 'Pending tasks' });
    await tasks.getByText(UNCOVERED).waitFor();
    expect(await tasks.getByRole('listitem').count()).toBe(1);
    await tasks.getByText('Medium priority').waitFor();
    await tasks.getByRole('button', { name: `Dismiss "${UNCOVERED}"` }).click();
    await panel.getByText('Complete tasks will appear here').waitFor();

    await page.getByRole('button', { name: 'New Chat' }).click();
    await page.getByRole('heading', { name: 'Ask a security question' }).waitFor();

    // Defect 3: 22 pasted questions, over 2,000 characters, are 22 whole questions, and the composer says so first.
    const pasted = Array.from(
      { length: 22 },
      (_, i) =>
        `Do you review access control number ${String(i + 1)} for every production system each quarter, and who signs it off?`,
    );
    const text = pasted.join('\n');
    expect(text.length).toBeGreaterThan(2000);
    await composer.fill(text);
    expect(await composer.inputValue()).toBe(text);
    const warning = page.getByRole('status').filter({ hasText: '22 questions' });
    await warning
      .getByText(`22 questions, ${text.length.toLocaleString('en-US')} characters: each is sent as its own question.`, {
        exact: false,
      })
      .waitFor();
    await warning.getByRole('button', { name: 'Bulk Import' }).waitFor();
    await screenshot(page, 'ask-long-paste');
    await composer.press('Enter');
    await messages(page)
      .filter({ hasText: pasted[21] ?? '' })
      .getByText('Needs Review', { exact: true })
      .waitFor();
    expect(await messages(page).count()).toBe(22);
    expect(await messages(page).last().getAttribute('aria-label')).toBe(pasted[21]);

    // Defect 4: a question the server fails to answer stays, marked, with Retry; its text comes back to the composer.
    await page.getByRole('button', { name: 'New Chat' }).click();
    await page.getByRole('heading', { name: 'Ask a security question' }).waitFor();
    await page.route('**/api/qa/ask', (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({ error: 'The answer service is busy. Try again in a moment.', code: 'unavailable' }),
      }),
    );
    await composer.fill(PARAPHRASE);
    await composer.press('Enter');
    const failed = messages(page).filter({ hasText: PARAPHRASE });
    await failed.getByText('The answer service is busy. Try again in a moment.').waitFor();
    await page.waitForFunction(
      (question) =>
        (document.querySelector('textarea[aria-label="Question"]') as HTMLTextAreaElement).value === question,
      PARAPHRASE,
    );
    await screenshot(page, 'ask-failed-question');
    await page.unroute('**/api/qa/ask');
    await composer.fill('');
    await failed.getByRole('button', { name: 'Retry' }).click();
    await failed.getByText(ENCRYPTION_ANSWER).waitFor();
    expect(await messages(page).count()).toBe(1);

    // Defect 2: a chat id that is not the user's (here: none at all) is "not found".
    await page.goto(`${baseUrl}/dashboard?session=00000000-0000-4000-8000-000000000000`);
    await page.getByRole('heading', { name: 'Chat not found' }).waitFor();
    await page.getByRole('button', { name: 'Start a new chat' }).click();
    await page.getByRole('heading', { name: 'Ask a security question' }).waitFor();
    expect(new URL(page.url()).search).toBe('');

    expect(errors).toEqual([]);
    await ctx.close();
  });
});
