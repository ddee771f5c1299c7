import type { LaunchOptions } from '@playwright/test';

/**
 * How every e2e test starts Chromium: Debian's own (never a downloaded browser), headless on a
 * shared machine with nothing of its own reaching the network. playwright.config.ts uses it, and
 * a file that needs one more option spreads it (layout-shift.spec.ts keeps the back/forward cache).
 */
export const chromiumLaunchOptions: LaunchOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
};
