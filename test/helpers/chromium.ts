import type { LaunchOptions } from 'playwright-core';

/**
 * How the e2e tests and the OCR fixtures launch Debian's Chromium (or CHROMIUM_PATH): headless, no sandbox (the
 * tests run as root), and none of the background network traffic, updates and sync a desktop browser starts.
 */
export function chromiumLaunchOptions(): LaunchOptions {
  return {
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  };
}
