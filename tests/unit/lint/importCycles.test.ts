/**
 * The import-cycle rule must see TypeScript imports (docs/decisions.md, Import rules need a
 * TypeScript parser: without `import-x/parsers` and a TypeScript resolver it passes every cycle).
 * Runs ESLint's Node API with the project's config.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ESLint } from 'eslint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const repo = path.resolve(import.meta.dirname, '../../..');
const onlyNoCycle = ({ ruleId }: { ruleId: string }) => ruleId === 'import-x/no-cycle';

// ESLint resolving TypeScript imports takes seconds on a busy shared machine.
describe('import-x/no-cycle', { timeout: 120_000 }, () => {
  let folder: string;
  beforeAll(async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), 'cycle-'));
  });
  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  async function lint(files: Record<string, string>): Promise<ESLint.LintResult[]> {
    for (const [name, text] of Object.entries(files)) {
      await writeFile(path.join(folder, name), text);
    }
    const eslint = new ESLint({
      cwd: folder,
      overrideConfigFile: path.join(repo, 'eslint.config.js'),
      ruleFilter: onlyNoCycle,
    });
    return eslint.lintFiles(Object.keys(files));
  }

  it('fails a planted two-file cycle of TypeScript modules', async () => {
    const results = await lint({
      'first.ts': "import { second } from './second';\nexport const first = () => second() + 1;\n",
      'second.tsx':
        "import { first } from './first';\nexport const second = (): number => (first.length > 9 ? 1 : 0);\n",
    });
    const messages = results.flatMap((result) =>
      result.messages.map((message) => `${path.basename(result.filePath)}: ${message.ruleId}`),
    );
    expect(messages.sort()).toEqual([
      'first.ts: import-x/no-cycle',
      'second.tsx: import-x/no-cycle',
    ]);
  });

  it('passes the same two files once one no longer imports the other', async () => {
    const results = await lint({
      'first.ts': "import { second } from './second';\nexport const first = () => second() + 1;\n",
      'second.tsx': 'export const second = (): number => 1;\n',
    });
    expect(results.flatMap((result) => result.messages)).toEqual([]);
  });

  it('finds no cycle through the form engine or the header', async () => {
    const eslint = new ESLint({ cwd: repo, ruleFilter: onlyNoCycle });
    const results = await eslint.lintFiles([
      'src/web/forms/SchemaForm.tsx',
      'src/web/forms/fields/registry.ts',
      'src/web/forms/fields/DialogListField.tsx',
      'src/web/app/Header.tsx',
      'src/web/app/ProfileMenu.tsx',
    ]);
    expect(results.flatMap((result) => result.messages)).toEqual([]);
  });
});
