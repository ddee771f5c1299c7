import { defineConfig, devices } from '@playwright/test';
import { chromiumLaunchOptions } from './tests/e2e/chromium';

const port = Number(process.env.E2E_PORT ?? 8181);
/** The fake LEI registry's port (tests/fakes/leiRegistry.ts): the one third party the wizard calls. */
const leiPort = Number(process.env.E2E_LEI_PORT ?? 8182);

/**
 * End-to-end tests drive Debian's Chromium (never a downloaded browser) against the server that
 * `npm start` runs, on a throwaway data folder with its own embedded PostgreSQL. The LEI
 * registry, which this machine cannot reach, is a local fake on loopback that the portal's real
 * registry client asks.
 */
export default defineConfig({
  testDir: 'tests/e2e',
  testMatch: '**/*.spec.ts',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list']] : [['list']],
  outputDir: 'test-results/e2e',
  use: {
    baseURL: `http://localhost:${port}`,
    ...devices['Desktop Chrome'],
    viewport: { width: 1280, height: 900 },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: chromiumLaunchOptions,
  },
  webServer: [
    {
      command: `tsx tests/fakes/leiRegistryServer.ts ${leiPort}`,
      url: `http://127.0.0.1:${leiPort}/health`,
      timeout: 30_000,
      reuseExistingServer: false,
      stdout: 'ignore',
      stderr: 'pipe',
    },
    {
      command: 'rm -rf .e2e-data && npm start',
      url: `http://localhost:${port}/exchange/api/web/config`,
      timeout: 180_000,
      reuseExistingServer: false,
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        PORT: String(port),
        DATA_DIR: '.e2e-data',
        WEB_DIR: '.e2e-data/web',
        LOG_LEVEL: 'warn',
        NODE_ENV: 'development',
        LEI_API_URL: `http://127.0.0.1:${leiPort}/api/v1`,
        // Each test's pages say which visitor they are (tests/e2e/support.ts).
        TRUST_PROXY: '127.0.0.1',
        // A registration form that lives only in a test folder (new-registration-kind.spec.ts).
        FORMS_DIR: 'tests/fixtures/forms-dir',
      },
    },
  ],
});
