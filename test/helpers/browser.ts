/**
 * Debian's Chromium driven by playwright-core, for the console's tests in a real browser. The
 * flags keep it off the network it cannot reach (background services, component updates).
 */
import { chromium, type Browser } from 'playwright-core';
import { requireBinary } from './binaries.js';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export async function launchBrowser(): Promise<Browser> {
  requireBinary('chromium', CHROMIUM);
  return await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
