import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { chromiumLaunchOptions } from '../test/helpers/chromium';
import { timeLeftInTest } from '../test/helpers/wait';
import { recordToasts } from './toasts';

/** Between a step's own limit and the test's, so the step's error is the one reported. */
const STEP_MARGIN_MS = 3_000;

export const SCREENSHOT_DIR = path.resolve('e2e/screenshots');

declare global {
  interface Window {
    __cspViolations?: string[];
  }
}

/** Every page records what the Content-Security-Policy blocked, so `screenshot` can fail a screen that broke it. */
function recordCspViolations() {
  window.__cspViolations = [];
  document.addEventListener('securitypolicyviolation', (e) => {
    window.__cspViolations?.push(
      `${e.violatedDirective} blocked ${e.blockedURI || 'inline code'} at ${e.sourceFile}:${e.lineNumber}:${e.columnNumber}`,
    );
  });
}

/** Debian's Chromium with the flags this machine needs (no sandbox as root, no background network). */
export async function launchBrowser(): Promise<Browser> {
  const browser = await chromium.launch(chromiumLaunchOptions());
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    // Playwright's own 30 s default would fail a step on a slow machine inside a test allowed far longer: the
    // test's limit is the one bound (what is left of it when the context opens).
    // Kept current while the context lives: a step that starts late gets what is left, so a step that never ends
    // fails with its own error (what it waited for) just before the test's limit would end the test without one.
    const stepTimeout = () => Math.max(1_000, timeLeftInTest() - STEP_MARGIN_MS);
    context.setDefaultTimeout(stepTimeout());
    const refresh = setInterval(() => context.setDefaultTimeout(stepTimeout()), 500);
    context.once('close', () => clearInterval(refresh));
    await context.addInitScript(recordCspViolations);
    await context.addInitScript(recordToasts);
    return context;
  };
  // Like Playwright's own newPage: one context per page, closed with it.
  browser.newPage = async (options) => {
    const context = await browser.newContext(options);
    const page = await context.newPage();
    page.once('close', () => void context.close());
    return page;
  };
  return browser;
}

export async function screenshot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  // The built app must work under its strict CSP: a screen whose code or styles were blocked fails here.
  const blocked = await page.evaluate(() => window.__cspViolations ?? []);
  if (blocked.length > 0) throw new Error(`Content-Security-Policy violations on ${name}: ${blocked.join('; ')}`);
  // Open/close transitions would otherwise be caught half-way.
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
}
