import os from 'node:os';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { formValidatorsPlugin } from './scripts/formValidatorsPlugin';

export default defineConfig({
  // Registration pages import their precompiled validators (virtual:form-validators/<form-id>).
  plugins: [react(), formValidatorsPlugin()],
  test: {
    // Vitest's default is one worker fewer than the cores: one file at a time on CI's 2 cores,
    // where most files wait on jsdom, PostgreSQL or a child process rather than compute.
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.ts'],
          environment: 'node',
          // The forms CLI, compiled once for the tests that launch it.
          globalSetup: ['tests/unit/globalSetup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'component',
          include: ['tests/component/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['tests/component/setup.ts'],
          // Lazy pages and MUI under jsdom are slow on a shared 2-core machine.
          testTimeout: 20_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'server',
          include: ['tests/server/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/server/globalSetup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
