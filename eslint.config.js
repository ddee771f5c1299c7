import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import globals from 'globals';

export default tseslint.config(
  {
    ignores: [
      'dist',
      'data',
      '.e2e-data*',
      'node_modules',
      'src/generated',
      'test-results',
      'playwright-report',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { 'import-x': importX },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      // Data flows one way: web and server import shared, never each other (docs/decisions.md, Data
      // flows one way).
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            { target: './src/web', from: './src/server', message: 'web must not import server' },
            { target: './src/server', from: './src/web', message: 'server must not import web' },
            { target: './src/shared', from: './src/web', message: 'shared is pure' },
            { target: './src/shared', from: './src/server', message: 'shared is pure' },
            { target: './src/cli', from: './src/web', message: 'cli must not import web' },
            // db/ is the floor of the server: SQL and rows, nothing that decrypts, stores files or
            // answers requests (issue 36 §4).
            {
              target: './src/server/db',
              from: './src/server',
              except: ['./db'],
              message: 'db/ imports only db/ and src/shared',
            },
          ],
        },
      ],
      'import-x/no-cycle': 'error',
    },
    settings: {
      // Without a parser for .ts/.tsx and a TypeScript resolver the import rules see no imports
      // between our files, and no-cycle passes every cycle (docs/decisions.md, Import rules need a
      // TypeScript parser).
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import-x/resolver-next': [createTypeScriptImportResolver(), createNodeResolver()],
    },
  },
  {
    files: ['src/web/**/*.{ts,tsx}', 'tests/component/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks, 'jsx-a11y': jsxA11y },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...jsxA11y.configs.recommended.rules,
    },
  },
);
