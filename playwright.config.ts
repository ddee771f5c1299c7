import { defineConfig, devices } from '@playwright/test';
import { chromiumLaunchOptions } from './tests/e2e/chromium';
import { LEI_PORT } from './tests/e2e/portalServer';

/**
 * End-to-end tests drive Debian's Chromium (never a downloaded browser) against the built portal.
 * The app is built once per run (globalSetup), and each of the two workers starts its own server
 * from that build, on a free port with a throwaway data folder and embedded PostgreSQL of its own
 * (the `portal` fixture, tests/e2e/support.ts): test files are shared out between the workers,
 * and the tests of one file run one after another on one server. The LEI registry, which this
 * machine cannot reach, is one local fake on loopback that every portal's real registry client
 * asks.
 */
export default defineConfig({
  testDir: 'tests/e2e',
  testMatch: '**/*.spec.ts',
  fullyParallel: false,
  // Two cores: one worker left most of the machine idle (its browser waits on its server and
  // the server on the browser), two keep both cores busy.
  workers: 2,
  // A trace is recorded only on a retry: recording one for every test (retain-on-failure) cost
  // about 40 % more CPU on the 2-core machine, where Chromium is the bottleneck. A failing test
  // is run once more with its trace kept, and a test that passes only on that retry still fails
  // the run (failOnFlakyTests), so the retry hides nothing.
  retries: 1,
  failOnFlakyTests: true,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list']] : [['list']],
  outputDir: 'test-results/e2e',
  globalSetup: './tests/e2e/globalSetup.ts',
  globalTeardown: './tests/e2e/globalTeardown.ts',
  use: {
    // No baseURL here: each worker's comes from its own portal (support.ts).
    ...devices['Desktop Chrome'],
    viewport: { width: 1280, height: 900 },
    trace: 'on-first-retry',
    screenshot: 'only-on-failure',
    launchOptions: chromiumLaunchOptions,
  },
  // Shared by every worker's portal (LEI_API_URL, portalServer.ts).
  webServer: {
    command: `tsx tests/fakes/leiRegistryServer.ts ${LEI_PORT}`,
    url: `http://127.0.0.1:${LEI_PORT}/health`,
    timeout: 30_000,
    reuseExistingServer: false,
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
