import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import type { AccuracyView } from '../common/schemas/accuracy';
import type { AssessmentDetail } from '../common/schemas/assessments';
import { expectNoHorizontalOverflow, expectNoSeriousAxeViolations } from './a11y';
import { ACCURACY_LIBRARY } from './accuracy-library';
import { launchBrowser, screenshot } from './browser';
import { apiCall, joinAsMember, openAdminPage } from './session';

const baseUrl = inject('baseUrl');
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser.close());

const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };
/** Nothing in the library says anything about these: the engine leaves them for review. */
const UNANSWERABLE = ['What colour are the chairs in your head office?', 'How many plants are in your lobby?'];
const REPLACEMENT = 'The chairs in our head office are a dark blue fabric, chosen by the facilities team.';

const percent = (share: number | null) => (share === null ? '–' : `${String(Math.round(share * 100))}%`);

async function detailOf(page: Page, id: string): Promise<AssessmentDetail> {
  return apiCall<AssessmentDetail>(page, 'GET', `/api/assessments/${id}`);
}

async function openAccuracy(page: Page): Promise<Locator> {
  await page.goto(`${baseUrl}/admin-settings`);
  await page.getByRole('button', { name: 'Admin Dashboard' }).click();
  const dialog = page.getByRole('dialog', { name: 'Admin Dashboard' });
  await dialog.waitFor();
  return dialog;
}

/** Opens the bulk-accept popover and returns it once its evidence line has loaded. */
async function openAcceptPopover(page: Page): Promise<Locator> {
  await page.getByRole('button', { name: /^Accept all/ }).click();
  const popover = page.getByRole('dialog').filter({ has: page.getByLabel('Minimum confidence (%)') });
  await popover.waitFor();
  await popover.getByText(/^(Accept ≥|Not enough evidence yet)/).waitFor();
  return popover;
}

/** The figures of one table row, after its heading cell. */
async function rowFigures(table: Locator, label: string): Promise<string[]> {
  const row = table.getByRole('row').filter({ has: table.page().getByRole('rowheader', { name: label, exact: true }) });
  return row.getByRole('cell').allTextContents();
}

describe('accuracy', () => {
  it('a manager reviews an assessment, then sees the outcomes charted and the bulk-accept offer change', async () => {
    const { context, page: admin, errors, suffix } = await openAdminPage(browser, baseUrl, { viewport: DESKTOP });
    const manager = await joinAsMember(admin, browser, baseUrl, `mgr${suffix}`, errors, 'manager');
    await manager.setViewportSize(DESKTOP);
    for (const entry of ACCURACY_LIBRARY) {
      await apiCall(manager, 'POST', '/api/canonical-answers', { ...entry, tags: ['security'], status: 'approved' });
    }

    // Nothing reviewed yet: the page says how its figures will appear.
    let dialog = await openAccuracy(manager);
    // A manager's dashboard holds Analytics alone, and there the Accuracy part.
    expect(await dialog.getByRole('tab').allTextContents()).toEqual(['Analytics']);
    await dialog.getByRole('heading', { name: 'No reviewed machine answers in this period' }).waitFor();
    await dialog.getByText(/approve, edit or replace the machine's answers/).waitFor();
    expect(await dialog.getByRole('button', { name: 'Download CSV' }).isDisabled()).toBe(true);
    await screenshot(manager, 'accuracy-empty');
    await manager.keyboard.press('Escape');

    // An assessment the library answers, bar two questions it knows nothing about.
    const questions = [...ACCURACY_LIBRARY.map((e) => e.question), ...UNANSWERABLE];
    const created = await apiCall<{ id: string; totalQuestions: number }>(
      manager,
      'POST',
      '/api/assessments/import-csv',
      { csvContent: ['Question', ...questions].join('\n'), name: 'Hooli security review' },
    );
    expect(created.totalQuestions).toBe(questions.length);
    // Done when every question has its answer (the batch's own status can say so a moment before the last one lands).
    await expect
      .poll(
        async () =>
          (await detailOf(manager, created.id)).questions.every(
            (q) => q.status === 'completed' || q.status === 'failed',
          ),
        { timeout: 120_000, interval: 250 },
      )
      .toBe(true);
    await manager.goto(`${baseUrl}/assessments/${created.id}`);
    await manager.getByRole('list', { name: 'Assessment questions' }).getByRole('article').first().waitFor();

    // Before any review the offer says there is not enough evidence.
    let popover = await openAcceptPopover(manager);
    await popover.getByText(/^Not enough evidence yet/).waitFor();
    expect(await popover.getByRole('button', { name: /^Use \d+%$/ }).count()).toBe(0);
    await manager.keyboard.press('Escape');

    // One machine answer is edited a little, one unanswered question gets a person's own answer, the other does not
    // apply; each is approved (or marked) through the API as a reviewer's script would.
    const before = await detailOf(manager, created.id);
    const machine = before.questions.filter((q) => q.answerOrigin === 'machine' && q.answerType !== 'unknown');
    const edited = machine.find((q) => q.answer);
    const [toReplace, toSkip] = UNANSWERABLE.map((text) => before.questions.find((q) => q.question === text));
    if (!edited?.answer || !toReplace || !toSkip) throw new Error('the engine did not answer as expected');
    const path = (qid: string) => `/api/assessments/${created.id}/questions/${qid}`;
    await apiCall(manager, 'PUT', path(edited.id), { answer: `${edited.answer} Details on request.` });
    await apiCall(manager, 'POST', `${path(edited.id)}/review`, { action: 'approve' });
    await apiCall(manager, 'PUT', path(toReplace.id), { answer: REPLACEMENT });
    await apiCall(manager, 'POST', `${path(toReplace.id)}/review`, { action: 'approve' });
    await apiCall(manager, 'POST', `${path(toSkip.id)}/review`, { action: 'not_applicable' });

    // The rest are kept as the machine wrote them, with the bulk accept.
    await manager.reload();
    await manager.getByRole('list', { name: 'Assessment questions' }).getByRole('article').first().waitFor();
    const reviewedSoFar = await detailOf(manager, created.id);
    const keep = reviewedSoFar.questions.filter(
      (q) => q.answerOrigin === 'machine' && q.reviewState === 'drafted' && (q.confidence ?? 0) >= 50,
    );
    expect(keep.length).toBeGreaterThanOrEqual(50);
    popover = await openAcceptPopover(manager);
    await popover.getByLabel('Minimum confidence (%)').fill('50');
    await popover.getByRole('button', { name: `Approve ${String(keep.length)} answers` }).click();
    await popover.waitFor({ state: 'hidden' });

    // The figures behind the page, as the server counts them.
    const view = await apiCall<AccuracyView>(manager, 'GET', '/api/admin/accuracy');
    expect(view.totals).toMatchObject({ unchanged: keep.length, edited: 1, replaced: 1, notApplicable: 1 });
    const threshold = view.threshold;
    if (!threshold) throw new Error(`no threshold over ${String(view.totals.reviewed)} reviewed answers`);

    // The offer changes: the threshold with its evidence, and a button that puts it in the field.
    popover = await openAcceptPopover(manager);
    await popover
      .getByText(
        `Accept ≥ ${String(threshold.confidence)}%: ${String(threshold.kept)} of ${String(threshold.reviewed)} answers at or above it were kept unchanged in the last 90 days.`,
      )
      .waitFor();
    await screenshot(manager, 'accuracy-bulk-accept-offer');
    await manager.setViewportSize(PHONE);
    await screenshot(manager, 'accuracy-bulk-accept-offer-phone');
    await expectNoHorizontalOverflow(manager);
    await manager.setViewportSize(DESKTOP);
    await popover.getByRole('button', { name: `Use ${String(threshold.confidence)}%` }).click();
    expect(await popover.getByLabel('Minimum confidence (%)').inputValue()).toBe(String(threshold.confidence));
    await manager.getByRole('button', { name: `Accept all ≥ ${String(threshold.confidence)}%` }).waitFor();
    await manager.keyboard.press('Escape');

    // The Accuracy page: the threshold, the reliability chart with a count on each point, the tables and the trend.
    dialog = await openAccuracy(manager);
    await dialog
      .getByText(
        `Answers at or above ${String(threshold.confidence)}% were kept unchanged ${String(threshold.kept)} of ${String(threshold.reviewed)} times.`,
      )
      .waitFor();
    // Too few reviews to calibrate on: the switch is there, off and disabled, and says how many are still needed.
    const calibrate = dialog.getByRole('switch', { name: "Calibrate on this workspace's reviews" });
    expect(await calibrate.isDisabled()).toBe(true);
    expect(await calibrate.getAttribute('aria-checked')).toBe('false');
    await dialog
      .getByText(
        `Available once 200 machine answers have been reviewed in this workspace (${String(view.calibration.reviews)} so far).`,
      )
      .waitFor();
    const plotted = view.bands.filter((b) => b.reviewed > 0);
    await dialog
      .locator('.recharts-scatter-symbol')
      .nth(plotted.length - 1)
      .waitFor();
    expect(await dialog.locator('.recharts-scatter-symbol').count()).toBe(plotted.length);
    const pointLabels = await dialog
      .getByRole('img', { name: /^Reliability chart/ })
      .locator('.recharts-label-list text')
      .allTextContents();
    expect(pointLabels.sort()).toEqual(plotted.map((b) => String(b.reviewed)).sort());
    // One week of reviews: the trend is a single point so far, described for a screen reader too.
    const trend = dialog.getByRole('img', { name: /^Share kept unchanged by week: week of / });
    await trend.locator('.recharts-line-dot').first().waitFor();
    expect(await trend.locator('.recharts-line-dot').count()).toBe(view.weekly.filter((w) => w.reviewed > 0).length);

    const bands = dialog.getByRole('table', { name: 'By confidence band' });
    for (const band of view.bands) {
      expect(await rowFigures(bands, band.label), band.label).toEqual([
        ...[band.reviewed, band.unchanged, band.edited, band.replaced, band.notApplicable, band.regenerated].map(
          String,
        ),
        percent(band.keptShare),
      ]);
    }
    const types = dialog.getByRole('table', { name: 'By answer type' });
    expect(await types.getByRole('row').count()).toBe(view.byType.length + 1);
    const topics = dialog.getByRole('table', { name: 'By topic' });
    expect(await topics.getByRole('row').count()).toBe(view.byTopic.length + 1);
    await screenshot(manager, 'accuracy-desktop');
    const panel = dialog.getByRole('tabpanel');
    await bands.scrollIntoViewIfNeeded();
    await screenshot(manager, 'accuracy-desktop-tables');
    await panel.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
    await screenshot(manager, 'accuracy-desktop-lower');
    await panel.evaluate((el) => el.scrollTo({ top: 0 }));
    await expectNoSeriousAxeViolations(manager, '[role="dialog"]');

    // The CSV holds one row per reviewed answer behind the figures.
    const [download] = await Promise.all([
      manager.waitForEvent('download'),
      dialog.getByRole('button', { name: 'Download CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/\.csv$/);
    const csv = fs
      .readFileSync(await download.path(), 'utf8')
      .trim()
      .split(/\r?\n/);
    expect(csv.length).toBe(view.totals.reviewed + 1);

    // On a phone nothing sticks out sideways: the tables scroll inside their own boxes.
    await manager.setViewportSize(PHONE);
    await dialog.locator('.recharts-scatter-symbol').first().waitFor();
    await screenshot(manager, 'accuracy-phone');
    await expectNoHorizontalOverflow(manager);
    await expectNoSeriousAxeViolations(manager, '[role="dialog"]');
    await dialog.getByRole('img', { name: /^Reliability chart/ }).scrollIntoViewIfNeeded();
    await screenshot(manager, 'accuracy-phone-chart');
    await bands.scrollIntoViewIfNeeded();
    await screenshot(manager, 'accuracy-phone-tables');
    await panel.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
    await screenshot(manager, 'accuracy-phone-lower');
    await expectNoHorizontalOverflow(manager);
    await manager.setViewportSize(DESKTOP);

    // An admin finds the same figures beside the usage analytics.
    const adminDialog = await openAccuracy(admin);
    await adminDialog.getByRole('tab', { name: 'Analytics' }).click();
    await adminDialog.getByRole('tab', { name: 'Accuracy' }).click();
    await adminDialog
      .getByText(`kept unchanged ${String(threshold.kept)} of ${String(threshold.reviewed)} times`, {
        exact: false,
      })
      .waitFor();
    await screenshot(admin, 'accuracy-admin');

    expect(errors).toEqual([]);
    await manager.context().close();
    await context.close();
  }, 240_000);
});
